#!/usr/bin/env bash
# Row 7 of BENCHMARKS.md: the build time of a crate of 200 tool structs with
# `derive(Deserialize, ToolArgs)` against the same crate with `derive(Deserialize)` alone.
# Dependencies are built first, so only the crate itself is timed (debug, not incremental,
# five builds each, in turn with the baseline so that both see the same machine, the median).
#
# Two pairs of crates: the definitions alone, and the definitions with a function that reads
# a call of each tool from a `serde_json::Value` (`serde_json::from_value::<ToolN>` against
# `ToolN::from_value`), as a server's dispatch does. Generic code (all of serde's, and the
# walks stitch marks `#[inline]`) is compiled where it is used, so only the second pair
# counts the code generation of either side.
#
#   benches/build-time.sh [STRUCTS]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
n="${1:-200}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export CARGO_TARGET_DIR="$work/target" CARGO_INCREMENTAL=0

make_crate() { # $1 = name, $2 = extra derives (", stitch_runtime::ToolArgs" or ""), $3 = call
    mkdir -p "$work/$1/src"
    cat > "$work/$1/Cargo.toml" <<TOML
[package]
name = "$1"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
serde = { version = "1", features = ["derive"] }
serde_json = "1"
stitch-runtime = { path = "$root/stitch-runtime" }

[workspace]
TOML
    {
        echo "#![allow(dead_code)]"
        echo "use stitch_runtime::OneOrMany;"
        for i in $(seq 1 "$n"); do
            cat <<RS
/// Tool $i.
#[derive(serde::Deserialize$2)]
pub struct Tool$i {
    /// One path or many.
    pub paths: OneOrMany<String>,
    #[serde(default)]
    pub limit: Option<u32>,
    #[serde(default, rename = "tagList")]
    pub tags: Vec<String>,
    pub query: String,
    #[serde(default)]
    pub rows: Vec<Row$i>,
}

#[derive(serde::Deserialize$2)]
pub struct Row$i {
    pub line: u32,
    pub names: OneOrMany<String>,
}
RS
        done
        if [ -n "${3:-}" ]; then
            echo "pub fn call(tool: usize, args: serde_json::Value) -> Result<(), String> {"
            echo "    match tool {"
            for i in $(seq 1 "$n"); do
                echo "        $i => $(printf "$3" "Tool$i").map(|_| ()).map_err(|e| e.to_string()),"
            done
            echo "        _ => Err(format!(\"no tool {tool}\")),"
            echo "    }"
            echo "}"
        fi
    } > "$work/$1/src/lib.rs"
    # Builds the dependencies once (untimed).
    (cd "$work/$1" && { cargo build -q --offline 2>/dev/null || cargo build -q; })
}

build_ms() { # $1 = name; one build of the crate alone, in ms
    touch "$work/$1/src/lib.rs"
    local start end
    start=$(date +%s%N)
    (cd "$work/$1" && cargo build -q --offline)
    end=$(date +%s%N)
    echo $(((end - start) / 1000000))
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

time_pair() { # $1, $2 = names; builds them in turn five times, prints both medians in ms
    local a=() b=()
    for _ in 1 2 3 4 5; do
        a+=("$(build_ms "$1")")
        b+=("$(build_ms "$2")")
    done
    echo "$(printf '%s\n' "${a[@]}" | median) $(printf '%s\n' "${b[@]}" | median)"
}

ratio() { # $1 = label, $2 = baseline ms, $3 = stitch ms
    echo "$1: derive(Deserialize) $2 ms, derive(Deserialize, ToolArgs) $3 ms (medians of 5, built in turn)"
    awk -v a="$3" -v b="$2" 'BEGIN { printf "  build time ratio: %.2f× (adds %.0f%%)\n", a / b, (a / b - 1) * 100 }'
}

make_crate serde_only ""
make_crate with_stitch ", stitch_runtime::ToolArgs"
make_crate serde_calls "" 'serde_json::from_value::<%s>(args)'
make_crate stitch_calls ", stitch_runtime::ToolArgs" '<%s as stitch_runtime::ToolArgs>::from_value(args)'
# shellcheck disable=SC2046 # two numbers, split on purpose
ratio "$n structs (+ $n row structs), definitions" $(time_pair serde_only with_stitch)
# shellcheck disable=SC2046
ratio "$n structs (+ $n row structs), with a call of each" $(time_pair serde_calls stitch_calls)
