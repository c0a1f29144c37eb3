#!/usr/bin/env python3
"""Go BLAKE3 against zeebo/blake3 and lukechampine.com/blake3, alternately.

Builds the benchmarks of go/internal/bench once, then for each GOMAXPROCS
setting, each benchmark and each round runs ours, zeebo's and lukechampine's
in turn (one process each, so a change of load hits all three alike), and
prints per row the median ns/op of each and the ratio of the faster peer's
time to ours: the median over rounds, and the lowest and highest.

    scripts/go-bench-peers.py [--rounds 5] [--benchtime 100ms] [--procs 1,2]
"""

import argparse
import os
import re
import statistics
import subprocess
import tempfile
from pathlib import Path

IMPLS = ("ours", "zeebo", "luke")
SIZES = ("64B", "256B", "1KiB", "4KiB", "16KiB", "64KiB", "256KiB", "1MiB", "4MiB", "16MiB")
ROWS = [("Sum", s) for s in SIZES] + [("Write", w) for w in ("64B", "8KiB")]
LINE = re.compile(r"^Benchmark(\w+)/(\w+)/(\w+)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op")


def run(binary, procs, bench, impl, size, benchtime):
    out = subprocess.run(
        [
            binary,
            "-test.run",
            "^$",
            "-test.bench",
            f"^Benchmark{bench}$/^{impl}$/^{size}$",
            "-test.benchtime",
            benchtime,
            "-test.cpu",
            str(procs),
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    for line in out.splitlines():
        m = LINE.match(line)
        if m:
            return float(m.group(4))
    raise SystemExit(f"no result for {bench}/{impl}/{size}:\n{out}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--benchtime", default="100ms")
    ap.add_argument("--procs", default="1,2")
    args = ap.parse_args()
    bench_dir = Path(__file__).resolve().parent.parent / "go" / "internal" / "bench"
    with tempfile.TemporaryDirectory() as tmp:
        binary = os.path.join(tmp, "bench.test")
        subprocess.run(["go", "test", "-c", "-o", binary, "."], cwd=bench_dir, check=True)
        model = next(
            (
                ln.split(":", 1)[1].strip()
                for ln in open("/proc/cpuinfo")
                if ln.startswith("model name")
            ),
            "unknown CPU",
        )
        print(f"CPU: {model}; load average {os.getloadavg()[0]:.1f} at the start")
        for procs in [int(p) for p in args.procs.split(",")]:
            print(f"\nGOMAXPROCS={procs}")
            print("| benchmark | ours ns | zeebo ns | luke ns | best peer / ours | spread |")
            print("| --- | ---: | ---: | ---: | ---: | --- |")
            for bench, size in ROWS:
                ns = {i: [] for i in IMPLS}
                for _ in range(args.rounds):
                    for impl in IMPLS:
                        ns[impl].append(run(binary, procs, bench, impl, size, args.benchtime))
                ratios = [min(z, lk) / o for o, z, lk in zip(ns["ours"], ns["zeebo"], ns["luke"])]
                med = {i: statistics.median(v) for i, v in ns.items()}
                cells = [f"{bench} {size}"] + [f"{med[i]:.0f}" for i in IMPLS]
                cells += [
                    f"{statistics.median(ratios):.2f}",
                    f"{min(ratios):.2f}-{max(ratios):.2f}",
                ]
                print("| " + " | ".join(cells) + " |", flush=True)
        print(f"\nload average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
