// Type-checked (tsc --noEmit, scripts/test-js.sh), never run: every entry point used as documented.
import { Blake2Hasher, Blake3Hasher, HashingTransformStream, blake2b, blake3, blake3Hex, build, deriveKey, keyedHash } from "arborhash";
import * as b3 from "arborhash/blake3-wasm";
import * as hw from "arborhash/hash-wasm";
import * as noble from "arborhash/noble";
import { HashingTransform } from "arborhash/node-stream";

const bytes: Uint8Array = blake3("abc", { length: 64, seek: 3 });
const hex: string = blake3Hex(new Uint8Array(4));
keyedHash(new Uint8Array(32), "x");
deriveKey("context", bytes, { length: 16 });
const h = new Blake3Hasher({ key: new Uint8Array(32) }).update("a").update(bytes);
const reader = h.reader();
reader.position = 10;
reader.read(5);
h.load(h.save()).digest({ length: 8 });
blake2b(bytes, { length: 20, salt: "s", personal: "p", fanout: 2, maxDepth: 3, nodeOffset: 1, lastNode: true });
new Blake2Hasher("blake2sp", { key: "k" }).update(bytes).digestHex();
const web: Promise<Uint8Array> = new HashingTransformStream(new Blake3Hasher()).digest;
const node = new HashingTransform(new Blake2Hasher("blake2s"));
const b: Buffer = b3.hash("x", { length: 16 });
const s: string = b3.createHash().update("x").digest("hex");
const big: bigint = b3.createKeyed(Buffer.alloc(32)).reader().position;
async function hashWasm(): Promise<string> {
  const hasher = await hw.createBLAKE2b(256, "key");
  const state: Uint8Array = hasher.update("x").save();
  hasher.load(state);
  return (await hw.blake3("x")) + hasher.digest();
}
const n: Uint8Array = noble.blake3.create({ dkLen: 16 }).update(bytes).xof(10);
noble.blake2s(bytes, { personalization: new Uint8Array(8) });
export { bytes, hex, web, node, b, s, big, hashWasm, n, build };
import { hashParallel } from "arborhash/parallel";
export const parallel: Promise<Uint8Array> = hashParallel(bytes, { workers: 2, threshold: 0, key: new Uint8Array(32) });
