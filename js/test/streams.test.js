// The Node Transform and the Web TransformStream pass data through unchanged and hash it.
import assert from "node:assert/strict";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { test } from "node:test";
import * as ah from "../src/index.js";
import { HashingTransform } from "../src/node-stream.js";
import { prng } from "./helpers.js";

const data = prng(3806).bytes(200000);
const parts = [data.subarray(0, 1), data.subarray(1, 70000), data.subarray(70000)];

test("HashingTransform (Node) passes data through and gives the digest", async () => {
  const t = new HashingTransform(new ah.Blake3Hasher());
  const seen = [];
  let emitted;
  t.on("digest", (d) => (emitted = d));
  await pipeline(Readable.from(parts), t, async function (source) {
    for await (const chunk of source) seen.push(chunk);
  });
  assert.deepEqual(Buffer.concat(seen), Buffer.from(data));
  assert.equal(ah.toHex(t.digest), ah.blake3Hex(data));
  assert.equal(emitted, t.digest);
});

test("HashingTransformStream (Web) passes data through and resolves the digest", async () => {
  const t = new ah.HashingTransformStream(new ah.Blake2Hasher("blake2b", { length: 32 }));
  const body = new Response(
    new ReadableStream({
      start(c) {
        for (const p of parts) c.enqueue(p);
        c.close();
      },
    }).pipeThrough(t),
  );
  const out = new Uint8Array(await body.arrayBuffer());
  assert.deepEqual(out, data);
  assert.equal(ah.toHex(await t.digest), ah.toHex(ah.blake2b(data, { length: 32 })));
});

test("HashingTransformStream errors on a chunk that is not bytes", async () => {
  const t = new ah.HashingTransformStream(new ah.Blake3Hasher());
  const w = t.writable.getWriter();
  t.readable.pipeTo(new WritableStream()).catch(() => {});
  await assert.rejects(w.write(42), TypeError);
  await assert.rejects(t.digest, TypeError);
});
