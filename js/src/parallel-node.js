// arborhash/parallel in Node: BLAKE3 of large inputs on worker_threads.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { makeParallel } from "./parallel-core.js";

export { DEFAULT_THRESHOLD } from "./parallel-core.js";

/** The default number of threads, this one included: the machine's parallelism, at most 8. */
export const defaultWorkers = () => Math.min(availableParallelism(), 8);

function spawn() {
  const w = new Worker(new URL("./worker-node.js", import.meta.url), {
    // Not the parent's flags (such as --input-type), which a worker file may not accept.
    execArgv: [],
  });
  return {
    post: (msg, transfer) => w.postMessage(msg, transfer),
    onMessage: (f) => w.on("message", f),
    onError: (f) => w.on("error", f),
    unref: () => w.unref(),
    ref: () => w.ref(),
  };
}

export const hashParallel = makeParallel(spawn, defaultWorkers, () => true);
