// The browser (module) worker of arborhash/parallel.
import { handle } from "./worker-core.js";

/** @type {any} The worker's global scope (not a Window). */
const scope = self;
scope.onmessage = (event) => {
  const reply = handle(event.data);
  scope.postMessage(reply, reply.cv ? [reply.cv.buffer] : []);
};
