#!/usr/bin/env bash
# Instructions per accepted call, stitch against plain serde, on the corpus's well-formed calls
# and the other call shapes (benches/src/corpus.rs), counted by valgrind's callgrind: the same for the same binary and
# input whatever else the machine runs; plain serde is counted in a binary of its own. Each figure is the difference between 2N and N calls,
# divided by N, so the process's own cost cancels out. `from_value` is shown less the clone of
# the arguments both sides pay (`clone`, measured alone).
#
#   benches/instructions.sh [N]          # the table (release build, default features)
#   benches/instructions.sh --check [N]  # exit 1 if a ratio is over the targets of BENCHMARKS.md
#                                        # (from_value 1.5, from_json 1.3)
#   benches/instructions.sh --array-check [N]  # instead: the array check against the serde
#                                        # oracle on texts that are not lists (target 20×)
#   benches/instructions.sh --malformed [N]  # instead: stitch alone on the corpus's malformed
#                                        # calls (refused, repaired), to follow from change to change
#   benches/instructions.sh --constraints [N]  # instead: the constrained call of
#                                        # benches/constraints/schedule.rs, accepted and refused,
#                                        # stitch against serde_json then validator or garde
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
check=0
constraints=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
if [ "${1:-}" = "--constraints" ]; then constraints=1; shift; fi
array_check=0
if [ "${1:-}" = "--array-check" ]; then array_check=1; shift; fi
malformed=0
if [ "${1:-}" = "--malformed" ]; then malformed=1; shift; fi
n="${1:-200}"
command -v valgrind >/dev/null || { echo "valgrind is needed (apt-get install valgrind)"; exit 2; }
if [ "$constraints" = 1 ]; then
    cargo build --release --locked -q -p stitch-benches --features constraint-counts \
        --example instructions_constraints --manifest-path "$root/Cargo.toml"
    bin="${CARGO_TARGET_DIR:-$root/target}/release/examples/instructions_constraints"
else
    cargo build --release --locked -q -p stitch-benches --bin instructions --bin instructions_serde \
        --manifest-path "$root/Cargo.toml"
    bin="${CARGO_TARGET_DIR:-$root/target}/release/instructions"
    # Plain serde in a binary of its own, laid out and inlined as in a program without stitch.
    serde_bin="${CARGO_TARGET_DIR:-$root/target}/release/instructions_serde"
fi

# Instructions of one run: callgrind's "Collected" total.
total() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$@" 2>&1 |
        awk '/Collected :/ { print $NF }'
}
# Per call: (total at 2N - total at N) / N.
per_call() {
    local one two
    one=$(total "$1" "$2" "$n")
    two=$(total "$1" "$2" $((2 * n)))
    echo $(( (two - one) / n ))
}
# The same, counted in the serde binary (bash's `local` is seen by the functions called).
serde_per_call() {
    local bin=$serde_bin
    per_call "$@"
}

if [ "$constraints" = 1 ]; then
    printf '%-19s %-22s %9s %9s %9s %9s %9s %7s %7s\n' \
        call surface stitch validator garde serde unconstr s/valid s/garde
    for call in accepted refused accepted_no_pattern; do
        clone=$(per_call clone "$call")
        for surface in from_value from_json; do
            row=()
            for side in stitch validator garde serde unconstrained; do
                c=$(per_call "${side}_$surface" "$call")
                if [ "$surface" = from_value ]; then c=$((c - clone)); fi
                row+=("$c")
            done
            label=$surface
            if [ "$surface" = from_value ]; then label="from_value (less clone)"; fi
            printf '%-19s %-22s %9d %9d %9d %9d %9d %7s %7s\n' "$call" "$label" "${row[@]}" \
                "$(awk -v s="${row[0]}" -v p="${row[1]}" 'BEGIN { printf "%.2f", s / p }')" \
                "$(awk -v s="${row[0]}" -v p="${row[2]}" 'BEGIN { printf "%.2f", s / p }')"
        done
    done
    exit 0
fi

if [ "$array_check" = 1 ]; then
    cargo build --release --locked -q -p stitch-benches --bin instructions_check --manifest-path "$root/Cargo.toml"
    bin="${CARGO_TARGET_DIR:-$root/target}/release/instructions_check"
    printf '%-16s %9s %9s %8s\n' text stitch oracle faster
    for kind in plain bracketed truncated; do
        for size in 10B 1KiB 1MiB; do
            s=$(per_call stitch "${kind}_$size")
            o=$(per_call oracle "${kind}_$size")
            printf '%-16s %9d %9d %7s×\n' "${kind}_$size" "$s" "$o" \
                "$(awk -v s="$s" -v o="$o" 'BEGIN { printf "%.1f", o / s }')"
        done
    done
    exit 0
fi

if [ "$malformed" = 1 ]; then
    cargo build --release --locked -q -p stitch-benches --bin instructions_malformed --manifest-path "$root/Cargo.toml"
    bin="${CARGO_TARGET_DIR:-$root/target}/release/instructions_malformed"
    printf '%-19s %-22s %9s  %s\n' call surface stitch answer
    for call in view_file_text_list search_repair edit_50_text_lists action_repair flat_20_r8_nulls; do
        clone=$(per_call clone "$call")
        for surface in from_value from_json; do
            s=$(per_call "stitch_$surface" "$call")
            label=$surface
            if [ "$surface" = from_value ]; then s=$((s - clone)); label="from_value (less clone)"; fi
            printf '%-19s %-22s %9d  %s\n' "$call" "$label" "$s" "$("$bin" "stitch_$surface" "$call" 1)"
        done
    done
    exit 0
fi

calls=(view_file_1 view_file_20 search edit_50 action one_field nested_4 flat_20 flat_20_one_null
    flat_20_nulls)
printf '%-13s %-22s %9s %9s %7s\n' call surface stitch serde ratio
over=0
for call in "${calls[@]}"; do
    clone=$(per_call clone "$call")
    serde_clone=$(serde_per_call clone "$call")
    for surface in from_value from_json; do
        s=$(per_call "stitch_$surface" "$call")
        p=$(serde_per_call "serde_$surface" "$call")
        label=$surface
        if [ "$surface" = from_value ]; then
            s=$((s - clone)); p=$((p - serde_clone)); label="from_value (less clone)"
            target=1.5
        else
            target=1.3
        fi
        ratio=$(awk -v s="$s" -v p="$p" 'BEGIN { printf "%.2f", s / p }')
        mark=""
        if awk -v r="$ratio" -v t="$target" 'BEGIN { exit !(r > t) }'; then mark=" over $target"; over=1; fi
        printf '%-13s %-22s %9d %9d %7s%s\n' "$call" "$label" "$s" "$p" "$ratio" "$mark"
    done
done
if [ "$check" = 1 ] && [ "$over" = 1 ]; then
    echo "some accepted call costs more than its target"; exit 1
fi
