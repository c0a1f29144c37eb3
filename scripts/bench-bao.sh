#!/usr/bin/env bash
# `arbor bao` on files against `arbor sum` on the same file, runs alternating:
#   encode --outboard (target: at least 0.8 of `arbor sum`'s speed), combined encode, and
#   decode of the combined encoding to /dev/null, at 1 MiB, 64 MiB and 1 GiB; and the
#   outboard written to /dev/null, which leaves out the file system's cost of writing it, and
#   with 16 KiB groups (G=4), whose outboard is 16 times smaller. Each round writes over the
#   previous round's outputs, except in the row "(new file)", whose output is removed (untimed)
#   before each run; after each run, untimed, `sync` writes its output back to the disk.
# Each round times one run of each command in turn; printed per size and command: the median
# over rounds of time(arbor sum) / time(command) (above 0.8 meets the target), the lowest and
# highest round's ratio, and the command's median time. Files go under $BENCH_DIR (default: a
# new temporary directory, removed at the end); ROUNDS (default 15) and SIZES_MIB (default
# "1 64 1024") can be set.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${BENCH_DIR:-}" ]; then
  BENCH_DIR=$(mktemp -d)
  trap 'rm -rf "$BENCH_DIR"' EXIT
fi
ROUNDS=${ROUNDS:-15}
SIZES_MIB=${SIZES_MIB:-1 64 1024}

cargo build --release -q -p arbor
ARBOR=$PWD/target/release/arbor
mkdir -p "$BENCH_DIR"

for mib in $SIZES_MIB; do
  f=$BENCH_DIR/$mib.bin
  # Not zeros: lazily zeroed pages would flatter whoever touches them least.
  [ -f "$f" ] || head -c "${mib}M" /dev/urandom >"$f"
  cat "$f" >/dev/null
  hash=$("$ARBOR" bao hash "$f")
  "$ARBOR" bao encode "$f" "$f.bao"
  python3 - "$ARBOR" "$f" "$hash" "$mib" "$ROUNDS" <<'PY'
import os, statistics, subprocess, sys, time
arbor, f, h, mib, rounds = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
commands = {
    "sum": [arbor, "sum", f],
    "bao encode --outboard": [arbor, "bao", "encode", f, "--outboard", f + ".obao"],
    "bao encode --outboard (new file)": [arbor, "bao", "encode", f, "--outboard",
                                         f + ".obao-new"],
    "bao encode --outboard /dev/null": [arbor, "bao", "encode", f, "--outboard", "/dev/null"],
    "bao encode --outboard, G=4": [arbor, "bao", "encode", "--group-log", "4", f, "--outboard",
                                   f + ".obao4"],
    "bao encode": [arbor, "bao", "encode", f, f + ".bao2"],
    "bao decode": [arbor, "bao", "decode", h, f + ".bao", "/dev/null"],
}
times = {name: [] for name in commands}
names = list(commands)
for r in range(rounds):
    order = names if r % 2 == 0 else names[::-1]
    for name in order:
        if name.endswith("(new file)"):
            try:
                os.unlink(commands[name][-1])
            except FileNotFoundError:
                pass
        t = time.perf_counter()
        subprocess.run(commands[name], check=True, stdout=subprocess.DEVNULL)
        times[name].append(time.perf_counter() - t)
        # Untimed: the kernel writes a command's output back now, not during the next command.
        os.sync()
for name in names[1:]:
    ratios = sorted(s / c for s, c in zip(times["sum"], times[name]))
    print(f"| {name} | {mib} MiB | {statistics.median(ratios):.2f} | "
          f"{ratios[0]:.2f}-{ratios[-1]:.2f} | {statistics.median(times[name]) * 1e3:.1f} ms | "
          f"{statistics.median(times['sum']) * 1e3:.1f} ms |")
PY
done
