#!/usr/bin/env python3
"""Prints the ratios of BENCHMARKS.md from criterion's estimates (run after `cargo bench`).

Each figure compares two benchmarks of one run: stitch's time over the baseline's (below 1.00
stitch is faster), or the baseline's over stitch's where the target is "N× faster".
"""
import json
import pathlib
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "target/criterion")


def median(*parts):
    path = root.joinpath(*parts, "new", "estimates.json")
    try:
        return json.loads(path.read_text())["median"]["point_estimate"]
    except FileNotFoundError:
        return None


def ids(group, function):
    base = root / group / function
    return sorted(p.name for p in base.iterdir() if p.is_dir() and p.name != "report") if base.is_dir() else []


def row(label, ours, theirs, faster=False):
    if ours is None or theirs is None:
        print(f"| {label} | (not measured) | |")
        return
    if faster:
        print(f"| {label} | {theirs / ours:.1f}× faster | {ours:,.0f} ns vs {theirs:,.0f} ns |")
    else:
        print(f"| {label} | {ours / theirs:.3f}× | {ours:,.0f} ns vs {theirs:,.0f} ns |")


print("| figure | measured | stitch vs baseline (median) |")
print("|---|---|---|")
for group, baseline in [("from_value", "serde_json"), ("from_json", "serde_json")]:
    for call in ids(group, "stitch"):
        theirs = median(group, baseline, call)
        ours = median(group, "stitch", call)
        if theirs is None:
            print(f"| {group} {call} (no baseline: refused or repaired) | {ours:,.0f} ns | |")
        else:
            row(f"{group} {call}", ours, theirs)
for call in ids("raw", "stitch"):
    row(f"coerce_value vs jsonschema is_valid, {call}", median("raw", "stitch", call), median("raw", "jsonschema", call), True)
for call in ids("schema", "coercer"):
    row(f"Coercer vs coerce_value, {call}", median("schema", "coercer", call), median("schema", "coerce_value", call))
    if median("schema", "jsonschema", call) is not None:
        row(f"Coercer vs jsonschema is_valid, {call}", median("schema", "coercer", call), median("schema", "jsonschema", call), True)
for tool in ids("schema_compile", "coercer"):
    row(f"Coercer::new vs jsonschema validator_for, {tool}", median("schema_compile", "coercer", tool), median("schema_compile", "jsonschema", tool))
for surface in ["text", "value"]:
    for size in ids("one_or_many", f"{surface}_stitch"):
        ours = median("one_or_many", f"{surface}_stitch", size)
        for other in ["serde_with", "untagged"]:
            row(f"OneOrMany<String> from {surface}, {size}, vs {other}", ours, median("one_or_many", f"{surface}_{other}", size), True)
        # The floor: the plain type (`String` or `Vec<String>`), which is no one-or-many at all.
        plain = median("one_or_many", f"{surface}_plain", size)
        row(f"OneOrMany<String> from {surface}, {size}, vs the plain type", ours, plain)
        row(f"serde_with from {surface}, {size}, vs the plain type", median("one_or_many", f"{surface}_serde_with", size), plain)
for kind in ["plain", "bracketed", "truncated"]:
    for size in ids("check_no", f"stitch_{kind}"):
        row(f"array check, {kind} {size}", median("check_no", f"stitch_{kind}", size), median("check_no", f"oracle_{kind}", size), True)
for size in ids("check_yes", "stitch"):
    ours = median("check_yes", "stitch", size)
    row(f"array check, text list {size}", ours, median("check_yes", "oracle", size), True)
    est = root / "check_yes" / "stitch" / size / "new" / "benchmark.json"
    try:
        throughput = json.loads(est.read_text())["throughput"]["Bytes"]
        print(f"| array check throughput, {size} | {throughput / ours:.2f} GB/s | |")
    except (FileNotFoundError, KeyError, TypeError):
        pass

# Constraints (#22, `--bench constraints`): stitch against serde_json then `validator` or
# `garde` on the same constrained struct, one table of its own.
rows = [(group, call) for group in ["constraints_value", "constraints_json"] for call in ids(group, "stitch")]
if rows:
    print()
    print("| call | surface | stitch | validator | garde | stitch / validator | stitch / garde | serde alone | stitch unconstrained |")
    print("|---|---|---|---|---|---|---|---|---|")
    for group, call in rows:
        sides = {side: median(group, side, call) for side in ["stitch", "validator", "garde", "serde", "unconstrained"]}
        ns = {side: "" if t is None else f"{t:,.0f} ns" for side, t in sides.items()}
        ratio = {side: "" if sides[side] is None else f"{sides['stitch'] / sides[side]:.2f}" for side in ["validator", "garde"]}
        print(f"| {call} | {group.removeprefix('constraints_')} | {ns['stitch']} | {ns['validator']} | {ns['garde']} "
              f"| {ratio['validator']} | {ratio['garde']} | {ns['serde']} | {ns['unconstrained']} |")
