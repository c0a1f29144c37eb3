// The peers as oracles (fixed seed): blake3-wasm, hash-wasm and @noble/hashes for BLAKE3 and
// BLAKE2 on lengths across block and chunk boundaries and random splits; Python's hashlib
// (which has every BLAKE2 tree parameter) for the parameters the JavaScript peers lack.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import * as b3wasm from "blake3-wasm";
import * as hashwasm from "hash-wasm";
import { blake3 as nobleBlake3 } from "@noble/hashes/blake3.js";
import { blake2b as nobleBlake2b, blake2s as nobleBlake2s } from "@noble/hashes/blake2.js";
import * as ah from "../src/index.js";
import { wasm } from "../src/wasm.js";
import { boundaryLengths, hex, prng } from "./helpers.js";

const rng = prng(38);
const lengths = boundaryLengths(rng, 12).concat([(1 << 20) - 1, 1 << 20, (1 << 20) + 1, 3 << 20]);
const big = rng.bytes(Math.max(...lengths));

function randomSplits(data, r) {
  const parts = [];
  for (let at = 0; at < data.length; ) {
    const n = Math.min(data.length - at, r.int(r.next() < 0.5 ? 200 : 70000) + 1);
    parts.push(data.subarray(at, at + n));
    at += n;
  }
  return parts;
}

test("BLAKE3 one-shot, keyed and derive-key against blake3-wasm, hash-wasm and noble", async () => {
  const key = rng.bytes(32);
  const context = "arborhash js tests 2026-12-02 context";
  for (const len of lengths) {
    const input = big.subarray(0, len);
    const want = b3wasm.hash(input).toString("hex");
    assert.equal(ah.blake3Hex(input), want, `hash ${len}`);
    assert.equal(await hashwasm.blake3(input), want);
    assert.equal(hex(nobleBlake3(input)), want);
    assert.equal(hex(ah.keyedHash(key, input)), b3wasm.keyedHash(Buffer.from(key), input).toString("hex"));
    assert.equal(hex(ah.deriveKey(context, input, { length: 45 })), hex(b3wasm.deriveKey(context, input, { length: 45 })));
  }
});

test("BLAKE3 streaming with random splits and extended output with seeks, against noble", () => {
  const r = prng(3801);
  for (const len of lengths) {
    const input = big.subarray(0, len);
    const h = new ah.Blake3Hasher();
    for (const part of randomSplits(input, r)) h.update(part);
    const outLen = r.int(300) + 1;
    const seek = r.int(5000);
    const want = nobleBlake3.create().update(input).xof(seek + outLen).subarray(seek);
    assert.equal(hex(h.digest({ length: outLen, seek })), hex(want), `len ${len} seek ${seek}`);
    assert.equal(hex(ah.blake3(input, { length: outLen, seek })), hex(want));
    h.dispose();
  }
});

test("BLAKE2b and BLAKE2s with key, salt, personal and lengths against noble and hash-wasm", async () => {
  const r = prng(3802);
  for (const len of lengths) {
    const input = big.subarray(0, len);
    /** @type {Array<[string, any, number, number]>} */
    const variants = [
      ["blake2b", nobleBlake2b, 64, 16],
      ["blake2s", nobleBlake2s, 32, 8],
    ];
    for (const [name, noble, max, saltLen] of variants) {
      const dkLen = r.int(max) + 1;
      const key = r.bytes(r.int(max) + 1);
      const salt = r.bytes(saltLen);
      const personalization = r.bytes(saltLen);
      const want = hex(noble(input, { dkLen, key, salt, personalization }));
      const got = ah[name](input, { length: dkLen, key, salt, personal: personalization });
      assert.equal(hex(got), want, `${name} ${len}`);
      const h = new ah.Blake2Hasher(name, { length: dkLen, key, salt, personal: personalization });
      for (const part of randomSplits(input, r)) h.update(part);
      assert.equal(h.digestHex(), want);
      assert.equal(hex(ah[name](input, { key })), await hashwasm[name](input, max * 8, key));
    }
  }
});

test("BLAKE2b and BLAKE2s tree parameters against Python's hashlib", () => {
  const r = prng(3803);
  const cases = [];
  for (let i = 0; i < 200; i++) {
    const name = i % 2 ? "blake2s" : "blake2b";
    const [max, saltLen] = name === "blake2b" ? [64, 16] : [32, 8];
    cases.push({
      name,
      data: hex(r.bytes(r.int(700))),
      length: r.int(max) + 1,
      key: hex(r.bytes(r.int(max + 1))),
      salt: hex(r.bytes(r.int(saltLen + 1))),
      personal: hex(r.bytes(r.int(saltLen + 1))),
      fanout: r.int(256),
      maxDepth: r.int(256),
      maxLeafLength: r.int(2 ** 32),
      nodeOffset: name === "blake2b" ? r.int(2 ** 53) : r.int(2 ** 48),
      nodeDepth: r.int(256),
      innerLength: r.int(max + 1),
      lastNode: r.next() < 0.5,
    });
  }
  const script = `
import hashlib, json, sys
out = []
for c in json.load(sys.stdin):
    h = getattr(hashlib, c["name"])(bytes.fromhex(c["data"]), digest_size=c["length"],
        key=bytes.fromhex(c["key"]), salt=bytes.fromhex(c["salt"]),
        person=bytes.fromhex(c["personal"]), fanout=c["fanout"], depth=c["maxDepth"],
        leaf_size=c["maxLeafLength"], node_offset=c["nodeOffset"], node_depth=c["nodeDepth"],
        inner_size=c["innerLength"], last_node=c["lastNode"])
    out.append(h.hexdigest())
print(json.dumps(out))
`;
  const python = process.env.PYTHON || "python3";
  const run = spawnSync(python, ["-c", script], { input: JSON.stringify(cases), encoding: "utf8" });
  assert.equal(run.status, 0, `${python} failed: ${run.error ?? run.stderr}`);
  const want = JSON.parse(run.stdout);
  cases.forEach((c, i) => {
    const { name, data, key, salt, personal, ...rest } = c;
    const opts = { ...rest, key: Buffer.from(key, "hex"), salt: Buffer.from(salt, "hex"), personal: Buffer.from(personal, "hex") };
    assert.equal(hex(ah[name](Buffer.from(data, "hex"), opts)), want[i], `case ${i}`);
  });
});

test("BLAKE2 without options (the default-parameter call) between calls with options", async () => {
  const r = prng(3806);
  for (const len of lengths.slice(0, 30)) {
    const input = big.subarray(0, len);
    assert.equal(hex(ah.blake2b(input)), await hashwasm.blake2b(input), `blake2b ${len}`);
    assert.equal(hex(ah.blake2b(input, { length: 20 })), hex(nobleBlake2b(input, { dkLen: 20 })));
    assert.equal(hex(ah.blake2s(input)), await hashwasm.blake2s(input), `blake2s ${len}`);
    assert.equal(hex(ah.blake2b(input)), hex(nobleBlake2b(input)));
    for (const name of ["blake2bp", "blake2sp"]) {
      const h = new ah.Blake2Hasher(name, { key: r.bytes(1) });
      h.dispose();
      const want = new ah.Blake2Hasher(name).update(input).digestHex();
      assert.equal(hex(ah[name](input)), want, `${name} ${len}`);
    }
  }
});

test("results stay right after the wasm memory grows", async () => {
  const input = big.subarray(0, 5000);
  const want = { b3: ah.blake3Hex(input), b2b: await hashwasm.blake2b(input) };
  const before = wasm.memory.buffer.byteLength;
  const hashers = Array.from({ length: 200 }, () => new ah.Blake3Hasher()); // about 5 MiB
  assert.ok(wasm.memory.buffer.byteLength > before, "the memory grew");
  assert.equal(ah.blake3Hex(input), want.b3);
  assert.equal(hex(ah.blake2b(input)), want.b2b);
  assert.equal(hashers[199].update(input).digestHex(), want.b3);
  for (const h of hashers) h.dispose();
});

test("BLAKE2bp and BLAKE2sp: streaming with random splits equals one-shot, keyed and lengths", () => {
  const r = prng(3804);
  for (const len of lengths.slice(0, 40)) {
    const input = big.subarray(0, len);
    /** @type {Array<[string, number]>} */
    const variants = [["blake2bp", 64], ["blake2sp", 32]];
    for (const [name, max] of variants) {
      const opts = { length: r.int(max) + 1, key: r.bytes(r.int(max + 1)) };
      const h = new ah.Blake2Hasher(name, opts);
      for (const part of randomSplits(input, r)) h.update(part);
      assert.equal(h.digestHex(), hex(ah[name](input, opts)), `${name} ${len}`);
    }
  }
});

test("inputs: strings as UTF-8, ArrayBuffer, DataView, other typed arrays, Buffer", () => {
  const s = "héllo wörld ☃";
  const utf8 = new TextEncoder().encode(s);
  const want = ah.blake3Hex(utf8);
  assert.equal(ah.blake3Hex(s), want);
  assert.equal(ah.blake3Hex(Buffer.from(s)), want);
  assert.equal(ah.blake3Hex(utf8.slice().buffer), want);
  const padded = new Uint8Array(utf8.length + 5);
  padded.set(utf8, 3);
  assert.equal(ah.blake3Hex(new DataView(padded.buffer, 3, utf8.length)), want);
  const words = new Uint32Array([1, 2, 3]);
  assert.equal(ah.blake3Hex(words), ah.blake3Hex(new Uint8Array(words.buffer)));
  for (const bad of [null, undefined, 42, {}, [1, 2]]) {
    assert.throws(() => ah.blake3(bad), TypeError);
    assert.throws(() => ah.blake2b(bad), TypeError);
  }
});

test("strings, written into wasm memory as UTF-8 directly, hash as their UTF-8 bytes", () => {
  const r = prng(3808);
  const third = Math.floor((1 << 20) / 3);
  const strings = [
    "",
    "a",
    "héllo wörld ☃ 𝄞",
    "lone \ud800 and \udc00 surrogates",
    "€".repeat(third), // the longest string put straight in: 3 MiB of UTF-8 at most
    "x".repeat(third + 1), // one unit longer: through the byte path
    "€".repeat(third + 1),
    Array.from({ length: 5000 }, () => String.fromCharCode(r.int(0x10000))).join(""),
  ];
  const key = r.bytes(32);
  for (const s of strings) {
    const utf8 = Buffer.from(s, "utf8");
    const at = `length ${s.length}`;
    assert.equal(ah.blake3Hex(s), ah.blake3Hex(utf8), at);
    assert.equal(ah.blake3Hex(s, { key, length: 64 }), ah.blake3Hex(utf8, { key, length: 64 }), at);
    assert.equal(ah.blake3Hex(s, { length: 100 }), ah.blake3Hex(utf8, { length: 100 }), at);
    assert.equal(hex(ah.deriveKey("ctx", s)), hex(ah.deriveKey("ctx", utf8)), at);
    for (const name of ["blake2b", "blake2s", "blake2bp", "blake2sp"]) {
      assert.equal(hex(ah[name](s)), hex(ah[name](utf8)), `${name} ${at}`);
      assert.equal(hex(ah[name](s, { key })), hex(ah[name](utf8, { key })), `${name} ${at}`);
    }
  }
  assert.equal(hex(ah.blake2b(strings[2])), hex(nobleBlake2b(new TextEncoder().encode(strings[2]))));
});

test("bad parameters are errors, never a crash of the module", () => {
  assert.throws(() => ah.blake3("x", { key: new Uint8Array(31) }), RangeError);
  assert.throws(() => ah.blake3("x", { length: -1 }), RangeError);
  assert.throws(() => ah.blake3("x", { seek: 2 ** 60 }), RangeError);
  assert.throws(() => ah.blake3("x", { key: new Uint8Array(32), context: "c" }), TypeError);
  assert.throws(() => ah.blake2b("x", { length: 65 }), RangeError);
  assert.throws(() => ah.blake2b("x", { length: 0 }), RangeError);
  assert.throws(() => ah.blake2s("x", { key: new Uint8Array(33) }), RangeError);
  assert.throws(() => ah.blake2s("x", { salt: new Uint8Array(9) }), RangeError);
  assert.throws(() => ah.blake2s("x", { nodeOffset: 2 ** 48 }), RangeError);
  assert.throws(() => ah.blake2b("x", { fanout: 256 }), RangeError);
  assert.throws(() => ah.blake2bp("x", { salt: new Uint8Array(1) }), TypeError);
  assert.throws(() => new ah.Blake2Hasher("blake2x"), TypeError);
  const h = new ah.Blake3Hasher();
  h.dispose();
  assert.throws(() => h.update("x"), /disposed/);
  assert.throws(() => new ah.Blake3Hasher().load(new Uint8Array(10)), TypeError);
  const b = new ah.Blake2Hasher("blake2b").update("abc");
  assert.throws(() => new ah.Blake2Hasher("blake2s").load(b.save()), TypeError);
  const saved = b.save();
  saved[100] ^= 1;
  assert.throws(() => new ah.Blake2Hasher("blake2b").load(saved), TypeError);
  assert.equal(ah.blake3Hex("still works"), b3wasm.hash("still works").toString("hex"));
});
