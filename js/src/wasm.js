// Loads the WebAssembly module once, at import (top-level await), and holds the helpers every
// entry point calls it through.
//
// Calling convention (the exports are documented at the top of js/wasm/src/lib.rs):
// - `wasm` is the instance's exports; pointers and lengths are numbers, stream offsets and seek
//   positions are numbers below 2^53 (never BigInt).
// - `io` is one buffer of `IO_LEN` bytes in wasm memory, allocated once: inputs are copied
//   through it in pieces of at most `IO_LEN` (see `feed`), and results are read from it.
// - `scratch` is a second small buffer (`SCRATCH_LEN` bytes) for keys, parameter blocks and
//   outputs of up to 64 bytes: bytes 0-271 belong to index.js (which keeps the last BLAKE2
//   parameter block there), 320-479 to parallel-core.js; Bao's code takes its own allocation.
// - `bytes()` returns a Uint8Array view of the whole wasm memory, fresh after any growth.
// - Hashers are handles (numbers); `track(object, handle)` frees the handle when the object is
//   garbage-collected, and `untrack(object)` before an explicit free.
// - The build: the SIMD128 module if the engine validates it, else the portable one; forced with
//   the environment variable ARBORHASH_WASM=portable|simd in Node, or
//   `globalThis.ARBORHASH_WASM` set before the first import in a page or worker.
import portableBase64 from "./generated/wasm-portable.js";
import simdBase64 from "./generated/wasm-simd.js";

export const IO_LEN = 1 << 20;
export const SCRATCH_LEN = 512;

/**
 * The bytes of a base64 string (atob is in Node 16+ and every browser).
 * @returns {Uint8Array<ArrayBuffer>}
 */
export function fromBase64(text) {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

function requestedBuild() {
  const forced =
    globalThis.ARBORHASH_WASM ??
    (typeof process !== "undefined" ? process.env?.ARBORHASH_WASM : undefined);
  if (forced !== undefined && forced !== "" && forced !== "portable" && forced !== "simd") {
    throw new Error(`ARBORHASH_WASM must be "portable" or "simd", not ${JSON.stringify(forced)}`);
  }
  return forced || undefined;
}

/** @returns {[string, Uint8Array<ArrayBuffer>]} */
function chooseBuild() {
  const forced = requestedBuild();
  const simdBytes = forced === "portable" ? null : fromBase64(simdBase64);
  if (simdBytes && WebAssembly.validate(simdBytes)) return ["simd", simdBytes];
  if (forced === "simd") throw new Error("this engine does not accept the SIMD128 build");
  return ["portable", fromBase64(portableBase64)];
}

const [chosen, moduleBytes] = chooseBuild();

/** Which build is loaded: "simd" or "portable". */
export const build = chosen;
/** The bytes of the loaded module (saved hasher states are tagged with their hash). */
export const loadedBytes = moduleBytes;
/** The compiled module, which workers may instantiate again. */
export const wasmModule = await WebAssembly.compile(moduleBytes);
const instance = await WebAssembly.instantiate(wasmModule, {});
/** @type {any} The raw exports, typed in js/wasm/src/lib.rs. */
export const wasm = instance.exports;

function allocOrThrow(len) {
  const ptr = wasm.alloc(len);
  if (ptr === 0) throw new RangeError(`arborhash: cannot allocate ${len} bytes of wasm memory`);
  return ptr;
}

export const io = allocOrThrow(IO_LEN);
export const scratch = allocOrThrow(SCRATCH_LEN);

let view = new Uint8Array(wasm.memory.buffer);
/** A view of the whole wasm memory (renewed when the memory has grown). */
export function bytes() {
  // Growth detaches the old buffer, whose views then have length 0: cheaper to test than the
  // `memory.buffer` getter, which cost a tenth of a 64-byte BLAKE2b call.
  if (view.length === 0) view = new Uint8Array(wasm.memory.buffer);
  return view;
}

const encoder = new TextEncoder();

/**
 * The bytes of an input: a string (as UTF-8), an ArrayBuffer, a SharedArrayBuffer or any
 * ArrayBuffer view (Uint8Array, Node Buffer, DataView, other typed arrays: their bytes in
 * memory order). Anything else is a TypeError.
 */
export function toBytes(input) {
  if (input instanceof Uint8Array) return input;
  if (typeof input === "string") return encoder.encode(input);
  if (ArrayBuffer.isView(input)) {
    return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  }
  if (
    input instanceof ArrayBuffer ||
    (typeof SharedArrayBuffer !== "undefined" && input instanceof SharedArrayBuffer)
  ) {
    return new Uint8Array(input);
  }
  throw new TypeError(
    "arborhash: input must be a string, an ArrayBuffer or an ArrayBuffer view, not " +
      (input === null ? "null" : typeof input),
  );
}

/**
 * Puts a string input straight into the I/O buffer as UTF-8 (no intermediate array) and returns
 * its length in bytes, or -1 if it might not fit (more than IO_LEN / 3 UTF-16 units) or is not
 * a string.
 */
export function stringToIo(input) {
  if (typeof input !== "string" || input.length > IO_LEN / 3) return -1;
  return encoder.encodeInto(input, bytes().subarray(io, io + IO_LEN)).written;
}

/** Adds `data` (a Uint8Array) to the hasher `handle`, copied in pieces of at most IO_LEN. */
export function feed(handle, data) {
  for (let at = 0; at < data.length; at += IO_LEN) {
    const piece = data.subarray(at, at + IO_LEN);
    bytes().set(piece, io);
    wasm.update(handle, io, piece.length);
  }
}

/** Copies `len` bytes at `ptr` of wasm memory out into a new Uint8Array. */
export function copyOut(ptr, len) {
  return bytes().slice(ptr, ptr + len);
}

const registry =
  typeof FinalizationRegistry === "undefined"
    ? null
    : new FinalizationRegistry((handle) => wasm.drop_state(handle));

/** Frees `handle` when `owner` is garbage-collected. */
export function track(owner, handle) {
  registry?.register(owner, handle, owner);
}

/** Stops tracking `owner` (before its handle is freed explicitly or replaced). */
export function untrack(owner) {
  registry?.unregister(owner);
}
