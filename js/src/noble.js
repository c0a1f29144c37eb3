// Drop-in for @noble/hashes 2.x's `blake3`, `blake2b` and `blake2s` (from
// "@noble/hashes/blake3.js" and "@noble/hashes/blake2.js"): callable with `(msg, opts)`, with
// `.create(opts)`, `outputLen`, `blockLen` and `canXOF`; hashers with update, digest,
// digestInto, clone, destroy and, for BLAKE3, xof and xofInto; the same checks and errors.
import { Blake2Hasher, Blake3Hasher } from "./index.js";

const title = (t) => (t ? `"${t}" ` : "");

function isBytes(a) {
  return (
    a instanceof Uint8Array ||
    (ArrayBuffer.isView(a) &&
      a.constructor.name === "Uint8Array" &&
      "BYTES_PER_ELEMENT" in a &&
      a.BYTES_PER_ELEMENT === 1)
  );
}

function anumber(n, t = "") {
  if (typeof n !== "number") throw new TypeError(title(t) + "expected number, got " + typeof n);
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new RangeError(title(t) + "expected integer >= 0, got " + n);
  }
  return n;
}

function abytes(value, length, t = "") {
  const bytes = isBytes(value);
  if (bytes && (length === undefined || value.length === length)) return value;
  const ofLen = length !== undefined ? ` of length ${length}` : "";
  const got = bytes ? `length=${value.length}` : `type=${typeof value}`;
  const message = title(t) + "expected Uint8Array" + ofLen + ", got " + got;
  if (!bytes) throw new TypeError(message);
  throw new RangeError(message);
}

function checkOpts(opts, label = "opts") {
  if (opts === undefined) return Object.create(null);
  if (opts === null || typeof opts !== "object" || Array.isArray(opts)) {
    throw new TypeError(`"${label}" expected object, got type=` + typeof opts);
  }
  const proto = Object.getPrototypeOf(opts);
  if (proto !== Object.prototype && proto !== null) {
    throw new TypeError(`"${label}" expected plain object`);
  }
  if (Object.hasOwn(opts, "__proto__")) throw new TypeError(`"${label}.__proto__" is not allowed`);
  return Object.assign(Object.create(null), opts);
}

// What @noble/hashes' hashers share: the finished/destroyed life cycle.
// (Subclasses set `outputLen` and `hasher`, and define `digestInto` and `_cloneInto`.)
/** @typedef {any} Self */
class Base {
  finished = false;
  destroyed = false;
  /** @type {number} */
  outputLen;
  /** @type {any} */
  hasher;

  aexists(checkFinished = true) {
    if (this.destroyed) throw new Error("hash was destroyed");
    if (checkFinished && this.finished) throw new Error("digest() was already called");
  }

  aoutput(out) {
    abytes(out, undefined, "output");
    if (!(out.length >= this.outputLen)) {
      throw new RangeError('"output" expected length >= ' + this.outputLen);
    }
  }

  update(data) {
    this.aexists();
    abytes(data);
    this.hasher.update(data);
    return this;
  }

  digest() {
    const out = new Uint8Array(this.outputLen);
    /** @type {Self} */ (this).digestInto(out);
    return out;
  }

  destroy() {
    this.destroyed = true;
    this.hasher.dispose();
  }

  clone() {
    return /** @type {Self} */ (this)._cloneInto();
  }
}

class Blake3 extends Base {
  blockLen = 64;
  canXOF = true;
  #position = 0;
  #xof = true;

  constructor(opts) {
    super();
    opts = checkOpts(opts);
    this.outputLen = anumber(opts.dkLen === undefined ? 32 : opts.dkLen);
    const { key, context } = opts;
    if (key !== undefined) {
      if (context !== undefined) throw new Error('cannot use both "key" and "context"');
      abytes(key, 32, "key");
      this.hasher = new Blake3Hasher({ key });
    } else if (context !== undefined) {
      abytes(context, undefined, "context");
      this.hasher = new Blake3Hasher({ context });
    } else {
      this.hasher = new Blake3Hasher();
    }
  }

  #writeInto(out) {
    this.aexists(false);
    abytes(out);
    this.finished = true;
    out.set(this.hasher.digest({ length: out.length, seek: this.#position }));
    this.#position += out.length;
    return out;
  }

  xofInto(out) {
    if (!this.#xof) throw new Error("no XOF after digest()");
    return this.#writeInto(out);
  }

  xof(bytes) {
    anumber(bytes);
    return this.xofInto(new Uint8Array(bytes));
  }

  digestInto(out) {
    this.aoutput(out);
    if (this.finished) throw new Error("digest() was already called");
    this.#xof = false;
    this.#writeInto(out.length === this.outputLen ? out : out.subarray(0, this.outputLen));
    this.destroy();
  }

  _cloneInto(to) {
    to ||= new Blake3({ dkLen: this.outputLen });
    to.hasher.dispose();
    to.hasher = this.destroyed ? new Blake3Hasher() : this.hasher.clone();
    to.outputLen = this.outputLen;
    to.finished = this.finished;
    to.destroyed = this.destroyed;
    to.#position = this.#position;
    to.#xof = this.#xof;
    return to;
  }
}

function blake2Class(variant, max, saltLen, blockLen) {
  return class Blake2 extends Base {
    blockLen = blockLen;
    canXOF = false;

    constructor(opts) {
      super();
      opts = checkOpts(opts);
      const olen = opts.dkLen === undefined ? max : opts.dkLen;
      this.outputLen = anumber(olen);
      if (olen <= 0 || olen > max) throw new Error(`"dkLen" must be 1..${max}, got ${olen}`);
      const { key, salt, personalization } = opts;
      if (key !== undefined && (key.length < 1 || key.length > max)) {
        throw new Error(`"key" expected to be undefined or of length=1..${max}`);
      }
      if (salt !== undefined) abytes(salt, saltLen, "salt");
      if (personalization !== undefined) abytes(personalization, saltLen, "personalization");
      if (key !== undefined) abytes(key, undefined, "key");
      this.hasher = new Blake2Hasher(variant, {
        length: olen,
        ...(key !== undefined ? { key } : {}),
        ...(salt !== undefined ? { salt } : {}),
        ...(personalization !== undefined ? { personal: personalization } : {}),
      });
      this.options = { dkLen: olen, key, salt, personalization };
    }

    digestInto(out) {
      this.aexists();
      this.aoutput(out);
      if (out.byteOffset & 3) {
        throw new RangeError('"output" expected 4-byte aligned byteOffset, got ' + out.byteOffset);
      }
      this.finished = true;
      out.set(this.hasher.digest());
    }

    digest() {
      const out = new Uint8Array(this.outputLen);
      this.digestInto(out);
      this.destroy();
      return out;
    }

    _cloneInto(to) {
      to ||= new /** @type {Self} */ (this.constructor)({ dkLen: this.outputLen });
      to.hasher.dispose();
      to.hasher = this.destroyed ? new Blake2Hasher(variant) : this.hasher.clone();
      to.outputLen = this.outputLen;
      to.finished = this.finished;
      to.destroyed = this.destroyed;
      return to;
    }
  };
}

function createHasher(make) {
  const hashC = (msg, opts) => make(opts).update(msg).digest();
  const tmp = make(undefined);
  hashC.outputLen = tmp.outputLen;
  hashC.blockLen = tmp.blockLen;
  hashC.canXOF = tmp.canXOF;
  tmp.destroy();
  hashC.create = (opts) => make(opts);
  return Object.freeze(hashC);
}

const Blake2b = blake2Class("blake2b", 64, 16, 128);
const Blake2s = blake2Class("blake2s", 32, 8, 64);

/** BLAKE3: `blake3(msg, { dkLen, key, context })`, `blake3.create(opts)`. */
export const blake3 = createHasher((opts = {}) => new Blake3(opts));
/** BLAKE2b: `blake2b(msg, { dkLen, key, salt, personalization })`, `blake2b.create(opts)`. */
export const blake2b = createHasher((opts) => new Blake2b(opts));
/** BLAKE2s: as `blake2b` with 32-byte limits and 8-byte salt and personalization. */
export const blake2s = createHasher((opts) => new Blake2s(opts));
