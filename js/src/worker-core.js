// What a hashing worker does with one message: the chaining value of one BLAKE3 subtree.
import { bytes, copyOut, scratch, wasm } from "./wasm.js";

export function handle({ id, mode, key, offset, data }) {
  const ptr = wasm.alloc(data.length);
  if (ptr === 0) return { id, error: "arborhash worker: out of wasm memory" };
  try {
    bytes().set(data, ptr);
    if (key) bytes().set(key, scratch);
    if (wasm.b3_subtree(mode, scratch, offset, ptr, data.length, scratch + 64) !== 0) {
      return { id, error: `arborhash worker: no subtree of ${data.length} bytes at ${offset}` };
    }
    return { id, cv: copyOut(scratch + 64, 32) };
  } finally {
    wasm.free(ptr, data.length);
  }
}
