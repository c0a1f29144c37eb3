// arborhash/bao against `arbor bao` (the Rust library's command) and against itself: the same
// bytes for encodings, outboards and slices at several group sizes and at lengths across chunk
// and group boundaries; decoding that releases only verified bytes and names the offset of
// every corruption and truncation.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import * as bao from "../src/bao.js";
import {
  arborPath,
  equal,
  layout,
  nodeAt,
  randomBytes,
  rng,
  truncatedAt,
} from "./bao-helpers.js";

const arbor = arborPath();
const dir = mkdtempSync(join(tmpdir(), "arborhash-bao-"));
after(() => rmSync(dir, { recursive: true, force: true }));

function run(...args) {
  return execFileSync(arbor, ["bao", ...args], { maxBuffer: 1 << 30 });
}

const hex = (bytes) => Buffer.from(bytes).toString("hex");

/** Lengths across the chunk and group boundaries of `g`, and two random ones. */
function lengths(g, next) {
  const group = 1024 << g;
  const out = new Set([0, 1, 1023, 1024, 1025, 2049]);
  for (const n of [1, 2, 3, 4, 5, 8]) {
    for (const d of [-1, 0, 1]) out.add(n * group + d);
  }
  out.add(next() % (12 * group));
  out.add(next() % (3 << 20));
  return [...out].filter((n) => n >= 0).sort((a, b) => a - b);
}

/** Decodes `encoding` fed in pieces of random sizes; returns the bytes released and the error. */
function decodePieces(next, hash, options, encoding, outboard) {
  const decoder = new bao.Decoder(hash, { ...options, outboard: outboard !== undefined });
  const parts = [];
  try {
    if (outboard !== undefined) parts.push(decoder.pushOutboard(outboard));
    for (let at = 0; at < encoding.length; ) {
      const n = 1 + (next() % 5000);
      parts.push(decoder.push(encoding.subarray(at, at + n)));
      at += n;
    }
    decoder.finish();
    return { released: Buffer.concat(parts), error: null };
  } catch (error) {
    assert.ok(error instanceof bao.BaoError, String(error));
    if (error.verified) parts.push(error.verified);
    return { released: Buffer.concat(parts), error };
  }
}

for (const g of [0, 1, 4, 8]) {
  describe(`groupLog ${g}: the same bytes as arbor bao`, () => {
    const next = rng(0xba0 + g);
    for (const len of lengths(g, next)) {
      test(`length ${len}`, () => {
        const content = randomBytes(next, len);
        const file = join(dir, `content-${g}-${len}`);
        writeFileSync(file, content);
        const gl = ["--group-log", String(g)];
        run("encode", file, `${file}.bao`, ...gl);
        run("encode", file, "--outboard", `${file}.obao`, ...gl);
        const theirs = readFileSync(`${file}.bao`);
        const theirsOb = readFileSync(`${file}.obao`);
        const hash = run("hash", file).toString().trim().split(/\s+/)[0];

        const ours = bao.encode(content, { groupLog: g });
        const oursOb = bao.outboard(content, { groupLog: g });
        assert.equal(hex(ours.hash), hash);
        assert.equal(hex(oursOb.hash), hash);
        assert.ok(equal(ours.encoding, theirs), "combined encoding");
        assert.ok(equal(oursOb.encoding, theirsOb), "outboard");

        // In random pieces, the same.
        const enc = new bao.Encoder({ groupLog: g });
        const encOb = new bao.Encoder({ groupLog: g, outboard: true });
        for (let at = 0; at < len; ) {
          const n = next() % 70000;
          enc.update(content.subarray(at, at + n));
          encOb.update(content.subarray(at, at + n));
          at += n;
        }
        assert.ok(equal(enc.finalize().encoding, theirs), "combined encoding in pieces");
        assert.ok(equal(encOb.finalize().encoding, theirsOb), "outboard in pieces");

        // Their encodings decode, whole and in pieces, with the hash as hex or bytes.
        assert.ok(equal(bao.decode(theirs, hash, { groupLog: g }), content));
        assert.ok(equal(bao.decode(content, ours.hash, { groupLog: g, outboard: theirsOb }), content));
        const pieces = decodePieces(next, hash, { groupLog: g }, theirs);
        assert.equal(pieces.error, null);
        assert.ok(equal(pieces.released, content));

        // Slices: the same bytes as `arbor bao slice`, from either form, and decoded.
        const starts = [0, 1023, len >> 1, Math.max(0, len - 1), len, len + 5000];
        for (const start of starts) {
          const count = [0, 1, 3000, 70000][next() % 4];
          run("slice", String(start), String(count), `${file}.bao`, `${file}.slice`, ...gl);
          const theirSlice = readFileSync(`${file}.slice`);
          const s = bao.slice(ours.encoding, start, count, { groupLog: g });
          assert.ok(equal(s, theirSlice), `slice ${start} ${count}`);
          const s2 = bao.slice(content, start, count, { groupLog: g, outboard: oursOb.encoding });
          assert.ok(equal(s2, theirSlice), `slice ${start} ${count} from the outboard`);
          const part = bao.decodeSlice(s, hash, start, count, { groupLog: g });
          assert.ok(equal(part, content.subarray(Math.min(start, len), start + count)));
          // And `arbor bao decode-slice` accepts it.
          writeFileSync(`${file}.ours.slice`, s);
          const theirPart = run("decode-slice", hash, String(start), String(count), `${file}.ours.slice`, ...gl);
          assert.ok(equal(theirPart, part));
        }
      });
    }
  });
}

/** Checks a failed decode: the expected kind and offset, and only content before it released. */
function assertFails({ released, error }, content, kind, offset, what) {
  assert.ok(error, `${what}: no error`);
  assert.equal(error.kind, kind, `${what}: ${error.message}`);
  assert.equal(error.offset, offset, `${what}: ${error.message}`);
  assert.equal(released.length, offset, `${what}: released ${released.length} bytes`);
  assert.ok(equal(released, content.subarray(0, offset)), `${what}: released bytes differ`);
}

for (const [g, len] of [
  [0, 5000],
  [0, 8193],
  [1, 9000],
  [4, 70000],
  [8, 600000],
]) {
  describe(`groupLog ${g}, ${len} bytes: corruptions and truncations`, () => {
    const next = rng(len + g);
    const content = randomBytes(next, len);
    const { hash, encoding } = bao.encode(content, { groupLog: g });
    const ob = bao.outboard(content, { groupLog: g }).encoding;
    const nodes = layout(len, g, false);
    const obNodes = layout(len, g, true);
    // Every byte of the header and the parents; of the content, the first and last byte of
    // each leaf and random others.
    const positions = (nodeList, size) => {
      const out = new Set();
      for (const node of nodeList) {
        if (node.parent) for (let i = 0; i < 64; i++) out.add(node.at + i);
        else if (node.size > 0) out.add(node.at).add(node.at + node.size - 1);
      }
      for (let i = 0; i < 200 && size > 0; i++) out.add(next() % size);
      return [...out].sort((a, b) => a - b);
    };

    test("every corruption of the combined encoding is rejected at its node", () => {
      for (let p = 0; p < 8; p++) {
        const bad = encoding.slice();
        bad[p] ^= 1 << (next() % 8);
        const result = decodePieces(next, hash, { groupLog: g }, bad);
        // A wrong length is found where the tree stops matching; bytes before are content.
        assert.ok(result.error, `header byte ${p}`);
        assert.ok(equal(result.released, content.subarray(0, result.released.length)));
      }
      for (const p of positions(nodes, encoding.length - 8)) {
        const bad = encoding.slice();
        bad[8 + p] ^= 1 << (next() % 8);
        const node = nodeAt(nodes, p);
        assertFails(decodePieces(next, hash, { groupLog: g }, bad), content, "mismatch", node.start, `byte ${p}`);
      }
    });

    test("every corruption of the outboard and of the content is rejected at its node", () => {
      for (const p of positions(obNodes, ob.length - 8)) {
        const bad = ob.slice();
        bad[8 + p] ^= 1;
        const node = nodeAt(obNodes, p);
        assertFails(decodePieces(next, hash, { groupLog: g }, content, bad), content, "mismatch", node.start, `outboard byte ${p}`);
      }
      const leaves = nodes.filter((node) => !node.parent);
      for (const p of [0, len - 1, ...Array.from({ length: 100 }, () => next() % len)]) {
        const bad = content.slice();
        bad[p] ^= 0x80;
        const leaf = leaves.find((node) => node.start <= p && p < node.start + node.len);
        assertFails(decodePieces(next, hash, { groupLog: g }, bad, ob), content, "mismatch", leaf.start, `content byte ${p}`);
      }
    });

    test("truncations at many points are reported at the incomplete node", () => {
      const cuts = new Set([0, 1, 7, 8, encoding.length - 1]);
      for (const node of nodes) cuts.add(8 + node.at).add(8 + node.at + 1).add(8 + node.at + node.size - 1);
      for (let i = 0; i < 300; i++) cuts.add(next() % encoding.length);
      for (const kept of cuts) {
        if (kept < 0 || kept >= encoding.length) continue;
        const node = truncatedAt(nodes, kept);
        assertFails(decodePieces(next, hash, { groupLog: g }, encoding.subarray(0, kept)), content, "truncated", node.start, `kept ${kept}`);
      }
      for (let kept = 0; kept < ob.length; kept += 1 + (next() % 61)) {
        const node = truncatedAt(obNodes, kept);
        assertFails(decodePieces(next, hash, { groupLog: g }, content, ob.subarray(0, kept)), content, "truncated", node.start, `outboard kept ${kept}`);
      }
      for (const kept of [0, 1, len >> 1, len - 1]) {
        const leaf = nodes.find((node) => !node.parent && node.start + node.len > kept);
        assertFails(decodePieces(next, hash, { groupLog: g }, content.subarray(0, kept), ob), content, "truncated", leaf.start, `content kept ${kept}`);
      }
    });

    test("trailing data, a wrong hash and corrupt slices are rejected", () => {
      const extra = Buffer.concat([encoding, Buffer.from([0])]);
      const trailing = decodePieces(next, hash, { groupLog: g }, extra);
      assert.equal(trailing.error.kind, "trailing-data");
      assert.ok(equal(trailing.released, content));
      const wrong = hash.slice();
      wrong[31] ^= 1;
      assertFails(decodePieces(next, wrong, { groupLog: g }, encoding), content, "mismatch", 0, "wrong hash");
      const start = len >> 1;
      const s = bao.slice(encoding, start, 2000, { groupLog: g });
      const step = Math.max(97, s.length >> 6);
      for (let p = 8; p < s.length; p += 1 + (next() % step)) {
        const bad = s.slice();
        bad[p] ^= 1;
        assert.throws(() => bao.decodeSlice(bad, hash, start, 2000, { groupLog: g }), { name: "BaoError" });
      }
      for (let kept = 0; kept < s.length; kept += 1 + (next() % step)) {
        assert.throws(() => bao.decodeSlice(s.subarray(0, kept), hash, start, 2000, { groupLog: g }), { kind: "truncated" });
      }
    });
  });
}

describe("the decoding stream", () => {
  const next = rng(77);
  const content = randomBytes(next, 300000);
  const g = 2;
  const { hash, encoding } = bao.encode(content, { groupLog: g });
  const ob = bao.outboard(content, { groupLog: g }).encoding;

  /** A stream of `bytes` in pieces of random sizes, as a fetch() body arrives. */
  const body = (bytes) =>
    new ReadableStream({
      pull(controller) {
        if (bytes.length === 0) return controller.close();
        const n = 1 + (next() % 20000);
        controller.enqueue(bytes.slice(0, n));
        bytes = bytes.subarray(n);
      },
    });

  async function collect(readable) {
    const parts = [];
    try {
      for await (const part of readable) {
        // A slow reader: the error must still come after the verified bytes.
        await new Promise((resolve) => setTimeout(resolve, 0));
        parts.push(part);
      }
      return { released: Buffer.concat(parts), error: null };
    } catch (error) {
      return { released: Buffer.concat(parts), error };
    }
  }

  test("a combined encoding, through a Response body", async () => {
    const { released, error } = await collect(
      new Response(body(encoding)).body.pipeThrough(bao.decodeStream(hash, { groupLog: g })),
    );
    assert.equal(error, null);
    assert.ok(equal(released, content));
  });

  test("content with its outboard as bytes or as a second stream", async () => {
    for (const outboard of [ob, body(ob)]) {
      const { released, error } = await collect(
        body(content).pipeThrough(bao.decodeStream(hash, { groupLog: g, outboard })),
      );
      assert.equal(error, null);
      assert.ok(equal(released, content));
    }
  });

  test("a slice", async () => {
    const s = bao.slice(encoding, 100000, 50000, { groupLog: g });
    const stream = bao.decodeStream(hash, { groupLog: g, slice: { start: 100000, count: 50000 } });
    const { released, error } = await collect(body(s).pipeThrough(stream));
    assert.equal(error, null);
    assert.ok(equal(released, content.subarray(100000, 150000)));
  });

  test("corrupt and truncated streams error after only the verified bytes", async () => {
    const nodes = layout(content.length, g, false);
    for (let i = 0; i < 30; i++) {
      const bad = encoding.slice();
      const p = next() % (encoding.length - 8);
      bad[8 + p] ^= 1;
      const got = await collect(body(bad).pipeThrough(bao.decodeStream(hash, { groupLog: g })));
      assertFails(got, content, "mismatch", nodeAt(nodes, p).start, `byte ${p}`);
      const kept = next() % encoding.length;
      const cut = await collect(body(encoding.subarray(0, kept)).pipeThrough(bao.decodeStream(hash, { groupLog: g })));
      assertFails(cut, content, "truncated", truncatedAt(nodes, kept).start, `kept ${kept}`);
    }
    const badOb = ob.slice();
    badOb[8 + 64 * 5] ^= 1;
    const obNodes = layout(content.length, g, true);
    const got = await collect(body(content).pipeThrough(bao.decodeStream(hash, { groupLog: g, outboard: body(badOb) })));
    assertFails(got, content, "mismatch", nodeAt(obNodes, 64 * 5).start, "outboard stream");
  });
});

describe("arguments", () => {
  const { hash, encoding } = bao.encode(new Uint8Array(3000));
  test("bad arguments throw, nothing crashes", () => {
    assert.throws(() => bao.encode(new Uint8Array(1), { groupLog: 17 }), RangeError);
    assert.throws(() => bao.encode(new Uint8Array(1), { groupLog: -1 }), RangeError);
    assert.throws(() => bao.encode(new Uint8Array(1), { groupLog: 1.5 }), RangeError);
    assert.throws(() => bao.encode(42), TypeError);
    assert.throws(() => new bao.Decoder(hash.subarray(1)), TypeError);
    assert.throws(() => new bao.Decoder("zz"), TypeError);
    assert.throws(() => bao.slice(encoding, -1, 5), RangeError);
    assert.throws(() => bao.slice(encoding, 0, 2 ** 60), RangeError);
    assert.throws(() => new bao.Decoder(hash).pushOutboard(encoding), TypeError);
    // A forged length far beyond the data is a truncation, not an allocation.
    const forged = encoding.slice();
    forged.set([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00], 0);
    assert.throws(() => bao.decode(forged, hash), { name: "BaoError" });
    forged.fill(0xff, 0, 8);
    assert.throws(() => bao.decode(forged, hash), { kind: "length-overflow" });
  });
  test("random bytes and forged headers are errors, never a trap", () => {
    const next = rng(404);
    for (let i = 0; i < 3000; i++) {
      const g = next() % 17;
      const junk = randomBytes(next, next() % 3000);
      if (junk.length >= 8 && next() % 2) junk.fill(0, 3 + (next() % 5), 8);
      const options = { groupLog: g };
      const form = next() % 3;
      if (form === 1) options.outboard = randomBytes(next, next() % 300);
      const start = next() % 5000;
      const length = next() % 5000;
      const runs = [
        () => bao.slice(junk, start, length, { groupLog: g }),
        form === 2
          ? () => bao.decodeSlice(junk, hash, start, length, { groupLog: g })
          : () => bao.decode(junk, hash, options),
      ];
      for (const run of runs) {
        try {
          run();
        } catch (error) {
          assert.ok(error instanceof bao.BaoError, String(error));
        }
      }
    }
  });
  test("strings and views are bytes", () => {
    const a = bao.encode("héllo");
    const b = bao.encode(new TextEncoder().encode("héllo"));
    assert.ok(equal(a.encoding, b.encoding));
    const view = new DataView(encoding.buffer, encoding.byteOffset, encoding.byteLength);
    assert.equal(bao.decode(view, hex(hash)).length, 3000);
  });
});
