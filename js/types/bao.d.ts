// Types of `arborhash/bao` (js/src/bao.js).

/** Bytes in: a Uint8Array (or Node Buffer), another ArrayBuffer view, an ArrayBuffer, or a
 * string (as UTF-8). */
export type Input = Uint8Array | ArrayBufferView | ArrayBuffer | string;
/** A BLAKE3 hash: 32 bytes or 64 hex digits. */
export type HashInput = Uint8Array | ArrayBufferView | ArrayBuffer | string;

export interface GroupOptions {
  /** Leaves of 2^groupLog KiB (0 to 16; default 0, standard Bao; iroh uses 4). The same value
   * must be used to encode and to decode. */
  groupLog?: number;
}

export interface Encoded {
  /** The BLAKE3 hash of the content (the same for every groupLog). */
  hash: Uint8Array;
  /** The combined encoding or the outboard. */
  encoding: Uint8Array;
}

/** Which build of the WebAssembly module is loaded. */
export const build: "simd" | "portable";

export type BaoErrorKind = "truncated" | "mismatch" | "trailing-data" | "length-overflow";

/** A rejected encoding. */
export class BaoError extends Error {
  readonly name: "BaoError";
  readonly kind: BaoErrorKind;
  /** For "truncated" and "mismatch": the content offset of the first byte under the node that
   * failed or was incomplete. Every content byte before it was verified. */
  readonly offset?: number;
  /** On an error from `Decoder.push`/`pushOutboard`: the bytes that call verified before it. */
  verified?: Uint8Array;
}

/** An encoder fed in pieces. */
export class Encoder {
  constructor(options?: GroupOptions & { outboard?: boolean });
  update(data: Input): this;
  /** Ends the encoding (the encoder cannot be used after). */
  finalize(): Encoded;
}

export function encode(data: Input, options?: GroupOptions): Encoded;
export function outboard(data: Input, options?: GroupOptions): Encoded;

/** The slice of `count` bytes from `start` out of a combined encoding, or out of content with
 * its outboard given as `options.outboard`. */
export function slice(
  encoding: Input,
  start: number,
  count: number,
  options?: GroupOptions & { outboard?: Input },
): Uint8Array;

/** An incremental verifying decoder that returns only verified content bytes. */
export class Decoder {
  constructor(
    hash: HashInput,
    options?: GroupOptions & { outboard?: boolean; slice?: { start: number; count: number } },
  );
  /** The next bytes of the encoding, the slice, or (outboard) the content. */
  push(data: Input): Uint8Array;
  /** The next bytes of the outboard. */
  pushOutboard(data: Input): Uint8Array;
  /** The input ended: throws if the encoding is incomplete. */
  finish(): void;
}

export function decode(
  encoding: Input,
  hash: HashInput,
  options?: GroupOptions & { outboard?: Input },
): Uint8Array;

export function decodeSlice(
  slice: Input,
  hash: HashInput,
  start: number,
  count: number,
  options?: GroupOptions,
): Uint8Array;

/** A TransformStream from the bytes of a combined encoding, a slice, or (with `outboard`) the
 * content, to verified content; it errors with a BaoError after the bytes verified before. */
export function decodeStream(
  hash: HashInput,
  options?: GroupOptions & {
    outboard?: Input | ReadableStream<Uint8Array>;
    slice?: { start: number; count: number };
  },
): TransformStream<Input, Uint8Array>;
