// A Web TransformStream that passes its chunks through unchanged and hashes them.

/**
 * `new HashingTransformStream(hasher)`: chunks (bytes or strings) written to `writable` come out
 * of `readable` unchanged; `digest` is a promise of `hasher.digest()` once the input ends (rejected if a chunk is
 * not bytes or a string).
 * `hasher` is any object with `update` and `digest` (a `Blake3Hasher` or `Blake2Hasher`).
 */
export class HashingTransformStream extends TransformStream {
  constructor(hasher) {
    let resolve;
    let reject;
    const digest = new Promise((res, rej) => {
      resolve = res;
      reject = rej;
    });
    super({
      transform(chunk, controller) {
        try {
          hasher.update(chunk);
        } catch (error) {
          reject(error);
          throw error;
        }
        controller.enqueue(chunk);
      },
      flush() {
        resolve(hasher.digest());
      },
    });
    // A digest nobody awaits must not become an unhandled rejection.
    digest.catch(() => {});
    this.digest = digest;
  }
}
