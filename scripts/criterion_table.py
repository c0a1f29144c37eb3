#!/usr/bin/env python3
"""Turns criterion's saved estimates into a Markdown table of ours against the peer.

Every benchmark group that has an `arborhash` function and at least one other function gets a
row per peer: the medians, the throughput of each (when the group set one) and the ratio
peer_time / our_time (above 1.0 means we are faster).

Usage: scripts/criterion_table.py [TARGET_DIR/criterion] [GROUP_PREFIX...]
"""
import json
import os
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def fmt_time(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def fmt_rate(bytes_per_s):
    return f"{bytes_per_s / 1e9:.2f} GB/s"


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "target/criterion"
    prefixes = sys.argv[2:]
    rows = []
    for dirpath, _dirs, files in os.walk(root):
        if "benchmark.json" not in files or not dirpath.endswith("/new"):
            continue
        bench = load(os.path.join(dirpath, "benchmark.json"))
        est = load(os.path.join(dirpath, "estimates.json"))
        rows.append((bench, est["median"]["point_estimate"]))
    groups = {}
    for bench, median in rows:
        group = bench["group_id"]
        if bench.get("value_str"):
            group = f"{group}/{bench['value_str']}"
        groups.setdefault(group, {})[bench["function_id"]] = (bench, median)
    print("| benchmark | peer | ours (median) | peer (median) | ours | peer | ratio |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for group in sorted(groups, key=sort_key):
        if prefixes and not any(group.startswith(p) for p in prefixes):
            continue
        funcs = groups[group]
        if "arborhash" not in funcs:
            continue
        ours_bench, ours = funcs["arborhash"]
        for name, (bench, peer) in sorted(funcs.items()):
            if name == "arborhash":
                continue
            tput = (ours_bench.get("throughput") or {}).get("Bytes")
            ours_rate = fmt_rate(tput / ours * 1e9) if tput else ""
            peer_tput = (bench.get("throughput") or {}).get("Bytes")
            peer_rate = fmt_rate(peer_tput / peer * 1e9) if peer_tput else ""
            print(f"| {group} | {name} | {fmt_time(ours)} | {fmt_time(peer)} | {ours_rate} "
                  f"| {peer_rate} | {peer / ours:.2f} |")


def sort_key(group):
    parts = group.split("/")
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts]


if __name__ == "__main__":
    main()
