// arborhash/parallel in a browser: BLAKE3 of large inputs on module workers, used only where the
// page is cross-origin isolated (elsewhere this hashes on the calling thread, same result).
import { makeParallel } from "./parallel-core.js";

export { DEFAULT_THRESHOLD } from "./parallel-core.js";

/** The default number of threads, this one included: the machine's parallelism, at most 8. */
export const defaultWorkers = () => Math.min(globalThis.navigator?.hardwareConcurrency ?? 1, 8);

function spawn() {
  const w = new Worker(new URL("./worker-browser.js", import.meta.url), { type: "module" });
  /** @type {(data: any) => void} */
  let handler = () => {};
  w.onmessage = (event) => handler(event.data);
  return {
    post: (msg, transfer) => w.postMessage(msg, transfer),
    onMessage: (f) => (handler = f),
    onError: (f) => w.addEventListener("error", (event) => f(new Error(event.message))),
    unref: () => {},
  };
}

export const hashParallel = makeParallel(
  spawn,
  defaultWorkers,
  () => globalThis.crossOriginIsolated === true && typeof Worker !== "undefined",
);
