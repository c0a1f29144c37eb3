// arborhash/bao against the Bao reference implementation's vectors (testvectors/bao.json):
// hashes, encodings, outboards and slices (checked by their BLAKE3 hash), their corruptions,
// and the seek offsets read as slices to the end.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import * as bao from "../src/bao.js";
import { repo } from "./bao-helpers.js";

// A missing file fails the run here.
const vectors = JSON.parse(readFileSync(join(repo, "testvectors", "bao.json"), "utf8"));

/** The vectors' input: a 4-byte little-endian counter from 1. */
function input(len) {
  const out = new Uint8Array(len);
  const view = new DataView(new ArrayBuffer(4));
  for (let i = 0; i < len; i += 4) {
    view.setUint32(0, i / 4 + 1, true);
    for (let j = 0; j < 4 && i + j < len; j++) out[i + j] = view.getUint8(j);
  }
  return out;
}

const hex = (bytes) => Buffer.from(bytes).toString("hex");
/** BLAKE3 of `bytes`: the Bao hash is the BLAKE3 hash. */
const blake3 = (bytes) => hex(bao.outboard(bytes).hash);

describe("testvectors/bao.json", () => {
  test("the build asked for is loaded", () => {
    const forced = process.env.ARBORHASH_WASM;
    if (forced) assert.equal(bao.build, forced);
  });

  test("sections", () => {
    for (const section of ["hash", "encode", "outboard", "seek", "slice"]) {
      assert.ok(vectors[section]?.length > 0, `section ${section}`);
    }
  });

  test("hash", () => {
    for (const { input_len, bao_hash } of vectors.hash) {
      assert.equal(hex(bao.encode(input(input_len)).hash), bao_hash, `length ${input_len}`);
    }
  });

  test("encode, and its corruptions", () => {
    for (const v of vectors.encode) {
      const content = input(v.input_len);
      const { hash, encoding } = bao.encode(content);
      assert.equal(hex(hash), v.bao_hash);
      assert.equal(encoding.length, v.output_len);
      assert.equal(blake3(encoding), v.encoded_blake3, `length ${v.input_len}`);
      assert.deepEqual(bao.decode(encoding, hash), content);
      for (const p of v.corruptions) {
        const bad = encoding.slice();
        bad[p] ^= 1;
        assert.throws(() => bao.decode(bad, hash), { name: "BaoError" }, `corruption at ${p}`);
      }
    }
  });

  test("outboard, and its corruptions", () => {
    for (const v of vectors.outboard) {
      const content = input(v.input_len);
      const { hash, encoding } = bao.outboard(content);
      assert.equal(hex(hash), v.bao_hash);
      assert.equal(encoding.length, v.output_len);
      assert.equal(blake3(encoding), v.encoded_blake3, `length ${v.input_len}`);
      assert.deepEqual(bao.decode(content, hash, { outboard: encoding }), content);
      for (const p of v.outboard_corruptions) {
        const bad = encoding.slice();
        bad[p] ^= 1;
        assert.throws(() => bao.decode(content, hash, { outboard: bad }), { name: "BaoError" });
      }
      for (const p of v.input_corruptions) {
        const bad = content.slice();
        bad[p] ^= 1;
        assert.throws(() => bao.decode(bad, hash, { outboard: encoding }), { name: "BaoError" });
      }
    }
  });

  test("seek offsets, as slices to the end", () => {
    for (const { input_len, seek_offsets } of vectors.seek) {
      const content = input(input_len);
      const { hash, encoding } = bao.encode(content);
      for (const at of seek_offsets) {
        const rest = Math.max(0, input_len - at);
        const s = bao.slice(encoding, at, rest);
        assert.deepEqual(bao.decodeSlice(s, hash, at, rest), content.subarray(Math.min(at, input_len)));
      }
    }
  });

  test("slice, and its corruptions", () => {
    for (const v of vectors.slice) {
      const content = input(v.input_len);
      const { hash, encoding } = bao.encode(content);
      assert.equal(hex(hash), v.bao_hash);
      for (const s of v.slices) {
        const bytes = bao.slice(encoding, s.start, s.len);
        assert.equal(bytes.length, s.output_len);
        assert.equal(blake3(bytes), s.output_blake3, `length ${v.input_len} slice ${s.start} ${s.len}`);
        const end = Math.min(s.start + s.len, v.input_len);
        assert.deepEqual(
          bao.decodeSlice(bytes, hash, s.start, s.len),
          content.subarray(Math.min(s.start, v.input_len), end),
        );
        for (const p of s.corruptions) {
          const bad = bytes.slice();
          bad[p] ^= 1;
          assert.throws(() => bao.decodeSlice(bad, hash, s.start, s.len), { name: "BaoError" });
        }
      }
    }
  });
});
