// The demo page's benchmark (it runs in Node too): throughput of each operation at sizes from
// 64 B to 16 MiB, in rounds that alternate the operations; each cell is the median round in
// MB/s with the slowest and fastest round beside it.
import * as bao from "../src/bao.js";
import { blake2b, blake2s, blake3 } from "../src/index.js";

export const SIZES = [64, 1024, 64 << 10, 1 << 20, 16 << 20];
const ROUNDS = 5;
/** Each round repeats an operation for at least this long. */
const ROUND_MS = 40;

function sizeName(n) {
  if (n >= 1 << 20) return `${n >> 20} MiB`;
  if (n >= 1 << 10) return `${n >> 10} KiB`;
  return `${n} B`;
}

/** The operations measured, each made for one input (setup is not timed). */
export function operations() {
  return [
    ["BLAKE3", (data) => () => blake3(data)],
    ["BLAKE2b", (data) => () => blake2b(data)],
    ["BLAKE2s", (data) => () => blake2s(data)],
    ["Bao outboard (BLAKE3 + tree), 1 KiB groups", (data) => () => bao.outboard(data)],
    ["Bao outboard, 16 KiB groups", (data) => () => bao.outboard(data, { groupLog: 4 })],
    ["Bao combined encoding", (data) => () => bao.encode(data)],
    [
      "Bao verified decode of content + outboard, 16 KiB groups",
      (data) => {
        const { hash, encoding } = bao.outboard(data, { groupLog: 4 });
        return () => bao.decode(data, hash, { groupLog: 4, outboard: encoding });
      },
    ],
  ];
}

function timeRound(run, size) {
  let calls = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    run();
    calls++;
    elapsed = performance.now() - start;
  } while (elapsed < ROUND_MS);
  return (calls * size) / 1e6 / (elapsed / 1000);
}

/** Runs the benchmark; `render(header, rows)` is called after each size with the table so far. */
export async function benchmark(render, ops = operations()) {
  const header = ["operation", ...SIZES.map(sizeName)];
  const rows = ops.map(([name]) => [name, ...SIZES.map(() => "")]);
  for (const [column, size] of SIZES.entries()) {
    const data = new Uint8Array(size).map((_, i) => i % 251);
    const runs = ops.map(([, make]) => make(data));
    const speeds = ops.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, run] of runs.entries()) speeds[i].push(timeRound(run, size));
      // Let the page paint between rounds.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    for (const [i, list] of speeds.entries()) {
      list.sort((a, b) => a - b);
      const median = list[list.length >> 1];
      rows[i][column + 1] = `${median.toFixed(0)} (${list[0].toFixed(0)}-${list.at(-1).toFixed(0)})`;
    }
    render(header, rows);
  }
  return { header, rows };
}

// `node js/demo/bench.js` prints the same table.
if (typeof process !== "undefined" && import.meta.url === `file://${process.argv[1]}`) {
  const { header, rows } = await benchmark(() => {});
  console.log(`arborhash, ${bao.build} build, MB/s: median (slowest-fastest round)`);
  console.log(`| ${header.join(" | ")} |`);
  console.log(`|${header.map(() => " --- |").join("")}`);
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
}
