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

/** BLAKE3 of `input` as a Buffer of `length` (default 32) bytes. */
export function hash(input, { length = defaultHashLength } = {}) {
  return Buffer.from(blake3(normalizeInput(input), { length }).buffer);
}

/** Derives `length` bytes from `context` (a string) and `material`. */
export function deriveKey(context, material, { length = defaultHashLength } = {}) {
  return Buffer.from(blake3(normalizeInput(material), { length, context: String(context) }).buffer);
}

/** The keyed hash (`key`: 32 bytes). */
export function keyedHash(key, input, { length = defaultHashLength } = {}) {
  checkKey(key, "keyedHash");
  return Buffer.from(blake3(normalizeInput(input), { length, key: inputToArray(key) }).buffer);
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
    const result = Buffer.from(this.#hasher.digest({ length }).buffer);
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
export const createKeyed = (key) => {
  checkKey(key, "createKeyed");
  return new NodeHash(new Blake3Hasher({ key: inputToArray(key) }));
};
export const createDeriveKey = (context) =>
  new NodeHash(new Blake3Hasher({ context: String(context) }));

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
