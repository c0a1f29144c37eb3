// The Node worker_threads worker of arborhash/parallel.
import { parentPort } from "node:worker_threads";
import { handle } from "./worker-core.js";

parentPort.on("message", (msg) => {
  const reply = handle(msg);
  parentPort.postMessage(reply, reply.cv ? [reply.cv.buffer] : []);
});
