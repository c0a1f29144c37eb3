// The drop-in entry points against their peers: the same results, and the same error (class and
// message) for the same bad call.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as peerB3 from "blake3-wasm";
import * as peerHw from "hash-wasm";
import * as peerNobleB3 from "@noble/hashes/blake3.js";
import * as peerNobleB2 from "@noble/hashes/blake2.js";
import * as ourB3 from "../src/blake3-wasm.js";
import * as ourHw from "../src/hash-wasm.js";
import * as ourNoble from "../src/noble.js";
import { prng } from "./helpers.js";

const peerNoble = { ...peerNobleB3, ...peerNobleB2 };

// What a call gives: its value (Uint8Arrays as hex) or its error's class and message.
async function outcome(f) {
  try {
    const v = await f();
    return { value: v instanceof Uint8Array ? Buffer.from(v).toString("hex") : v };
  } catch (e) {
    return { error: e.constructor.name, message: e.message };
  }
}

async function same(label, ours, peers) {
  assert.deepEqual(await outcome(ours), await outcome(peers), label);
}

const rng = prng(3805);
const data = rng.bytes(5000);
const key = rng.bytes(32);

test("arborhash/blake3-wasm behaves as blake3-wasm", async () => {
  /** @type {Array<[string, (m: any) => any]>} */
  const calls = [
    ["hash", (m) => m.hash(data)],
    ["hash string", (m) => m.hash("hello")],
    ["hash ArrayBuffer", (m) => m.hash(data.slice().buffer)],
    ["hash array of numbers", (m) => m.hash([1, 2, 3])],
    ["hash length 100", (m) => m.hash(data, { length: 100 })],
    ["keyedHash", (m) => m.keyedHash(Buffer.from(key), data)],
    ["keyedHash short key", (m) => m.keyedHash(Buffer.alloc(31), data)],
    ["deriveKey", (m) => m.deriveKey("ctx", data, { length: 40 })],
    ["createHash streaming", (m) => m.createHash().update(data.subarray(0, 7)).update(data.subarray(7)).digest()],
    ["digest hex with length", (m) => m.createHash().update("hello").digest("hex", { length: 16 })],
    ["digest options only", (m) => m.createHash().update("hello").digest({ length: 50 })],
    ["update string with encoding", (m) => m.createHash().update("68656c6c6f", "hex").digest("hex")],
    ["update after dispose", (m) => { const h = m.createHash(); h.dispose(); h.update(""); }],
    ["digest after digest", (m) => { const h = m.createHash(); h.digest(); return h.digest(); }],
    ["digest without dispose then update", (m) => { const h = m.createHash(); h.update("hel"); const a = h.digest(undefined, { dispose: false }); h.update("lo"); return Buffer.concat([a, h.digest()]); }],
    ["createKeyed", (m) => m.createKeyed(Buffer.from(key)).update(data).digest()],
    ["createDeriveKey", (m) => m.createDeriveKey("ctx").update(data).digest({ length: 70 })],
    ["reader read and position", (m) => { const r = m.createHash().update(data).reader(); r.position = BigInt(40); const a = r.read(30); return Buffer.concat([a, Buffer.from(String(r.position))]); }],
    ["reader toString", (m) => { const r = m.createHash().update("hello").reader(); r.read(5); return r.toString("hex") + r.position; }],
    ["reader number position", (m) => { const r = m.createHash().reader(); r.position = 3; }],
    ["reader negative position", (m) => { const r = m.createHash().reader(); r.position = BigInt(-1); }],
    ["reader past the end", (m) => { const r = m.createHash().reader(); r.position = m.maxHashBytes - BigInt(1); r.read(2); }],
    ["reader position too large", (m) => { const r = m.createHash().reader(); r.position = BigInt("18446744073709551616"); }],
    ["read after dispose", (m) => { const r = m.createHash().reader(); r.dispose(); r.read(1); }],
    ["reader after dispose", (m) => { const h = m.createHash(); h.dispose(); h.reader(); }],
    ["using", (m) => m.using({ dispose() {} }, () => 42)],
    ["length -1", (m) => m.hash("x", { length: -1 })],
    ["length 1.5", (m) => m.hash("x", { length: 1.5 })],
    ["length a string", (m) => m.hash("x", { length: "8" })],
    ["length 0", (m) => m.hash("x", { length: 0 })],
    ["null input", (m) => m.hash(null)],
    ["number input", (m) => m.hash(5)],
    ["string key", (m) => m.keyedHash("k".repeat(32), "x")],
    ["Uint8Array key", (m) => m.keyedHash(new Uint8Array(32), "x")],
    ["number context", (m) => m.deriveKey(5, "x")],
    ["digest length -1", (m) => m.createHash().digest({ length: -1 })],
    ["read -1", (m) => m.createHash().reader().read(-1)],
  ];
  for (const [label, call] of calls) await same(label, () => call(ourB3), () => call(peerB3));
  assert.equal(ourB3.maxHashBytes, peerB3.maxHashBytes);
  assert.equal(ourB3.defaultHashLength, peerB3.defaultHashLength);
});

test("arborhash/blake3-wasm hashers are Transform streams whose output is the digest", async () => {
  const { Readable } = await import("node:stream");
  for (const m of [ourB3, peerB3]) {
    const chunks = [];
    await new Promise((resolve, reject) => {
      Readable.from([data.subarray(0, 1000), data.subarray(1000)])
        .pipe(m.createHash())
        .on("data", (c) => chunks.push(c))
        .on("end", resolve)
        .on("error", reject);
    });
    assert.equal(Buffer.concat(chunks).toString("hex"), peerB3.hash(data).toString("hex"));
  }
});

test("arborhash/hash-wasm behaves as hash-wasm, save and load included", async () => {
  const calls = [];
  for (const name of ["blake3", "blake2b", "blake2s"]) {
    const create = `create${name.toUpperCase().replace("BLAKE", "BLAKE")}`;
    const Create = create.replace("CREATE", "create");
    calls.push(
      [`${name}`, (m) => m[name](data)],
      [`${name} string`, (m) => m[name]("héllo")],
      [`${name} 128 bits keyed`, (m) => m[name](data, 128, key)],
      [`${name} 0 bits`, (m) => m[name](data, 0)],
      [`${name} 12 bits`, (m) => m[name](data, 12)],
      [`${name} 1024 bits`, (m) => m[name](data, 1024)],
      [`${name} 33-byte key`, (m) => m[name](data, 256, new Uint8Array(33))],
      [`${name} 65-byte key`, (m) => m[name](data, 256, new Uint8Array(65))],
      [`${name} ArrayBuffer`, (m) => m[name](data.slice().buffer)],
      [`${name} number`, (m) => m[name](42)],
      [`${Create}`, async (m) => (await m[Create]()).update(data).digest()],
      [`${Create} binary`, async (m) => (await m[Create](160, key)).update(data).digest("binary")],
      [`${Create} bad bits`, async (m) => m[Create](7)],
      [`${Create} update after digest`, async (m) => { const h = await m[Create](); h.digest(); h.update("x"); }],
      [`${Create} digest after digest`, async (m) => { const h = await m[Create](); h.digest(); h.digest(); }],
      [`${Create} save after digest`, async (m) => { const h = await m[Create](); h.digest(); h.save(); }],
      [`${Create} init after digest`, async (m) => { const h = await m[Create](128, key); h.update("a"); h.digest(); return h.init().update("b").digest(); }],
      [`${Create} load not bytes`, async (m) => { const h = await m[Create](); h.load("x"); }],
      [`${Create} save and load`, async (m) => {
        const h = await m[Create]();
        h.update(data.subarray(0, 3000));
        const s = h.save();
        h.update("other");
        h.digest();
        h.init();
        h.load(s);
        return h.update(data.subarray(3000)).digest();
      }],
      [`${Create} sizes`, async (m) => { const h = await m[Create](); return [h.blockSize, h.digestSize].join(); }],
      [`${name} bits as a string`, (m) => m[name]("x", "256")],
      [`${name} bits 256.5`, (m) => m[name]("x", 256.5)],
      [`${name} empty key`, (m) => m[name]("x", 256, "")],
      [`${name} key a number`, (m) => m[name]("x", 256, 5)],
      [`${name} null data`, (m) => m[name](null)],
      [`${name} Buffer`, (m) => m[name](Buffer.from("ab"))],
      [`${Create} update null`, async (m) => (await m[Create]()).update(null)],
      [`${Create} digest as base64`, async (m) => (await m[Create]()).update("a").digest("base64")],
      [`${Create} DataView and Uint16Array`, async (m) => (await m[Create]()).update(new DataView(new ArrayBuffer(4))).update(new Uint16Array([1, 2])).digest()],
    );
  }
  for (const [label, call] of calls) await same(label, () => call(ourHw), () => call(peerHw));
  // States are this package's own, and a wrong one is rejected with hash-wasm's messages.
  const h = await ourHw.createBLAKE3();
  const s = h.save();
  await same("load short state", () => h.load(s.subarray(1)), async () => {
    throw new Error(`Bad state length (expected ${s.length} bytes, got ${s.length - 1})`);
  });
  const b2 = await ourHw.createBLAKE2b();
  const b2s = b2.save();
  await same("load a BLAKE2b state into BLAKE3", () => h.load(b2s), async () => {
    throw new Error("This state was written by an incompatible hash implementation");
  });
});

test("arborhash/noble behaves as @noble/hashes, errors included", async () => {
  const calls = [];
  for (const name of ["blake3", "blake2b", "blake2s"]) {
    calls.push(
      [`${name}`, (m) => m[name](data)],
      [`${name} dkLen 20`, (m) => m[name](data, { dkLen: 20 })],
      [`${name} dkLen 0`, (m) => m[name](data, { dkLen: 0 })],
      [`${name} dkLen 65`, (m) => m[name](data, { dkLen: 65 })],
      [`${name} dkLen -1`, (m) => m[name](data, { dkLen: -1 })],
      [`${name} dkLen string`, (m) => m[name](data, { dkLen: "8" })],
      [`${name} string input`, (m) => m[name]("abc")],
      [`${name} key 32`, (m) => m[name](data, { key })],
      [`${name} key 31`, (m) => m[name](data, { key: key.subarray(1) })],
      [`${name} key empty`, (m) => m[name](data, { key: new Uint8Array(0) })],
      [`${name} key string`, (m) => m[name](data, { key: "k" })],
      [`${name} opts array`, (m) => m[name](data, [])],
      [`${name} opts null`, (m) => m[name](data, null)],
      [`${name} opts class`, (m) => m[name](data, new Date())],
      [`${name} update after digest`, (m) => { const h = m[name].create(); h.digest(); h.update(data); }],
      [`${name} digest after destroy`, (m) => { const h = m[name].create(); h.destroy(); h.digest(); }],
      [`${name} digestInto short`, (m) => { const h = m[name].create(); h.digestInto(new Uint8Array(3)); }],
      [`${name} digestInto long`, (m) => { const h = m[name].create().update(data); const out = new Uint8Array(80); h.digestInto(out); return out; }],
      [`${name} clone`, (m) => { const h = m[name].create().update(data.subarray(0, 999)); const c = h.clone(); h.update(data); return Buffer.concat([c.update(data.subarray(999)).digest(), h.digest()]); }],
      [`${name} sizes`, (m) => [m[name].outputLen, m[name].blockLen, m[name].canXOF, m[name].create().outputLen].join()],
      [`${name} Buffer input`, (m) => m[name](Buffer.from("ab"))],
      [`${name} Uint16Array input`, (m) => m[name](new Uint16Array(2))],
      [`${name} null input`, (m) => m[name](null)],
      [`${name} dkLen 1.5`, (m) => m[name](new Uint8Array(1), { dkLen: 1.5 })],
      [`${name} key Uint16Array`, (m) => m[name](new Uint8Array(1), { key: new Uint16Array(16) })],
      [`${name} key Buffer`, (m) => m[name](new Uint8Array(1), { key: Buffer.alloc(32) })],
      [`${name} unknown option`, (m) => m[name](new Uint8Array(1), { foo: 1 })],
      [`${name} digestInto an array`, (m) => m[name].create().digestInto([])],
      [`${name} update after destroy`, (m) => { const h = m[name].create(); h.destroy(); h.update(new Uint8Array(1)); }],
      [`${name} clone after digest`, (m) => { const h = m[name].create(); h.digest(); const c = h.clone(); return [c.finished, c.destroyed].join(); }],
      [`${name} digest of a clone after digest`, (m) => { const h = m[name].create(); h.digest(); return h.clone().digest(); }],
      [`${name} salt a string`, (m) => m[name](new Uint8Array(1), { salt: "x".repeat(16) })],
    );
  }
  for (const name of ["blake2b", "blake2s"]) {
    const n = name === "blake2b" ? 16 : 8;
    const [salt, personalization] = [rng.bytes(n), rng.bytes(n)];
    calls.push(
      [`${name} salt and personalization`, (m) => m[name](data, { salt, personalization, key: key.subarray(0, 7), dkLen: 13 })],
      [`${name} short salt`, (m) => m[name](data, { salt: new Uint8Array(n - 1) })],
      [`${name} short personalization`, (m) => m[name](data, { personalization: new Uint8Array(2) })],
      [`${name} digestInto unaligned`, (m) => { const h = m[name].create(); h.digestInto(new Uint8Array(100).subarray(1)); }],
    );
  }
  calls.push(
    ["blake3 context", (m) => m.blake3(data, { context: new TextEncoder().encode("ctx"), dkLen: 50 })],
    ["blake3 context string", (m) => m.blake3(data, { context: "ctx" })],
    ["blake3 key and context", (m) => m.blake3(data, { key, context: new Uint8Array(1) })],
    ["blake3 xof", (m) => { const h = m.blake3.create().update(data); return Buffer.concat([h.xof(10), h.xof(100), h.xof(1)]); }],
    ["blake3 xof then digest", (m) => { const h = m.blake3.create(); h.xof(10); h.digest(); }],
    ["blake3 digest then xof", (m) => { const h = m.blake3.create(); h.digest(); h.xof(10); }],
    ["blake3 xof then update", (m) => { const h = m.blake3.create(); h.xof(10); h.update(data); }],
    ["blake3 xof negative", (m) => m.blake3.create().xof(-1)],
    ["blake3 xofInto", (m) => { const out = new Uint8Array(33); m.blake3.create({ key }).update(data).xofInto(out); return out; }],
    ["blake3 clone after xof", (m) => { const h = m.blake3.create().update(data); h.xof(7); return h.clone().xof(9); }],
  );
  for (const [label, call] of calls) await same(label, () => call(ourNoble), () => call(peerNoble));
});
