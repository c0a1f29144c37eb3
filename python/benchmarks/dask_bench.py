"""arborhash.dask.hash_file on a local cluster of 1 and 2 worker processes, against `arbor sum`
and `b3sum` on the same file, and the cost of merging on the client or on the workers.

    python python/benchmarks/dask_bench.py FILE [--size 1GiB] [--rounds 9]
        [--arbor target/release/arbor] [--write docs/dask.md]

FILE is created (random bytes) if it does not exist. The local clusters are what a user starts
for one machine: ``LocalCluster(n_workers=N, threads_per_worker=1)``, worker processes with
their nannies. Runs alternate between the setups round by round, after a warm-up that also
brings the file into the page cache, so the figures are of hashing, not of the disk. The load
average before and after is printed, as other work on the machine makes the figures noisy.
With --write, the table replaces the part of that file between ``<!-- dask-bench:start -->``
and ``<!-- dask-bench:end -->``.
"""

import argparse
import datetime
import os
import shutil
import statistics
import subprocess
import time

import blake3 as peer
import distributed
from common import cpu_name, report

import arborhash.dask as ad

MiB = 1 << 20
#: The setups the issue asks for: a local cluster of 1 and of 2 worker processes.
DASK = {n: f"arborhash.dask, {n} worker process{'es' if n > 1 else ''}" for n in (1, 2)}


def make_file(path, size):
    if os.path.exists(path) and os.path.getsize(path) == size:
        return
    with open(path, "wb") as f:
        for _ in range(size // (64 * MiB)):
            f.write(os.urandom(64 * MiB))
        f.write(os.urandom(size % (64 * MiB)))


def timed(f):
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


def part_task_cpu(path, part_size, new_buffer):
    """The CPU time of one part task, run in a worker process; with ``new_buffer``, as if the
    worker thread had no read buffer kept from an earlier task."""
    if new_buffer and hasattr(ad._buffers, "buffer"):
        del ad._buffers.buffer
    version = ad._version(path)
    t = time.thread_time()
    ad._hash_part(path, 0, part_size, version, {})
    return time.thread_time() - t


def spread(times):
    return f"{statistics.median(times):.3f} s ({min(times):.3f}-{max(times):.3f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("file")
    parser.add_argument("--size", type=int, default=1 << 30)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--part-size", type=int, default=ad.PART_SIZE)
    parser.add_argument("--arbor", default=shutil.which("arbor"))
    parser.add_argument("--write")
    args = parser.parse_args()
    make_file(args.file, args.size)
    load_before = os.getloadavg()[0]
    expected = peer.blake3(max_threads=peer.blake3.AUTO).update_mmap(args.file).digest()

    setups = {}
    clusters = []
    for workers in (1, 2):
        cluster = distributed.LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0"
        )
        client = distributed.Client(cluster, set_as_default=False)
        clusters.append((cluster, client))

        def run(client=client, merge="client", part_size=args.part_size):
            digest = ad.hash_file(args.file, client=client, part_size=part_size, merge=merge)
            assert digest == expected

        setups[DASK[workers]] = run
        # Fewer, larger tasks: what the part size trades against the balance between workers.
        setups[f"{workers} worker{'s' if workers > 1 else ''}, 256 MiB parts"] = lambda run=run: (
            run(part_size=256 * MiB)
        )
        if workers == 2:
            for merge in ("client", "workers"):
                setups[f"2 workers, 1 MiB parts, merge on the {merge}"] = (
                    lambda run=run, merge=merge: run(merge=merge, part_size=MiB)
                )
    # The peers on all threads, and on one: their own speed-up is what the two CPUs give to a
    # program that schedules nothing.
    commands = {
        "b3sum": ["b3sum", "--no-names", args.file],
        "b3sum, 1 thread": ["b3sum", "--no-names", "--num-threads", "1", args.file],
    }
    if args.arbor:
        commands["arbor sum"] = [args.arbor, "sum", args.file]
        commands["arbor sum, 1 thread"] = [args.arbor, "sum", "--num-threads", "1", args.file]
    for name, command in commands.items():
        if shutil.which(command[0]) or os.path.exists(command[0]):
            setups[name] = lambda command=command: subprocess.run(
                command, check=True, stdout=subprocess.DEVNULL
            )

    for f in setups.values():
        f()  # warm-up: workers started, file cached
    times = {name: [] for name in setups}
    names = list(setups)
    for r in range(args.rounds):
        for name in names if r % 2 == 0 else reversed(names):
            times[name].append(timed(setups[name]))

    # One part task's own speed in a worker process, on its thread's CPU time (what a worker
    # does when it has a core to itself), with the read buffer kept and with a new one.
    one_worker = clusters[0][1]
    part_cpu = {True: [], False: []}
    for _ in range(5):
        for new_buffer in part_cpu:
            part_cpu[new_buffer].append(
                one_worker.submit(
                    part_task_cpu, args.file, args.part_size, new_buffer, pure=False
                ).result()
            )
    for cluster, client in clusters:
        client.close()
        cluster.close()
    load_after = os.getloadavg()[0]

    # Merging the chaining values of one TiB cut into 64 MiB parts, on one core.
    cvs = [os.urandom(32) for _ in range((1 << 40) // ad.PART_SIZE)]
    merge_tib = min(timed(lambda: ad._merge(cvs, {}, True)) for _ in range(3))

    size = args.size
    lines = [
        f"{cpu_name()}, {os.cpu_count()} logical CPUs, "
        f"{datetime.date.today()}; {size / 2**30:g} GiB file in the page cache, part size "
        f"{args.part_size // MiB} MiB unless noted; b3sum and arbor sum map the file and use all "
        f"threads unless noted; {args.rounds} rounds, median (min-max).",
        "",
        "| setup | time | throughput |",
        "| --- | --- | --- |",
    ]
    for name in names:
        med = statistics.median(times[name])
        lines.append(f"| {name} | {spread(times[name])} | {size / med / 1e9:.2f} GB/s |")
    two = statistics.median(times[DASK[2]])
    lines.append("")
    for part, (one_name, two_name) in {
        f"{args.part_size // MiB} MiB": DASK.values(),
        "256 MiB": ("1 worker, 256 MiB parts", "2 workers, 256 MiB parts"),
    }.items():
        per_round = [a / b for a, b in zip(times[one_name], times[two_name], strict=True)]
        speed_up = statistics.median(times[one_name]) / statistics.median(times[two_name])
        lines.append(
            f"Speed-up of 2 worker processes over 1, {part} parts: {speed_up:.2f}x (per round "
            f"{min(per_round):.2f}-{max(per_round):.2f}x)."
        )
    for name in ("b3sum", "arbor sum"):
        if name in times:
            all_threads, one_thread = (
                statistics.median(times[n]) for n in (name, f"{name}, 1 thread")
            )
            lines.append(
                f"2 worker processes against {name}: {two / all_threads:.2f} times as long; "
                f"{name}'s own speed-up from 1 thread to all: {one_thread / all_threads:.2f}x."
            )
    kept, new = (args.part_size / min(part_cpu[b]) / 1e9 for b in (False, True))
    lines += [
        f"One part task in a worker process ({args.part_size // MiB} MiB, its thread's CPU "
        f"time, best of 5): {kept:.2f} GB/s ({new:.2f} GB/s with a new read buffer, as the "
        "nanny's MALLOC_TRIM_THRESHOLD_ hands a freed one back to the system).",
        f"Merging the 16,384 chaining values of 1 TiB in 64 MiB parts on the client: "
        f"{merge_tib * 1e3:.1f} ms.",
        f"Load average (1 min) before and after: {load_before:.2f}, {load_after:.2f}.",
    ]
    report(lines, args.write, "dask-bench")


if __name__ == "__main__":
    main()
