// The browser (module) worker of arborhash/parallel. The handler is set before the wasm module
// loads (a top-level await): a message that arrives while none is set would be lost.
const ready = import("./worker-core.js");

/** @type {any} The worker's global scope (not a Window). */
const scope = self;
scope.onmessage = async (event) => {
  const { handle } = await ready;
  const reply = handle(event.data);
  scope.postMessage(reply, reply.cv ? [reply.cv.buffer] : []);
};
