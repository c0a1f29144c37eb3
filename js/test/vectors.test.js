// The repository's known-answer vectors (testvectors/), in the loaded wasm build.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import * as ah from "../src/index.js";
import { hex, pattern, unhex, vectors } from "./helpers.js";

test("the build in use is the one ARBORHASH_WASM asks for", () => {
  const forced = process.env.ARBORHASH_WASM;
  assert.equal(ah.build, forced || "simd");
});

test("an unknown ARBORHASH_WASM is a clear error at import", () => {
  const url = new URL("../src/index.js", import.meta.url).href;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", `await import(${JSON.stringify(url)})`], {
    env: { ...process.env, ARBORHASH_WASM: "sse41" },
    encoding: "utf8",
  });
  assert.notEqual(run.status, 0);
  assert.match(run.stderr, /ARBORHASH_WASM must be "portable" or "simd", not "sse41"/);
});

test("BLAKE3 vectors: hash, keyed, derive-key, full extended output and seeks", () => {
  const v = vectors("blake3.json");
  assert.ok(v.cases.length > 30);
  for (const c of v.cases) {
    const input = pattern(c.input_len);
    const n = c.hash.length / 2;
    assert.equal(ah.blake3Hex(input, { length: n }), c.hash, `hash ${c.input_len}`);
    assert.equal(ah.blake3Hex(input), c.hash.slice(0, 64));
    assert.equal(ah.blake3Hex(input, { length: n - 7, seek: 7 }), c.hash.slice(14));
    assert.equal(hex(ah.keyedHash(v.key, input, { length: n })), c.keyed_hash);
    assert.equal(hex(ah.deriveKey(v.context_string, input, { length: n })), c.derive_key);
    const h = new ah.Blake3Hasher({ context: v.context_string }).update(input);
    assert.equal(h.digestHex({ length: n }), c.derive_key);
    const r = new ah.Blake3Hasher({ key: v.key }).update(input).reader();
    r.position = 3;
    assert.equal(hex(r.read(n - 3)), c.keyed_hash.slice(6));
  }
});

test("BLAKE2 known answers: BLAKE2b, BLAKE2s, BLAKE2bp, BLAKE2sp, keyed and unkeyed", () => {
  const kat = vectors("blake2-kat.json");
  let n = 0;
  for (const c of kat) {
    if (!["blake2b", "blake2s", "blake2bp", "blake2sp"].includes(c.hash)) continue;
    const opts = c.key ? { key: unhex(c.key) } : {};
    assert.equal(hex(ah[c.hash](unhex(c.in), opts)), c.out, `${c.hash} ${c.in.length / 2}`);
    const h = new ah.Blake2Hasher(c.hash, opts);
    const input = unhex(c.in);
    h.update(input.subarray(0, 100)).update(input.subarray(100));
    assert.equal(h.digestHex(), c.out);
    n++;
  }
  assert.equal(n, 2048);
});
