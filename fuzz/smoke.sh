#!/usr/bin/env bash
# A short run of one fuzz target from its corpus and seeds, as CI does (`.ci/run`):
#   fuzz/smoke.sh [TARGET] [SECONDS]        default: proxy_lines for 60 s
# New inputs go to a scratch folder, never into the committed corpus. A failure (a panic of the
# target's check, a timeout of 10 s on one input, 4 GiB of memory) exits non-zero and leaves
# the input in fuzz/artifacts/TARGET/. Needs the nightly toolchain and cargo-fuzz 0.13, both
# installed here when missing. No sanitizer: the code it runs is safe Rust, and the build is
# minutes shorter without one (RELIABILITY.md's long runs use cargo fuzz's default, ASan).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
target=${1:-proxy_lines}
seconds=${2:-60}

if ! rustup run nightly rustc --version >/dev/null 2>&1; then
    rustup toolchain install nightly --profile minimal 2>&1 | tail -n 1
fi
if ! cargo fuzz --version 2>/dev/null | grep -q '^cargo-fuzz 0\.13\.'; then
    cargo install cargo-fuzz --version '^0.13' --locked -q
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cargo +nightly fuzz build "$target" --sanitizer none
cargo +nightly fuzz run "$target" --sanitizer none "$scratch" "corpus/$target" "seeds/$target" -- \
    -max_total_time="$seconds" -rss_limit_mb=4096 -timeout=10 -dict=json.dict -print_final_stats=1 \
    2>"$scratch.log" || { tail -n 60 "$scratch.log"; rm -f "$scratch.log"; exit 1; }
grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|Done)' "$scratch.log" || true
echo "fuzz $target: ${seconds} s from $(ls "corpus/$target" | wc -l) corpus inputs and $(ls "seeds/$target" | wc -l) seeds, no failure"
rm -f "$scratch.log"
