/// <reference types="node" />
import { Transform } from "node:stream";

export type HashInput = Uint8Array | ArrayBuffer | SharedArrayBuffer | ArrayLike<number> | string;
export interface IBaseHashOptions {
  length?: number;
}
export const defaultHashLength: number;
export const maxHashBytes: bigint;
export function inputToArray(input: Uint8Array | ArrayBuffer | SharedArrayBuffer | ArrayLike<number>): Uint8Array;
export function hash(input: HashInput, options?: IBaseHashOptions): Buffer;
export function deriveKey(context: string, material: HashInput, options?: IBaseHashOptions): Buffer;
export function keyedHash(key: Buffer, input: HashInput, options?: IBaseHashOptions): Buffer;

export class NodeHashReader {
  position: bigint;
  readInto(target: Uint8Array): void;
  read(bytes: number): Buffer;
  toString(encoding?: BufferEncoding): string;
  toBuffer(): Buffer;
  dispose(): void;
}

export class NodeHash extends Transform {
  update(data: HashInput, encoding?: BufferEncoding): this;
  digest(options?: IBaseHashOptions & { dispose?: boolean }): Buffer;
  digest(encoding: undefined, options: IBaseHashOptions & { dispose?: boolean }): Buffer;
  digest(encoding: BufferEncoding, options?: IBaseHashOptions & { dispose?: boolean }): string;
  reader(options?: { dispose?: boolean }): NodeHashReader;
  dispose(): void;
}

export function createHash(): NodeHash;
export function createKeyed(key: Buffer): NodeHash;
export function createDeriveKey(context: string): NodeHash;
export function using<T, D extends { dispose(): void }>(disposable: D, fn: (d: D) => T): T;
