// The package's own API: BLAKE3 (hash, keyed, derive-key, extended output with seek, a
// streaming hasher) and BLAKE2b/2s/2bp/2sp with every parameter, over the wasm module.
import {
  build,
  bytes,
  copyOut,
  feed,
  io,
  IO_LEN,
  loadedBytes,
  scratch,
  stringToIo,
  toBytes,
  track,
  untrack,
  wasm,
} from "./wasm.js";

export { build, toBytes };

/** Where extended output ends at the latest (seek + length): 2^53 - 1. */
export const MAX_OUTPUT = Number.MAX_SAFE_INTEGER;

/** Lowercase hexadecimal of bytes. */
export function toHex(data) {
  let out = "";
  for (let i = 0; i < data.length; i++) out += HEX[data[i]];
  return out;
}
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

function checkLength(length, name = "length") {
  if (!Number.isSafeInteger(length) || length < 0) {
    throw new RangeError(`arborhash: ${name} must be a non-negative integer, not ${length}`);
  }
}

function checkSpan(seek, length) {
  checkLength(seek, "seek");
  checkLength(length);
  if (seek + length > MAX_OUTPUT) {
    throw new RangeError("arborhash: seek + length must be at most 2^53 - 1");
  }
}

// Passed to a hasher's constructor with a handle to copy, by `clone`.
const ADOPT = Symbol("adopt");

// Where the 32-byte key or context key of a BLAKE3 mode sits in the scratch buffer.
const KEY = scratch;
const OUT = scratch + 64;

/** Resolves the BLAKE3 mode of `options` ({ key } or { context }) and writes its key. */
function blake3Mode(options) {
  const { key, context } = options;
  if (key !== undefined && context !== undefined) {
    throw new TypeError("arborhash: give a key or a derive-key context, not both");
  }
  if (key !== undefined) {
    const k = toBytes(key);
    if (k.length !== 32) {
      throw new RangeError(`arborhash: a BLAKE3 key is 32 bytes, not ${k.length}`);
    }
    bytes().set(k, KEY);
    return 1;
  }
  if (context !== undefined) {
    if (typeof context !== "string" && !ArrayBuffer.isView(context)) {
      throw new TypeError("arborhash: a derive-key context is a string or bytes");
    }
    const ctx = toBytes(context);
    withInput(ctx, (ptr, len) => wasm.b3_context_key(ptr, len, KEY));
    return 2;
  }
  return 0;
}

/** The 32-byte BLAKE3 context key of a derive-key `context` (a string or bytes). */
export function contextKey(context) {
  blake3Mode({ context });
  return copyOut(KEY, 32);
}

// Calls f(ptr, len) with `data` in wasm memory: the I/O buffer if it fits, else a temporary
// allocation (used only for short things such as contexts; large inputs go through `feed`).
function withInput(data, f) {
  if (data.length <= IO_LEN) {
    bytes().set(data, io);
    return f(io, data.length);
  }
  const ptr = wasm.alloc(data.length);
  if (ptr === 0) throw new RangeError("arborhash: out of wasm memory");
  try {
    bytes().set(data, ptr);
    return f(ptr, data.length);
  } finally {
    wasm.free(ptr, data.length);
  }
}

// Reads `length` bytes of output from `seek` with `fill(outPtr, len, seek)`, in pieces that fit
// the I/O buffer.
function readOutput(length, seek, fill) {
  if (length <= 64) {
    fill(OUT, length, seek);
    return copyOut(OUT, length);
  }
  const out = new Uint8Array(length);
  for (let at = 0; at < length; at += IO_LEN) {
    const n = Math.min(IO_LEN, length - at);
    fill(io, n, seek + at);
    out.set(bytes().subarray(io, io + n), at);
  }
  return out;
}

/**
 * BLAKE3 of `input`. Options: `length` (bytes of output, default 32), `seek` (start position
 * in the output stream), `key` (32 bytes: keyed hash) or `context` (derive-key mode: `input` is
 * the key material).
 */
export function blake3(input, options = {}) {
  const { length = 32, seek = 0 } = options;
  checkSpan(seek, length);
  const mode = blake3Mode(options);
  const placed = length <= 64 ? stringToIo(input) : -1;
  if (placed >= 0) {
    wasm.b3_hash(mode, KEY, io, placed, OUT, length, seek);
    return copyOut(OUT, length);
  }
  const data = toBytes(input);
  if (data.length <= IO_LEN && length <= 64) {
    bytes().set(data, io);
    wasm.b3_hash(mode, KEY, io, data.length, OUT, length, seek);
    return copyOut(OUT, length);
  }
  const h = wasm.b3_new(mode, KEY);
  try {
    feed(h, data);
    return readOutput(length, seek, (ptr, n, pos) => wasm.b3_finalize(h, ptr, n, pos));
  } finally {
    wasm.drop_state(h);
  }
}

/** `blake3` as lowercase hexadecimal. */
export function blake3Hex(input, options) {
  return toHex(blake3(input, options));
}

/** BLAKE3 keyed hash (`key`: 32 bytes) of `input`; options as for `blake3`. */
export function keyedHash(key, input, options = {}) {
  return blake3(input, { ...options, key });
}

/** BLAKE3 key derivation: `length` (default 32) bytes from `context` and `material`. */
export function deriveKey(context, material, options = {}) {
  return blake3(material, { ...options, context });
}

/** A streaming BLAKE3 hasher; options `key` or `context` as for `blake3`. */
export class Blake3Hasher {
  #handle;
  constructor(options = {}, adopt = undefined) {
    this.#handle = adopt === ADOPT ? wasm.clone(options) : wasm.b3_new(blake3Mode(options), KEY);
    track(this, this.#handle);
  }

  #live() {
    if (this.#handle === 0) throw new Error("arborhash: the hasher was disposed");
    return this.#handle;
  }

  /** Adds input (string, bytes, ArrayBuffer or view); returns the hasher. */
  update(input) {
    feed(this.#live(), toBytes(input));
    return this;
  }

  /** The output so far ({ length = 32, seek = 0 }); the hasher can take more input after. */
  digest(options = {}) {
    const { length = 32, seek = 0 } = options;
    checkSpan(seek, length);
    const h = this.#live();
    return readOutput(length, seek, (ptr, n, pos) => wasm.b3_finalize(h, ptr, n, pos));
  }

  /** `digest` as lowercase hexadecimal. */
  digestHex(options) {
    return toHex(this.digest(options));
  }

  /** A reader of the extended output so far, independent of later updates. */
  reader() {
    return new Blake3Reader(this.clone());
  }

  /** The hasher's state, for `load` (of a hasher of this build, in this or another process). */
  save() {
    return saveState(this.#live(), "blake3");
  }

  /** Replaces the state by one from `save`; throws a TypeError for anything else. */
  load(state) {
    if (!(state instanceof Uint8Array) || stateProblem(state, "blake3")) {
      throw new TypeError("arborhash: not a saved BLAKE3 state of this build");
    }
    loadState(this.#live(), state);
    return this;
  }

  /** Forgets all input (mode and key stay). */
  reset() {
    wasm.b3_reset(this.#live());
    return this;
  }

  /** A copy of the hasher. */
  clone() {
    return new Blake3Hasher(this.#live(), ADOPT);
  }

  /** Frees the hasher's wasm memory now (otherwise it is freed when collected). */
  dispose() {
    if (this.#handle !== 0) {
      untrack(this);
      wasm.drop_state(this.#handle);
      this.#handle = 0;
    }
  }
}

/** The extended output of a BLAKE3 hash: `read(n)`, `readInto(buffer)`, `position`. */
export class Blake3Reader {
  #hasher;
  #position = 0;
  constructor(hasher) {
    this.#hasher = hasher;
  }

  get position() {
    return this.#position;
  }

  set position(value) {
    checkSpan(value, 0);
    this.#position = value;
  }

  /** The next `length` bytes of output. */
  read(length) {
    const out = this.#hasher.digest({ length, seek: this.#position });
    this.#position += length;
    return out;
  }

  /** Fills `target` (a Uint8Array) with the next bytes of output. */
  readInto(target) {
    target.set(this.read(target.length));
  }

  /** Frees the reader's wasm memory now. */
  dispose() {
    this.#hasher.dispose();
  }
}

// ---------------------------------------------------------------------------------------------
// Saved states: a 4-byte tag of the build and the hasher's kind, the state's bytes, and a
// 16-byte BLAKE3 checksum, so that `load` takes only what a `save` of the same build wrote.

const STATE_LEN = wasm.state_size();
const tags = new Map();
function tag(kind) {
  if (!tags.has(kind)) {
    tags.set(kind, blake3(loadedBytes, { key: blake3(`arborhash state ${kind}`) }).subarray(0, 4));
  }
  return tags.get(kind);
}

/** The saved state of the hasher `handle` of `kind`. */
function saveState(handle, kind) {
  const out = new Uint8Array(4 + STATE_LEN + 16);
  out.set(tag(kind));
  const ptr = wasm.alloc(STATE_LEN);
  wasm.save(handle, ptr);
  out.set(bytes().subarray(ptr, ptr + STATE_LEN), 4);
  wasm.free(ptr, STATE_LEN);
  out.set(blake3(out.subarray(0, 4 + STATE_LEN), { length: 16 }), 4 + STATE_LEN);
  return out;
}

/** Why `state` cannot be loaded into a hasher of `kind`, or null if it can. */
function stateProblem(state, kind) {
  if (state.length !== 4 + STATE_LEN + 16) return "length";
  const body = state.subarray(0, 4 + STATE_LEN);
  const sum = blake3(body, { length: 16 });
  const t = tag(kind);
  const same = (a, b) => a.every((x, i) => x === b[i]);
  return same(state.subarray(0, 4), t) && same(sum, state.subarray(4 + STATE_LEN)) ? null : "tag";
}

/** Loads a state `stateProblem` accepted into the hasher `handle`. */
function loadState(handle, state) {
  const ptr = wasm.alloc(STATE_LEN);
  bytes().set(state.subarray(4, 4 + STATE_LEN), ptr);
  wasm.load(handle, ptr);
  wasm.free(ptr, STATE_LEN);
}

// ---------------------------------------------------------------------------------------------
// BLAKE2

const VARIANTS = {
  blake2b: { id: 0, out: 64, salt: 16, offsetMax: 2 ** 53 - 1, tree: true },
  blake2s: { id: 1, out: 32, salt: 8, offsetMax: 2 ** 48 - 1, tree: true },
  blake2bp: { id: 2, out: 64, salt: 0, offsetMax: 0, tree: false },
  blake2sp: { id: 3, out: 32, salt: 0, offsetMax: 0, tree: false },
};
const PARAMS = scratch + 128; // the 144-byte Blake2Params block of js/wasm/src/lib.rs
const TREE = [
  ["fanout", 255],
  ["maxDepth", 255],
  ["maxLeafLength", 2 ** 32 - 1],
  ["nodeDepth", 255],
];

function optionalBytes(value, max, what, name) {
  if (value === undefined) return new Uint8Array(0);
  const b = toBytes(value);
  if (b.length > max) {
    throw new RangeError(`arborhash: a ${name} ${what} is at most ${max} bytes, not ${b.length}`);
  }
  return b;
}

function intOption(options, name, max, fallback) {
  const value = options[name] ?? fallback;
  if (!Number.isSafeInteger(value) || value < 0 || value > max) {
    throw new RangeError(`arborhash: ${name} must be an integer from 0 to ${max}, not ${value}`);
  }
  return value;
}

// The variant whose default parameters are in the block now, if any: a call with no options
// then writes nothing.
let defaultsWritten = null;

/** Writes the parameter block of `options` for `name`; returns the variant's id. */
function writeParams(name, options) {
  const v = VARIANTS[name];
  let empty = true;
  for (const _ in options) {
    empty = false;
    break;
  }
  if (empty && defaultsWritten === name) return v.id;
  defaultsWritten = empty ? name : null;
  const allowed = v.tree
    ? [
        "length",
        "key",
        "salt",
        "personal",
        "fanout",
        "maxDepth",
        "maxLeafLength",
        "nodeOffset",
        "nodeDepth",
        "innerLength",
        "lastNode",
      ]
    : ["length", "key"];
  for (const k of Object.keys(options)) {
    if (!allowed.includes(k)) throw new TypeError(`arborhash: ${name} has no option ${k}`);
  }
  const length = options.length ?? v.out;
  if (!Number.isSafeInteger(length) || length < 1 || length > v.out) {
    throw new RangeError(`arborhash: a ${name} length is 1 to ${v.out} bytes, not ${length}`);
  }
  const key = optionalBytes(options.key, v.out, "key", name);
  const salt = optionalBytes(options.salt, v.salt, "salt", name);
  const personal = optionalBytes(options.personal, v.salt, "personal", name);
  const mem = bytes();
  const dv = new DataView(mem.buffer, PARAMS, 144);
  mem.fill(0, PARAMS, PARAMS + 144);
  const tree = TREE.map(([n, max]) => (v.tree ? intOption(options, n, max, n === "fanout" || n === "maxDepth" ? 1 : 0) : 0));
  const fields = [
    length,
    key.length,
    salt.length,
    personal.length,
    tree[0],
    tree[1],
    tree[2],
    tree[3],
    v.tree ? intOption(options, "innerLength", v.out, 0) : 0,
    options.lastNode ? 1 : 0,
  ];
  fields.forEach((f, i) => dv.setUint32(4 * i, f, true));
  dv.setFloat64(40, v.tree ? intOption(options, "nodeOffset", v.offsetMax, 0) : 0, true);
  mem.set(key, PARAMS + 48);
  mem.set(salt, PARAMS + 112);
  mem.set(personal, PARAMS + 128);
  return v.id;
}

function blake2(name, input, options) {
  const id = writeParams(name, options);
  let len = stringToIo(input);
  const data = len < 0 ? toBytes(input) : null;
  if (data && data.length <= IO_LEN) {
    bytes().set(data, io);
    len = data.length;
  }
  if (len >= 0) {
    const n =
      defaultsWritten === name
        ? wasm.b2_hash_default(id, io, len, OUT)
        : wasm.b2_hash(id, PARAMS, io, len, OUT);
    return copyOut(OUT, n);
  }
  const h = wasm.b2_new(id, PARAMS);
  try {
    feed(h, data);
    return copyOut(OUT, wasm.b2_finalize(h, OUT));
  } finally {
    wasm.drop_state(h);
  }
}

/**
 * BLAKE2b of `input`. Options: `length` (1-64, default 64), `key` (up to 64 bytes), `salt` and
 * `personal` (up to 16 bytes), `fanout`, `maxDepth` (default 1), `maxLeafLength`, `nodeOffset`
 * (below 2^53 here), `nodeDepth`, `innerLength`, `lastNode`.
 */
export const blake2b = (input, options = {}) => blake2("blake2b", input, options);
/** BLAKE2s of `input`; options as for `blake2b` with limits 32, 32, 8 and node offset < 2^48. */
export const blake2s = (input, options = {}) => blake2("blake2s", input, options);
/** BLAKE2bp of `input`; options `length` (1-64) and `key` (up to 64 bytes). */
export const blake2bp = (input, options = {}) => blake2("blake2bp", input, options);
/** BLAKE2sp of `input`; options `length` (1-32) and `key` (up to 32 bytes). */
export const blake2sp = (input, options = {}) => blake2("blake2sp", input, options);

/** A streaming BLAKE2 hasher: `new Blake2Hasher("blake2b" | "blake2s" | "blake2bp" | "blake2sp", options)`. */
export class Blake2Hasher {
  #handle;
  constructor(variant, options = {}, adopt = undefined) {
    if (!Object.hasOwn(VARIANTS, variant)) {
      throw new TypeError(`arborhash: unknown BLAKE2 variant ${String(variant)}`);
    }
    this.variant = variant;
    this.#handle =
      adopt === ADOPT ? wasm.clone(options) : wasm.b2_new(writeParams(variant, options), PARAMS);
    track(this, this.#handle);
  }

  #live() {
    if (this.#handle === 0) throw new Error("arborhash: the hasher was disposed");
    return this.#handle;
  }

  /** Adds input; returns the hasher. */
  update(input) {
    feed(this.#live(), toBytes(input));
    return this;
  }

  /** The hash so far; the hasher can take more input after. */
  digest() {
    return copyOut(OUT, wasm.b2_finalize(this.#live(), OUT));
  }

  /** The hasher's state, for `load`. */
  save() {
    return saveState(this.#live(), this.variant);
  }

  /** Replaces the state by one from `save` of the same variant; TypeError for anything else. */
  load(state) {
    if (!(state instanceof Uint8Array) || stateProblem(state, this.variant)) {
      throw new TypeError(`arborhash: not a saved ${this.variant} state of this build`);
    }
    loadState(this.#live(), state);
    return this;
  }

  /** `digest` as lowercase hexadecimal. */
  digestHex() {
    return toHex(this.digest());
  }

  /** A copy of the hasher. */
  clone() {
    return new Blake2Hasher(this.variant, this.#live(), ADOPT);
  }

  /** Frees the hasher's wasm memory now (otherwise it is freed when collected). */
  dispose() {
    if (this.#handle !== 0) {
      untrack(this);
      wasm.drop_state(this.#handle);
      this.#handle = 0;
    }
  }
}

export { HashingTransformStream } from "./web-stream.js";
