// BLAKE3 of a large input on worker threads: the input is cut into equal subtrees (a power of
// two of chunks each, the last one shorter), workers and this thread hash them to chaining
// values with `b3_subtree`, and this thread merges the values into the root with `b3_merge`, as
// the BLAKE3 tree does, so the result equals one thread's.
import { blake3, contextKey, toBytes } from "./index.js";
import { bytes, copyOut, scratch, wasm } from "./wasm.js";
import { handle } from "./worker-core.js";

/** Below this many bytes one thread is faster (see docs/js.md for how it was measured). */
export const DEFAULT_THRESHOLD = 2 << 20;
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
 * `post(message, transfer)`, `onMessage(callback)`, `onError(callback)`, `unref()`), with at
 * most `limit()` threads: this one and `limit() - 1` workers.
 */
export function makeParallel(spawn, limit, available) {
  const pool = [];
  let nextId = 1;

  // A worker answers its messages in order; each pending job waits under its id.
  function worker(i) {
    while (pool.length <= i) {
      const w = spawn();
      const pending = new Map();
      w.pending = pending;
      w.onMessage((msg) => {
        const job = pending.get(msg.id);
        pending.delete(msg.id);
        if (pending.size === 0) w.unref();
        if (msg.error) job.reject(new Error(msg.error));
        else job.resolve(new Uint8Array(msg.cv));
      });
      // A worker that dies fails its jobs and leaves the pool, which makes another when needed.
      w.onError((error) => {
        const at = pool.indexOf(w);
        if (at >= 0) pool.splice(at, 1);
        for (const job of pending.values()) job.reject(error);
        pending.clear();
      });
      pool.push(w);
    }
    return pool[i];
  }

  function subtree(w, mode, key, offset, piece) {
    const id = nextId++;
    // A view of shared memory is passed as is; other input is copied into its own buffer,
    // which is then moved to the worker.
    const shared =
      typeof SharedArrayBuffer !== "undefined" && piece.buffer instanceof SharedArrayBuffer;
    const data = shared ? piece : piece.slice();
    return new Promise((resolve, reject) => {
      w.pending.set(id, { resolve, reject });
      w.ref?.();
      w.post({ id, mode, key, offset, data }, shared ? [] : [data.buffer]);
    });
  }

  /**
   * BLAKE3 of `input` (options as for `blake3`, plus `workers`: the most threads, this one
   * included, 0 or 1 for this one only, and `threshold`: the input length from which workers
   * are used), as a promise.
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
    // Piece i goes to thread i % n, this thread being 0: the workers' pieces are sent first,
    // then this thread hashes its own in place while they work.
    const cvs = [];
    const own = [];
    for (let i = 0, at = 0; at < data.length; i++, at += piece) {
      const part = data.subarray(at, at + piece);
      if (i % n === 0) own.push([i, at, part]);
      else cvs[i] = subtree(worker((i % n) - 1), mode, key, at, part);
    }
    for (const [i, offset, part] of own) {
      const reply = handle({ id: 0, mode, key, offset, data: part });
      if (reply.error) {
        await Promise.allSettled(cvs); // the workers' jobs end before the error is given
        throw new Error(reply.error);
      }
      cvs[i] = reply.cv;
    }
    return merge(await Promise.all(cvs), mode, key, true, length, seek);
  };
}
