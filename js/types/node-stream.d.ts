/// <reference types="node" />
import { Transform, TransformOptions } from "node:stream";
import type { UpdateDigest } from "./index.js";

export class HashingTransform extends Transform {
  constructor(hasher: UpdateDigest, options?: TransformOptions);
  readonly hasher: UpdateDigest;
  /** Set once the input has ended. */
  digest: Uint8Array | undefined;
}
