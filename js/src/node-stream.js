// A Node Transform stream that passes its chunks through unchanged and hashes them.
import { Transform } from "node:stream";

/**
 * `new HashingTransform(hasher, options)`: data written comes out unchanged; once the input
 * ends, `digest` holds `hasher.digest()` and the stream emits `"digest"` with it (before
 * `"end"`). `hasher` is any object with `update` and `digest`; `options` go to `Transform`.
 */
export class HashingTransform extends Transform {
  constructor(hasher, options) {
    super(options);
    this.hasher = hasher;
    this.digest = undefined;
  }

  _transform(chunk, encoding, callback) {
    try {
      this.hasher.update(typeof chunk === "string" ? Buffer.from(chunk, encoding) : chunk);
    } catch (error) {
      callback(error);
      return;
    }
    callback(null, chunk);
  }

  _flush(callback) {
    try {
      this.digest = this.hasher.digest();
    } catch (error) {
      callback(error);
      return;
    }
    this.emit("digest", this.digest);
    callback();
  }
}
