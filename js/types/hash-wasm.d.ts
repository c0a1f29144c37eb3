export type IDataType = string | ArrayBufferView;
export interface IHasher {
  init: () => IHasher;
  update: (data: IDataType) => IHasher;
  digest: {
    (outputType: "binary"): Uint8Array;
    (outputType?: "hex"): string;
  };
  save: () => Uint8Array;
  load: (state: Uint8Array) => IHasher;
  blockSize: number;
  digestSize: number;
}
export function blake3(data: IDataType, bits?: number, key?: IDataType | null): Promise<string>;
export function createBLAKE3(bits?: number, key?: IDataType | null): Promise<IHasher>;
export function blake2b(data: IDataType, bits?: number, key?: IDataType | null): Promise<string>;
export function createBLAKE2b(bits?: number, key?: IDataType | null): Promise<IHasher>;
export function blake2s(data: IDataType, bits?: number, key?: IDataType | null): Promise<string>;
export function createBLAKE2s(bits?: number, key?: IDataType | null): Promise<IHasher>;
