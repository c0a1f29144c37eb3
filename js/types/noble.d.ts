export interface NobleHash {
  readonly blockLen: number;
  outputLen: number;
  readonly canXOF: boolean;
  finished: boolean;
  destroyed: boolean;
  update(data: Uint8Array): this;
  digest(): Uint8Array;
  digestInto(out: Uint8Array): void;
  destroy(): void;
  clone(): this;
}
export interface NobleXof extends NobleHash {
  xof(bytes: number): Uint8Array;
  xofInto(out: Uint8Array): Uint8Array;
}
export interface Blake3Opts {
  dkLen?: number;
  key?: Uint8Array;
  context?: Uint8Array;
}
export interface Blake2Opts {
  dkLen?: number;
  key?: Uint8Array;
  salt?: Uint8Array;
  personalization?: Uint8Array;
}
export interface Hasher<O, H> {
  (msg: Uint8Array, opts?: O): Uint8Array;
  readonly outputLen: number;
  readonly blockLen: number;
  readonly canXOF: boolean;
  create(opts?: O): H;
}
export const blake3: Hasher<Blake3Opts, NobleXof>;
export const blake2b: Hasher<Blake2Opts, NobleHash>;
export const blake2s: Hasher<Blake2Opts, NobleHash>;
