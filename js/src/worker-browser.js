// The browser (module) worker of arborhash/parallel.
import { handle } from "./worker-core.js";

self.onmessage = (event) => {
  const reply = handle(event.data);
  self.postMessage(reply, reply.cv ? [reply.cv.buffer] : []);
};
