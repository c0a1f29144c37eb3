// Runs blake3-wasm's own tests, as its npm package publishes them (esm/node.test.js and
// esm/base/disposable.test.js), against arborhash/blake3-wasm. The suite is copied from the
// installed package (npm ci, package-lock.json) into a scratch directory at test time, never
// into the repository, and changed only in its imports and one path:
// - "./node.js" and "./node-native.js" (the peer's wasm and native builds) become our drop-in;
// - "chai.js", "stream-buffers.js", "fs.js": the published files name these packages with a
//   ".js" their build appended; the extension is removed;
// - test-input.txt, read at load for two tests, is not in the npm package: the path is pointed
//   at an empty file, and exactly those two tests are expected to fail (listed in docs/js.md).
// Every other test must pass; a missing peer file fails the run.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const js = join(dirname(fileURLToPath(import.meta.url)), "..");
const peer = join(js, "node_modules", "blake3-wasm", "esm");
const work = join(js, ".peer-suites", "blake3-wasm");
const ours = join(js, "src", "blake3-wasm.js");
const expectedFailures = [
  "node.js wasm hasher digests",
  "node.js wasm hasher is a transform stream",
  "node.js native hasher digests",
  "node.js native hasher is a transform stream",
];

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
cpSync(peer, work, { recursive: true });
writeFileSync(join(work, "package.json"), '{ "type": "module" }\n');
writeFileSync(join(work, "empty-input.txt"), "");

function edit(file, pairs) {
  const path = join(work, file);
  let text = readFileSync(path, "utf8");
  for (const [from, to] of pairs) {
    if (!text.includes(from)) throw new Error(`peer suite: ${file} no longer contains ${from}`);
    text = text.split(from).join(to);
  }
  writeFileSync(path, text);
}

const oursUrl = JSON.stringify(new URL(`file://${ours}`).href);
edit("node.test.js", [
  ["'./node.js'", oursUrl],
  ["'./node-native.js'", oursUrl],
  ["'chai.js'", "'chai'"],
  ["'stream-buffers.js'", "'stream-buffers'"],
]);
edit(join("base", "disposable.test.js"), [
  ["'../node.js'", oursUrl],
  ["'chai.js'", "'chai'"],
]);
edit(join("base", "test-helpers.js"), [
  ["'fs.js'", "'fs'"],
  ["__dirname + '/../../test-input.txt'", JSON.stringify(join(work, "empty-input.txt"))],
]);

let report;
try {
  report = execFileSync(
    join(js, "node_modules", ".bin", "mocha"),
    ["--reporter", "json", "node.test.js", "base/disposable.test.js"],
    { cwd: work, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  );
} catch (error) {
  report = error.stdout; // mocha exits non-zero when any test fails
}
const result = JSON.parse(report);
const failed = result.failures.map((t) => t.fullTitle).sort();
console.log(
  `blake3-wasm's suite: ${result.stats.passes} passed, ${result.stats.failures} failed ` +
    `(expected to fail, input not published: ${expectedFailures.length})`,
);
for (const t of result.failures) {
  if (!expectedFailures.includes(t.fullTitle)) console.log(`FAIL ${t.fullTitle}: ${t.err.message}`);
}
if (JSON.stringify(failed) !== JSON.stringify([...expectedFailures].sort()) || result.stats.passes < 50) {
  console.error("blake3-wasm's suite: unexpected result");
  process.exit(1);
}
rmSync(work, { recursive: true, force: true });
