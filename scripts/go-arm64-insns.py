#!/usr/bin/env python3
"""Counts the arm64 guest instructions per byte that the Go module's BLAKE3
and Tillich-Zémor take under qemu-aarch64, against zeebo/blake3 and tzhash,
from QEMU's own logs (in_asm gives each translated block's instructions, exec
with nochain every block run), so no TCG plugin is needed.

Each figure is (instructions of a run hashing n bytes 1 + reps times minus
those of a run hashing them once) / (n * reps), counting only the blocks of
the hash packages and runtime.mem*: start-up, one-time set-up (TZ's tables)
and the Go runtime's background threads, which run more the slower the
emulation, stay out. Emulated time means nothing; the
count is of instructions, not cycles, and says nothing of their latency.

    scripts/go-arm64-insns.py [sizes...]     (default 4096 65536 1048576)
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
COMPAT = os.path.join(HERE, "..", "go", "internal", "compat")
INSN = re.compile(rb"^0x[0-9a-f]+:")
TRACE = re.compile(rb"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/[^\]]*\] (\S+)")
HASH_CODE = (b"github.com/arborhash/arborhash/go/", b"github.com/zeebo/blake3",
             b"github.com/nspcc-dev/tzhash", b"runtime.mem")


def build(tmp, tags):
    out = os.path.join(tmp, "hashonce" + ("-" + tags if tags else ""))
    cmd = ["go", "build", "-o", out]
    if tags:
        cmd += ["-tags", tags]
    env = dict(os.environ, GOARCH="arm64", CGO_ENABLED="0")
    subprocess.run(cmd + ["./cmd/hashonce"], cwd=COMPAT, env=env, check=True)
    return out


def count(binary, impl, n, reps, tmp):
    log = os.path.join(tmp, "qemu.log")
    env = dict(os.environ, GOMAXPROCS="1", GOGC="off")
    subprocess.run(["qemu-aarch64", "-d", "in_asm,exec,nochain", "-D", log, binary,
                    "-impl", impl, "-n", str(n), "-reps", str(reps)],
                   env=env, check=True, stdout=subprocess.DEVNULL)
    sizes, runs, pc = {}, {}, None
    with open(log, "rb") as f:
        for line in f:
            if line.startswith(b"IN:"):
                pc = None
            elif INSN.match(line):
                if pc is None:
                    pc = int(line.split(b":")[0], 16)
                    sizes[pc] = 0
                sizes[pc] += 1
            else:
                m = TRACE.match(line)
                if m and m.group(2).startswith(HASH_CODE):
                    key = int(m.group(1), 16)
                    runs[key] = runs.get(key, 0) + 1
    os.remove(log)
    return sum(sizes.get(k, 0) * v for k, v in runs.items())


def main():
    sizes = [int(s) for s in sys.argv[1:]] or [4096, 65536, 1 << 20]
    with tempfile.TemporaryDirectory() as tmp:
        asm, pure = build(tmp, ""), build(tmp, "purego")
        rows = [
            ("BLAKE3 arborhash (NEON)", asm, "arborhash"),
            ("BLAKE3 arborhash (purego)", pure, "arborhash"),
            ("BLAKE3 zeebo/blake3", asm, "zeebo"),
            ("TZ arborhash (PMULL)", asm, "arborhash-tz"),
            ("TZ arborhash (purego)", pure, "arborhash-tz"),
            ("TZ nspcc-dev/tzhash", asm, "tzhash"),
        ]
        print("| implementation | " + " | ".join(f"{n} B" for n in sizes) + " |")
        print("| --- |" + " --- |" * len(sizes))
        for name, binary, impl in rows:
            cells = []
            for n in sizes:
                reps = max(1, (1 << 20) // n) if "TZ" not in name else 2
                if "TZ" in name and n > 65536:
                    cells.append("-")
                    continue
                base = count(binary, impl, n, 1, tmp)
                total = count(binary, impl, n, 1 + reps, tmp)
                cells.append(f"{(total - base) / (n * reps):.2f}")
            print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
