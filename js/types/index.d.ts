/** Input to every hash: a string (hashed as UTF-8), an ArrayBuffer or any ArrayBuffer view. */
export type Input = string | ArrayBuffer | SharedArrayBuffer | ArrayBufferView;

/** Which wasm build is loaded. */
export const build: "simd" | "portable";
/** Where extended output ends at the latest (seek + length): 2^53 - 1. */
export const MAX_OUTPUT: number;
export function toBytes(input: Input): Uint8Array;
export function toHex(data: Uint8Array): string;

export interface Blake3Options {
  /** Bytes of output (default 32). */
  length?: number;
  /** Where in the output stream to start (default 0). */
  seek?: number;
  /** A 32-byte key: the keyed hash. */
  key?: Input;
  /** A derive-key context: the input is the key material. */
  context?: string | ArrayBufferView;
}
export function blake3(input: Input, options?: Blake3Options): Uint8Array;
export function blake3Hex(input: Input, options?: Blake3Options): string;
export function keyedHash(key: Input, input: Input, options?: { length?: number; seek?: number }): Uint8Array;
/** The 32-byte BLAKE3 context key of a derive-key context. */
export function contextKey(context: string | ArrayBufferView): Uint8Array;
export function deriveKey(context: string | ArrayBufferView, material: Input, options?: { length?: number; seek?: number }): Uint8Array;

export class Blake3Hasher {
  constructor(options?: { key?: Input; context?: string | ArrayBufferView });
  update(input: Input): this;
  digest(options?: { length?: number; seek?: number }): Uint8Array;
  digestHex(options?: { length?: number; seek?: number }): string;
  reader(): Blake3Reader;
  save(): Uint8Array;
  load(state: Uint8Array): this;
  reset(): this;
  clone(): Blake3Hasher;
  dispose(): void;
}

export class Blake3Reader {
  position: number;
  read(length: number): Uint8Array;
  readInto(target: Uint8Array): void;
  dispose(): void;
}

export interface Blake2Options {
  length?: number;
  key?: Input;
  salt?: Input;
  personal?: Input;
  fanout?: number;
  maxDepth?: number;
  maxLeafLength?: number;
  nodeOffset?: number;
  nodeDepth?: number;
  innerLength?: number;
  lastNode?: boolean;
}
export interface Blake2pOptions {
  length?: number;
  key?: Input;
}
export function blake2b(input: Input, options?: Blake2Options): Uint8Array;
export function blake2s(input: Input, options?: Blake2Options): Uint8Array;
export function blake2bp(input: Input, options?: Blake2pOptions): Uint8Array;
export function blake2sp(input: Input, options?: Blake2pOptions): Uint8Array;

export type Blake2Variant = "blake2b" | "blake2s" | "blake2bp" | "blake2sp";
export class Blake2Hasher {
  constructor(variant: Blake2Variant, options?: Blake2Options);
  readonly variant: Blake2Variant;
  update(input: Input): this;
  digest(): Uint8Array;
  digestHex(): string;
  save(): Uint8Array;
  load(state: Uint8Array): this;
  clone(): Blake2Hasher;
  dispose(): void;
}

/** Anything with `update` and `digest`, as the stream wrappers take. */
export interface UpdateDigest {
  update(input: Input): unknown;
  digest(): Uint8Array;
}

export class HashingTransformStream extends TransformStream<Uint8Array | string, Uint8Array | string> {
  constructor(hasher: UpdateDigest);
  readonly digest: Promise<Uint8Array>;
}
