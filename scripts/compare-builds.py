#!/usr/bin/env python3
"""Compares two builds of `arbor` row by row: runs `arbor bench pairs --json` of each in turn,
several times, and prints for every row and size the median over the runs of each build's
peer/ours ratio and their quotient (after / before: below 1 means the second build is slower).

The peer is the same code in both builds, so its time absorbs what the machine does meanwhile;
the quotient of the two ratios is the change in our own code.

Usage: scripts/compare-builds.py BEFORE AFTER [--runs N] [--backend NAME] [-- PAIRS-ARGS...]
  BEFORE, AFTER  two `arbor` binaries built with `--features bench-peers` (the peers), e.g.
                 `target/release/arbor` built at two commits
  --backend      only the rows of this backend of ours (default: every row)
  PAIRS-ARGS     passed to `arbor bench pairs` (e.g. --sizes 64,1M --seconds 0.5 --filter BLAKE3)
"""

import argparse
import json
import statistics
import subprocess
import sys


def run(binary, backend, pairs_args):
    out = subprocess.run(
        [binary, "bench", "pairs", "--json", *pairs_args],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    report = json.loads(out)
    rows = {}
    for row in report["rows"]:
        ours = row["ours_backend"]
        if backend is not None and ours != backend:
            continue
        key = f'{row["name"]} ({ours}) vs {row["peer"]}'
        rows[key] = [cell["median"] for cell in row["peer_over_ours"]]
    return report["sizes"], rows


def size_name(n):
    for unit, shift in (("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift} {unit}"
    return f"{n} B"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--backend")
    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    pairs_args = argv[split + 1 :]

    results = {"before": [], "after": []}
    sizes = None
    for i in range(args.runs):
        for which in ("before", "after") if i % 2 == 0 else ("after", "before"):
            binary = getattr(args, which)
            print(f"run {i + 1}/{args.runs}: {which}", file=sys.stderr)
            sizes, rows = run(binary, args.backend, pairs_args)
            results[which].append(rows)

    names = [n for n in results["before"][0] if n in results["after"][0]]
    print("| row | " + " | ".join(size_name(s) for s in sizes) + " |")
    print("| --- |" + " --- |" * len(sizes))
    for name in names:
        cells = []
        for j in range(len(sizes)):
            before = [r[name][j] for r in results["before"]]
            after = [r[name][j] for r in results["after"]]
            b, a = statistics.median(before), statistics.median(after)
            quotients = sorted(x / y for x, y in zip(after, before))
            spread = f" ({quotients[0]:.3f}-{quotients[-1]:.3f})" if len(quotients) > 1 else ""
            cells.append(f"{b:.2f} → {a:.2f}: {a / b:.3f}{spread}")
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
