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
# Wall-clock time on a shared two-core machine moves by a second or more from one build to the
# next. `--instructions` counts instead what rustc executes building each crate (valgrind's
# callgrind; the derives run inside rustc, so they are counted too): the same from one run to
# the next, and a build of 40 structs is enough (each crate takes a minute under valgrind).
#
#   benches/build-time.sh [STRUCTS]
#   benches/build-time.sh --instructions [STRUCTS]   # default 40
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
instructions=0
if [ "${1:-}" = "--instructions" ]; then instructions=1; shift; fi
if [ "$instructions" = 1 ]; then n="${1:-40}"; else n="${1:-200}"; fi
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

build_instructions() { # $1 = name; rustc's instructions building the crate alone
    touch "$work/$1/src/lib.rs"
    local cmd
    # The command cargo runs for the crate itself (its dependencies are built already).
    cmd=$(cd "$work/$1" && cargo build -v --offline 2>&1 |
        sed -n "s/^ *Running \`\(.*rustc --crate-name $1 .*\)\`$/\1/p")
    touch "$work/$1/src/lib.rs"
    (cd "$work/$1" && eval "valgrind --tool=callgrind --callgrind-out-file=/dev/null $cmd" 2>&1 |
        awk '/Collected :/ { print $NF }')
}

count_ratio() { # $1 = label, $2, $3 = names (baseline, stitch)
    local a b
    a=$(build_instructions "$2")
    b=$(build_instructions "$3")
    echo "$1: derive(Deserialize) $a, derive(Deserialize, ToolArgs) $b rustc instructions"
    awk -v a="$b" -v b="$a" 'BEGIN { printf "  build instructions ratio: %.3f× (adds %.1f%%)\n", a / b, (a / b - 1) * 100 }'
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
if [ "$instructions" = 1 ]; then
    command -v valgrind >/dev/null || { echo "valgrind is needed (apt-get install valgrind)"; exit 2; }
    count_ratio "$n structs (+ $n row structs), definitions" serde_only with_stitch
    count_ratio "$n structs (+ $n row structs), with a call of each" serde_calls stitch_calls
    exit 0
fi
# shellcheck disable=SC2046 # two numbers, split on purpose
ratio "$n structs (+ $n row structs), definitions" $(time_pair serde_only with_stitch)
# shellcheck disable=SC2046
ratio "$n structs (+ $n row structs), with a call of each" $(time_pair serde_calls stitch_calls)
