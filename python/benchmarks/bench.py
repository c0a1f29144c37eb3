"""Speed of the arborhash Python package against its peers, as ratios measured in one run.

Each comparison alternates the two sides round by round (which goes first alternates too) and
reports the median of the per-round ratios (peer time / arborhash time: above 1 means arborhash
is faster) with their minimum and maximum, so that a noisy machine shows as spread.

    python python/benchmarks/bench.py [--rounds N] [--write docs/python.md] [--section NAME]

With --write, the table replaces the part of that file between the markers
``<!-- NAME:start -->`` and ``<!-- NAME:end -->`` (NAME: ``python-bench`` unless given), so that
runs on other interpreters keep tables of their own.
"""

import argparse
import datetime
import hashlib
import os
import platform
import statistics
import sysconfig
import threading
import time

import blake3 as peer
from common import cpu_name, report

import arborhash

SIZES = [64, 256, 1024, 4096, 8192, 16 * 1024, 64 * 1024, 1 << 20]


def per_call(f, target=0.05):
    """Calls per timed batch so that one batch takes about ``target`` seconds."""
    n = 1
    while True:
        t = time.perf_counter()
        for _ in range(n):
            f()
        if time.perf_counter() - t > target / 4:
            return max(1, int(n * target / (time.perf_counter() - t)))
        n *= 4


def timed(f, n, clock):
    t = clock()
    for _ in range(n):
        f()
    return (clock() - t) / n


def compare(ours, theirs, rounds, clock=time.thread_time):
    """Per-round ratios theirs/ours, alternating which side runs first; and ours' time. The
    calling thread's CPU time is the clock unless the work runs on other threads: on a shared
    machine it leaves out the time the thread waits for a core."""
    n = per_call(ours)
    m = per_call(theirs)
    ratios, times = [], []
    for r in range(rounds):
        if r % 2:
            b = timed(theirs, m, clock)
            a = timed(ours, n, clock)
        else:
            a = timed(ours, n, clock)
            b = timed(theirs, m, clock)
        ratios.append(b / a)
        times.append(a)
    return ratios, statistics.median(times)


def size_name(n):
    return f"{n >> 20} MiB" if n >= 1 << 20 else f"{n >> 10} KiB" if n >= 1024 else f"{n} B"


def per_call_time(seconds):
    for unit, scale in [("ns", 1e9), ("us", 1e6)]:
        if seconds * scale < 10_000:
            return f"{seconds * scale:.0f} {unit}"
    return f"{seconds * 1e3:.0f} ms"


def row(name, ratios, seconds, per, target=""):
    """A table row: the median ratio, its spread, arborhash's speed and time per call, and the
    issue's target for the row (empty where it sets none)."""
    med = statistics.median(ratios)
    speed = f"{per / seconds / 1e9:.2f} GB/s, {per_call_time(seconds)}"
    return f"| {name} | {med:.2f}x | {min(ratios):.2f}-{max(ratios):.2f} | {speed} | {target} |"


# The targets for the one-shot rows (sizes not listed there have none).
TARGET_SIZES = {64, 1024, 4096, 64 * 1024, 1 << 20}


def one_shot_target(name, n):
    if n not in TARGET_SIZES or name == "blake2s":
        return ""
    if name == "blake3":
        return ">= 1.0"
    return "about 1.5" if n == 1 << 20 else "> 1.0"


def one_shot(rounds):
    lines = []
    for n in SIZES:
        data = os.urandom(n)
        ratios, t = compare(
            lambda d=data: arborhash.blake3(d).digest(),
            lambda d=data: peer.blake3(d).digest(),
            rounds,
        )
        name = f"blake3 one-shot, {size_name(n)}"
        lines.append(row(name, ratios, t, n, one_shot_target("blake3", n)))
    for n in SIZES:
        data = os.urandom(n)
        for ours, theirs in [
            (arborhash.blake2b, hashlib.blake2b),
            (arborhash.blake2s, hashlib.blake2s),
        ]:
            ratios, t = compare(
                lambda d=data, o=ours: o(d).digest(),
                lambda d=data, h=theirs: h(d).digest(),
                rounds,
            )
            name = f"{ours.name} vs hashlib, {size_name(n)}"
            lines.append(row(name, ratios, t, n, one_shot_target(ours.name, n)))
    return lines


def many(rounds, count=100_000, size=4096):
    messages = [os.urandom(size) for _ in range(count)]
    ratios, t = compare(
        lambda: arborhash.hash_many(messages),
        lambda: [peer.blake3(m).digest() for m in messages],
        max(3, rounds // 4),
    )
    name = f"hash_many, {count:,} x {size_name(size)}, vs a loop over blake3.blake3"
    return [row(name, ratios, t, count * size, ">= 3")]


def threads(rounds, size=64 << 20, per_thread=4):
    """Two threads each hashing ``per_thread`` buffers against one thread hashing them all."""
    buffers = [os.urandom(size) for _ in range(2)]

    def work(buffer):
        for _ in range(per_thread):
            arborhash.blake3(buffer).digest()

    def two():
        ts = [threading.Thread(target=work, args=(b,)) for b in buffers]
        for t in ts:
            t.start()
        for t in ts:
            t.join()

    def one():
        for b in buffers:
            work(b)

    ratios, t = compare(two, one, max(3, rounds // 4), clock=time.perf_counter)
    name = f"two threads vs one, 2 x {per_thread} x {size_name(size)} (blake3, max_threads=1)"
    return [row(name, ratios, t, 2 * per_thread * size, ">= 1.6")]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--write", help="the Markdown file whose table to replace")
    parser.add_argument("--section", default="python-bench", help="the markers' name")
    args = parser.parse_args()
    build = " (free-threaded)" if sysconfig.get_config_var("Py_GIL_DISABLED") else ""
    lines = [
        f"{cpu_name()}, {os.cpu_count()} logical CPUs, Python {platform.python_version()}{build}, "
        f"blake3 {peer.__version__}, {datetime.date.today()}; {args.rounds} rounds; load average "
        f"{os.getloadavg()[0]:.1f} at the start (above 0.5: other work was running).",
        "",
        "Single-threaded rows: the calling thread's CPU time; the threads row: wall time. Target: "
        "the ratio the issue asks for.",
        "",
        "| comparison | ratio (median) | spread (min-max) | arborhash | target |",
        "| --- | --- | --- | --- | --- |",
    ]
    lines += one_shot(args.rounds) + many(args.rounds) + threads(args.rounds)
    report(lines, args.write, args.section)


if __name__ == "__main__":
    main()
