import type { Blake3Options, Input } from "./index.js";

/** The input length from which workers are used unless `threshold` says otherwise. */
export const DEFAULT_THRESHOLD: number;
/** The default number of threads (`workers`), the calling one included. */
export function defaultWorkers(): number;
/**
 * BLAKE3 of `input` on worker threads (Node worker_threads; in a browser, module workers where
 * the page is cross-origin isolated, else the calling thread): the same bytes as `blake3`.
 */
export function hashParallel(
  input: Input,
  options?: Blake3Options & { workers?: number; threshold?: number },
): Promise<Uint8Array>;
