#!/usr/bin/env bash
# Row 7 of BENCHMARKS.md: the build time of a crate of 200 tool structs with
# `derive(Deserialize, ToolArgs)` against the same crate with `derive(Deserialize)` alone.
# Dependencies are built first, so only the crate itself is timed (debug, not incremental,
# three builds each, the median).
#
#   benches/build-time.sh [STRUCTS]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
n="${1:-200}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export CARGO_TARGET_DIR="$work/target" CARGO_INCREMENTAL=0

make_crate() { # $1 = name, $2 = extra derives (", stitch_runtime::ToolArgs" or "")
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
    } > "$work/$1/src/lib.rs"
    # Builds the dependencies once (untimed).
    (cd "$work/$1" && { cargo build -q --offline 2>/dev/null || cargo build -q; })
}

time_crate() { # $1 = name; prints the median of three builds of the crate alone, in ms
    local times=()
    for _ in 1 2 3; do
        touch "$work/$1/src/lib.rs"
        local start end
        start=$(date +%s%N)
        (cd "$work/$1" && cargo build -q --offline)
        end=$(date +%s%N)
        times+=($(((end - start) / 1000000)))
    done
    printf '%s\n' "${times[@]}" | sort -n | sed -n 2p
}

make_crate serde_only ""
make_crate with_stitch ", stitch_runtime::ToolArgs"
base=$(time_crate serde_only)
ours=$(time_crate with_stitch)
echo "$n structs (+ $n row structs): derive(Deserialize) ${base} ms, derive(Deserialize, ToolArgs) ${ours} ms"
awk -v a="$ours" -v b="$base" 'BEGIN { printf "build time ratio: %.2f× (adds %.0f%%)\n", a / b, (a / b - 1) * 100 }'
