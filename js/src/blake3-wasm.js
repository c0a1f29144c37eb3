// Drop-in for blake3-wasm 2.x (its Node entry point): hash, keyedHash, deriveKey, createHash,
// createKeyed, createDeriveKey (hashers are Node Transform streams), the hash reader with a
// BigInt position, using, maxHashBytes and defaultHashLength, with the same errors.
import { Transform } from "node:stream";
import { Blake3Hasher, blake3 } from "./index.js";

export const defaultHashLength = 32;
export const maxHashBytes = BigInt("18446744073709551615");
// Output positions this package reaches (its seek is a JavaScript number).
const reachable = BigInt(Number.MAX_SAFE_INTEGER);

export const inputToArray = (input) =>
  input instanceof Uint8Array ? input : new Uint8Array(input);
const normalizeInput = (input, encoding) =>
  inputToArray(typeof input === "string" ? Buffer.from(input, encoding) : input);

function checkKey(key, what) {
  if (key.length !== 32) {
    throw new Error(`key provided to ${what} must be 32 bytes, got ${key.length}`);
  }
}

// The 32 key bytes as the peer's module reads them: an array-like copied element by element
// (so a string key reads as numbers, mostly zeros), after the length check.
function keyArray(key) {
  if (key instanceof Uint8Array) return key;
  const k = new Uint8Array(32);
  k.set(key);
  return k;
}

// The peer encodes a context as a string: anything else fails as Node's encoder fails on it.
function contextString(context) {
  if (typeof context !== "string") Buffer.byteLength(context);
  return String(context);
}

// `length` bytes of output into a Buffer that Buffer.alloc makes (its checks and errors, as the
// peer's).
function filled(length, options) {
  const out = Buffer.alloc(length);
  out.set(blake3(options.input, { ...options.mode, length: out.length }));
  return out;
}

/** BLAKE3 of `input` as a Buffer of `length` (default 32) bytes. */
export function hash(input, { length = defaultHashLength } = {}) {
  return filled(length, { input: normalizeInput(input) });
}

/** Derives `length` bytes from `context` (a string) and `material`. */
export function deriveKey(context, material, { length = defaultHashLength } = {}) {
  const mode = { context: contextString(context) };
  return filled(length, { input: normalizeInput(material), mode });
}

/** The keyed hash (`key`: 32 bytes). */
export function keyedHash(key, input, { length = defaultHashLength } = {}) {
  checkKey(key, "keyedHash");
  return filled(length, { input: normalizeInput(input), mode: { key: keyArray(key) } });
}

function boundsCheck(position) {
  if (position > maxHashBytes) {
    throw new RangeError(`Cannot read past ${maxHashBytes} bytes in BLAKE3 hashes`);
  }
  if (position < BigInt(0)) {
    throw new RangeError(`Cannot read to a negative position`);
  }
}

/** The extended output of a hash, with a BigInt `position`. */
export class NodeHashReader {
  #hasher;
  #pos = BigInt(0);
  constructor(hasher) {
    this.#hasher = hasher;
  }

  get position() {
    return this.#pos;
  }

  set position(value) {
    if (typeof value !== "bigint") {
      throw new Error(`Got a ${typeof value} set in to reader.position, expected a bigint`);
    }
    boundsCheck(value);
    this.#pos = value;
  }

  readInto(target) {
    if (!this.#hasher) {
      throw new Error(`Cannot read from a hash after it was disposed`);
    }
    const next = this.#pos + BigInt(target.length);
    boundsCheck(next);
    if (next > reachable) {
      throw new RangeError(`arborhash reads BLAKE3 output only below 2^53 - 1 bytes`);
    }
    target.set(this.#hasher.digest({ length: target.length, seek: Number(this.#pos) }));
    this.#pos = next;
  }

  read(bytes) {
    const data = Buffer.alloc(bytes);
    this.readInto(data);
    return data;
  }

  /**
   * The first 32 bytes of the hash in `encoding` (default hex); moves to position 32.
   * @param {BufferEncoding} [encoding]
   */
  toString(encoding = "hex") {
    return this.toBuffer().toString(encoding);
  }

  /** The first 32 bytes of the hash; moves to position 32. */
  toBuffer() {
    this.position = BigInt(0);
    return this.read(defaultHashLength);
  }

  dispose() {
    this.#hasher?.dispose();
    this.#hasher = undefined;
  }
}

/** A hasher and Node Transform stream (its output is the digest). */
export class NodeHash extends Transform {
  #hasher;
  constructor(hasher) {
    super();
    this.#hasher = hasher;
  }

  update(data, encoding) {
    if (!this.#hasher) {
      throw new Error("Cannot continue updating hashing after dispose() has been called");
    }
    this.#hasher.update(normalizeInput(data, encoding));
    return this;
  }

  digest(encoding, options) {
    let opts = options;
    let enc = encoding;
    if (encoding && typeof encoding === "object") {
      opts = encoding;
      enc = undefined;
    }
    const { length = defaultHashLength, dispose = true } = opts ?? {};
    if (!this.#hasher) {
      throw new Error("Cannot call digest() after dipose() has been called");
    }
    const result = Buffer.alloc(length);
    result.set(this.#hasher.digest({ length: result.length }));
    if (dispose) this.dispose();
    return enc ? result.toString(enc) : result;
  }

  reader({ dispose = true } = {}) {
    if (!this.#hasher) {
      throw new Error("Cannot call reader() after dipose() has been called");
    }
    const reader = new NodeHashReader(this.#hasher.clone());
    if (dispose) this.dispose();
    return reader;
  }

  dispose() {
    this.#hasher?.dispose();
    this.#hasher = undefined;
  }

  _transform(chunk, encoding, callback) {
    this.update(chunk, encoding);
    callback();
  }

  _flush(callback) {
    callback(null, this.digest());
  }
}

export const createHash = () => new NodeHash(new Blake3Hasher());
// (The peer's module traps on a key of another length, a RuntimeError; this is keyedHash's Error.)
export const createKeyed = (key) => {
  checkKey(key, "createKeyed");
  return new NodeHash(new Blake3Hasher({ key: keyArray(key) }));
};
export const createDeriveKey = (context) =>
  new NodeHash(new Blake3Hasher({ context: contextString(context) }));

/** Calls `fn(disposable)` and disposes of it afterwards (after the promise, if one is returned). */
export const using = (disposable, fn) => {
  let ret;
  try {
    ret = fn(disposable);
  } catch (e) {
    disposable.dispose();
    throw e;
  }
  if (!ret || typeof ret.then !== "function") {
    disposable.dispose();
    return ret;
  }
  return ret.then(
    (value) => {
      disposable.dispose();
      return value;
    },
    (err) => {
      disposable.dispose();
      throw err;
    },
  );
};
