// BLAKE3 of a large input on worker threads: the input is cut into equal subtrees (a power of
// two of chunks each, the last one shorter), workers hash them to chaining values with
// `b3_subtree`, and this thread merges the values into the root with `b3_merge`, as the
// BLAKE3 tree does, so the result equals one thread's.
import { blake3, contextKey, toBytes } from "./index.js";
import { bytes, copyOut, scratch, wasm } from "./wasm.js";

/** Below this many bytes one thread is faster (see docs/js.md for how it was measured). */
export const DEFAULT_THRESHOLD = 4 << 20;
const MIN_PIECE = 1 << 18;

/** The subtree length for `len` bytes over `workers` threads: each has a few pieces to take. */
export function pieceLength(len, workers) {
  let piece = MIN_PIECE;
  while (piece * 2 <= len / (2 * workers)) piece *= 2;
  return piece;
}

// The key (mode 1) or context key (mode 2) bytes the workers need, as for `blake3`.
function modeOf(options) {
  if (options.key !== undefined) {
    const key = toBytes(options.key);
    if (key.length !== 32) throw new RangeError(`arborhash: a BLAKE3 key is 32 bytes, not ${key.length}`);
    return [1, key.slice()];
  }
  if (options.context !== undefined) {
    return [2, contextKey(options.context)];
  }
  return [0, null];
}

// Merges the chaining values of consecutive equal subtrees; `root` gives `length` bytes of the
// root's output from `seek` instead of a chaining value.
function merge(cvs, mode, key, root, length, seek) {
  if (cvs.length === 1) return cvs[0];
  let left = 1;
  while (left * 2 < cvs.length) left *= 2;
  const l = merge(cvs.slice(0, left), mode, key, false);
  const r = merge(cvs.slice(left), mode, key, false);
  const mem = bytes();
  // The last 160 bytes of the scratch buffer, which the own API leaves alone.
  const keyPtr = scratch + 320;
  const cvsPtr = scratch + 352;
  const out = scratch + 416;
  if (key) mem.set(key, keyPtr);
  mem.set(l, cvsPtr);
  mem.set(r, cvsPtr + 32);
  if (!root) {
    wasm.b3_merge(mode, keyPtr, cvsPtr, 0, out, 32, 0);
    return copyOut(out, 32);
  }
  const result = new Uint8Array(length);
  for (let at = 0; at < length; at += 256) {
    const n = Math.min(256, length - at);
    if (key) bytes().set(key, keyPtr);
    bytes().set(l, cvsPtr);
    bytes().set(r, cvsPtr + 32);
    wasm.b3_merge(mode, keyPtr, cvsPtr, 1, out, n, seek + at);
    result.set(bytes().subarray(out, out + n), at);
  }
  return result;
}

/**
 * A `hashParallel(input, options)` over a pool of workers made by `spawn()` (an object with
 * `post(message, transfer)`, `onMessage(callback)`, `onError(callback)`, `unref()`), at most `limit()` of them.
 */
export function makeParallel(spawn, limit, available) {
  const idle = [];
  let made = 0;
  const waiting = [];
  let nextId = 1;

  function take() {
    if (idle.length) return Promise.resolve(idle.pop());
    if (made < limit()) {
      made++;
      const w = spawn();
      w.job = null;
      w.onMessage((msg) => {
        const job = w.job;
        w.job = null;
        give(w);
        if (msg.error) job.reject(new Error(msg.error));
        else job.resolve(new Uint8Array(msg.cv));
      });
      // A worker that dies fails its job and leaves the pool, which makes another when needed.
      w.onError((error) => {
        made--;
        w.job?.reject(error);
        w.job = null;
      });
      return Promise.resolve(w);
    }
    return new Promise((resolve) => waiting.push(resolve));
  }

  function give(w) {
    const next = waiting.shift();
    if (next) next(w);
    else {
      idle.push(w);
      w.unref();
    }
  }

  async function subtree(mode, key, offset, piece) {
    const w = await take();
    const id = nextId++;
    // A view of shared memory is passed as is; other input is copied into its own buffer,
    // which is then moved to the worker.
    const shared =
      typeof SharedArrayBuffer !== "undefined" && piece.buffer instanceof SharedArrayBuffer;
    const data = shared ? piece : piece.slice();
    return new Promise((resolve, reject) => {
      w.job = { resolve, reject };
      w.ref?.();
      w.post({ id, mode, key, offset, data }, shared ? [] : [data.buffer]);
    });
  }

  /**
   * BLAKE3 of `input` (options as for `blake3`, plus `workers`: the most threads, 0 or 1 for
   * none, and `threshold`: the input length from which workers are used), as a promise.
   * @param {any} input
   * @param {any} [options]
   */
  return async function hashParallel(input, options = {}) {
    const { workers = limit(), threshold = DEFAULT_THRESHOLD, ...rest } = options;
    if (!Number.isSafeInteger(workers) || workers < 0) {
      throw new RangeError(`arborhash: workers must be a non-negative integer, not ${workers}`);
    }
    if (!Number.isSafeInteger(threshold) || threshold < 0) {
      throw new RangeError(`arborhash: threshold must be a non-negative integer, not ${threshold}`);
    }
    const data = toBytes(input);
    const n = Math.min(workers, limit());
    if (n < 2 || data.length < threshold || !available()) return blake3(data, rest);
    const { length = 32, seek = 0 } = rest;
    blake3(new Uint8Array(0), rest); // the options' checks, before any work is sent
    const piece = pieceLength(data.length, n);
    if (data.length <= piece) return blake3(data, rest);
    const [mode, key] = modeOf(rest);
    const jobs = [];
    for (let at = 0; at < data.length; at += piece) {
      jobs.push(subtree(mode, key, at, data.subarray(at, at + piece)));
    }
    const cvs = await Promise.all(jobs);
    return merge(cvs, mode, key, true, length, seek);
  };
}
