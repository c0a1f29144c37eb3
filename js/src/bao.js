// Bao verified streaming (entry point `arborhash/bao`): encodings byte-compatible with
// `arbor bao` and `arborhash::bao`, with chunk groups, slices, and decoding that releases only
// verified bytes. The work is done by the exports of js/wasm/src/bao.rs.
import { build, wasm } from "./wasm.js";

/** Which build is loaded: "simd" or "portable" (the one module instance of the package). */
export { build };

/** The largest piece copied into WebAssembly memory at once. */
const PIECE = 1 << 20;
const MAX_GROUP_LOG = 16;
const utf8 = new TextEncoder();

const KINDS = [null, "truncated", "mismatch", "trailing-data", "length-overflow", "group-log"];

/** A rejected encoding: `kind` says why, `offset` (for "truncated" and "mismatch") is the
 * content offset of the first byte under the node that failed or was incomplete. */
export class BaoError extends Error {
  constructor(kind, offset) {
    const messages = {
      truncated: `the encoding is truncated (at the node for content offset ${offset})`,
      mismatch:
        `verification failed: the node for content offset ${offset} does not match the hash ` +
        "(corrupt encoding or wrong hash)",
      "trailing-data": "unexpected data after the end of the encoding",
      "length-overflow": "the encoded length is impossibly large",
    };
    super(messages[kind]);
    this.name = "BaoError";
    this.kind = kind;
    /** @type {Uint8Array | undefined} set by `Decoder.push` to the bytes it verified before. */
    this.verified = undefined;
    if (kind === "truncated" || kind === "mismatch") this.offset = offset;
  }
}

function toBytes(data, what) {
  if (typeof data === "string") return utf8.encode(data);
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  throw new TypeError(`${what} must be a Uint8Array, an ArrayBuffer (or a view of one) or a string`);
}

function hashBytes(hash) {
  if (typeof hash === "string") {
    if (!/^[0-9a-fA-F]{64}$/.test(hash)) throw new TypeError("hash must be 64 hex digits");
    return Uint8Array.from(hash.match(/../g), (h) => parseInt(h, 16));
  }
  const bytes = toBytes(hash, "hash");
  if (bytes.length !== 32) throw new TypeError("hash must be 32 bytes");
  return bytes;
}

function groupLogOf(options) {
  const g = options?.groupLog ?? 0;
  if (!Number.isInteger(g) || g < 0 || g > MAX_GROUP_LOG) {
    throw new RangeError(`groupLog must be an integer from 0 to ${MAX_GROUP_LOG}`);
  }
  return g;
}

function count(n, what) {
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new RangeError(`${what} must be a non-negative safe integer`);
  }
  return n;
}

// One wasm object (see bao.rs); freed when its owner is done or collected.
const registry = new FinalizationRegistry((handle) => wasm.bao_free(handle));

class Handle {
  constructor() {
    this.id = wasm.bao_new();
    registry.register(this, this.id, this);
  }

  /** Copies `bytes` into the object's input. */
  input(bytes) {
    // Pointers and lengths are u32: above 2 GiB the i32 that JavaScript receives is negative.
    const ptr = wasm.bao_input(this.id, bytes.length) >>> 0;
    if (ptr === 0 && bytes.length > 0) throw new RangeError("out of WebAssembly memory");
    new Uint8Array(wasm.memory.buffer, ptr, bytes.length).set(bytes);
  }

  /** A copy of the object's output. */
  output() {
    const len = wasm.bao_output_len(this.id) >>> 0;
    const ptr = wasm.bao_output_ptr(this.id) >>> 0;
    return new Uint8Array(wasm.memory.buffer, ptr, len).slice();
  }

  /** Throws the error for a code returned by an operation. */
  check(code) {
    if (code === 0) return;
    const kind = KINDS[code];
    if (kind === "group-log") throw new RangeError(`groupLog must be from 0 to ${MAX_GROUP_LOG}`);
    if (!kind) throw new Error(`arborhash/bao: internal error ${code}`);
    throw new BaoError(kind, wasm.bao_error_offset(this.id));
  }

  free() {
    registry.unregister(this);
    wasm.bao_free(this.id);
    this.id = 0;
  }
}

/** An encoder fed in pieces: `update(data)` as often as needed, then `finalize()`, which gives
 * `{ hash, encoding }` (the combined encoding, or with `{ outboard: true }` the outboard). */
export class Encoder {
  #handle = new Handle();

  constructor(options = {}) {
    this.#handle.check(
      wasm.bao_encoder_init(this.#handle.id, groupLogOf(options), options.outboard ? 1 : 0),
    );
  }

  update(data) {
    const bytes = toBytes(data, "data");
    for (let at = 0; at < bytes.length; at += PIECE) {
      this.#handle.input(bytes.subarray(at, at + PIECE));
      this.#handle.check(wasm.bao_encoder_update(this.#handle.id));
    }
    return this;
  }

  finalize() {
    this.#handle.check(wasm.bao_encoder_finalize(this.#handle.id));
    const out = this.#handle.output();
    this.#handle.free();
    return { hash: out.slice(0, 32), encoding: out.subarray(32) };
  }
}

function encodeAll(data, options, outboardForm) {
  const g = groupLogOf(options);
  const handle = new Handle();
  try {
    handle.input(toBytes(data, "data"));
    handle.check(wasm.bao_encode(handle.id, g, outboardForm));
    const out = handle.output();
    return { hash: out.slice(0, 32), encoding: out.subarray(32) };
  } finally {
    handle.free();
  }
}

/** The combined encoding of `data`: `{ hash, encoding }`. */
export function encode(data, options = {}) {
  return encodeAll(data, options, 0);
}

/** The outboard encoding of `data`: `{ hash, encoding }`. */
export function outboard(data, options = {}) {
  return encodeAll(data, options, 1);
}

/** The slice of `count` bytes from `start` (what a reader of those bytes needs) out of a
 * combined encoding, or out of content with `{ outboard }` its outboard encoding. */
export function slice(encoding, start, length, options = {}) {
  const g = groupLogOf(options);
  const input = toBytes(encoding, "encoding");
  const handle = new Handle();
  try {
    let contentLen = -1;
    if (options.outboard !== undefined) {
      const ob = toBytes(options.outboard, "outboard");
      const both = new Uint8Array(input.length + ob.length);
      both.set(input);
      both.set(ob, input.length);
      handle.input(both);
      contentLen = input.length;
    } else {
      handle.input(input);
    }
    handle.check(
      wasm.bao_slice(handle.id, g, count(start, "start"), count(length, "count"), contentLen),
    );
    return handle.output();
  } finally {
    handle.free();
  }
}

/** An incremental verifying decoder. `push(bytes)` takes the next bytes of the combined
 * encoding, the slice, or (with `{ outboard: true }`) the content, and `pushOutboard(bytes)`
 * those of the outboard; each returns the content bytes verified by that call. `finish()`
 * says the input ended. A failure throws a `BaoError`; the bytes returned before it are
 * verified content, and the decoder then only throws. */
export class Decoder {
  #handle = new Handle();
  #outboard;
  /** The error that ended the decoder (its wasm object is freed then). */
  #failed = null;

  constructor(hash, options = {}) {
    const g = groupLogOf(options);
    const h = this.#handle;
    h.input(hashBytes(hash));
    let mode = options.outboard ? 1 : 0;
    let start = 0;
    let length = 0;
    if (options.slice !== undefined) {
      if (options.outboard) throw new TypeError("a slice carries its own tree: no outboard");
      mode = 2;
      start = count(options.slice.start, "slice.start");
      length = count(options.slice.count, "slice.count");
    }
    this.#outboard = mode === 1;
    h.check(wasm.bao_decoder_init(h.id, g, mode, start, length));
  }

  #push(data, stream) {
    if (this.#failed) throw this.#again();
    const bytes = toBytes(data, "data");
    const parts = [];
    let total = 0;
    for (let at = 0; at === 0 || at < bytes.length; at += PIECE) {
      this.#handle.input(bytes.subarray(at, at + PIECE));
      const code = wasm.bao_decoder_push(this.#handle.id, stream);
      const out = this.#handle.output();
      parts.push(out);
      total += out.length;
      if (code !== 0) {
        const error = this.#fail(code);
        error.verified = join(parts, total);
        throw error;
      }
    }
    return join(parts, total);
  }

  push(data) {
    return this.#push(data, 0);
  }

  pushOutboard(data) {
    if (!this.#outboard) throw new TypeError("this decoder was not made with { outboard: true }");
    return this.#push(data, 1);
  }

  finish() {
    if (this.#failed) throw this.#again();
    const code = wasm.bao_decoder_finish(this.#handle.id);
    if (code !== 0) throw this.#fail(code);
    this.#handle.free();
  }

  /** The error that ended the decoder, for a later call (which verified nothing). */
  #again() {
    const { kind, offset } = this.#failed;
    return kind ? new BaoError(kind, offset) : this.#failed;
  }

  /** Ends the decoder at the error of `code`, which later calls throw again. */
  #fail(code) {
    try {
      this.#handle.check(code);
    } catch (error) {
      this.#failed = error;
    }
    this.#handle.free();
    return this.#failed;
  }
}

function join(parts, total) {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Decodes a whole combined encoding (or content with `{ outboard }`) in memory. */
export function decode(encoding, hash, options = {}) {
  const ob = options.outboard;
  const decoder = new Decoder(hash, { groupLog: options.groupLog, outboard: ob !== undefined });
  if (ob !== undefined) decoder.pushOutboard(ob);
  const content = decoder.push(encoding);
  decoder.finish();
  return content;
}

/** Decodes a slice made by `slice(…, start, count, …)` against the whole content's hash. */
export function decodeSlice(sliceBytes, hash, start, length, options = {}) {
  const decoder = new Decoder(hash, { groupLog: options.groupLog, slice: { start, count: length } });
  const content = decoder.push(sliceBytes);
  decoder.finish();
  return content;
}

/** A Web `TransformStream` that takes the bytes of a combined encoding (or, with `{ outboard }`,
 * of the content) and gives out only verified content. `outboard` is the outboard encoding as
 * bytes or as a `ReadableStream` (such as another `fetch()` body). On a corrupt or truncated
 * input the stream errors with a `BaoError` naming the offset, after the bytes verified before
 * it. `slice: { start, count }` decodes a slice instead. */
export function decodeStream(hash, options = {}) {
  const ob = options.outboard;
  const decoder = new Decoder(hash, {
    groupLog: options.groupLog,
    outboard: ob !== undefined,
    slice: options.slice,
  });
  let pump = Promise.resolve();
  // Verified bytes go out before the error, which waits until they are read: erroring a
  // stream discards what is still queued in it.
  const fail = async (controller, e) => {
    if (e.verified?.length > 0) {
      controller.enqueue(e.verified);
      for (let ms = 1; controller.desiredSize !== null && controller.desiredSize < 0; ) {
        await new Promise((resolve) => setTimeout(resolve, ms));
        ms = Math.min(2 * ms, 100);
      }
    }
    throw e;
  };
  const emit = (controller, fn) => {
    let out;
    try {
      out = fn();
    } catch (e) {
      return fail(controller, e);
    }
    if (out.length > 0) controller.enqueue(out);
  };
  return new TransformStream({
    start(controller) {
      if (ob === undefined) return;
      if (typeof ob.getReader !== "function") return emit(controller, () => decoder.pushOutboard(ob));
      pump = (async () => {
        const reader = ob.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          await emit(controller, () => decoder.pushOutboard(value));
        }
      })();
      // Failures surface in the writer's next call (flush at the latest).
      pump.catch((e) => controller.error(e));
    },
    transform(chunk, controller) {
      return emit(controller, () => decoder.push(chunk));
    },
    async flush() {
      await pump;
      decoder.finish();
    },
  });
}
