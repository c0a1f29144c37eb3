// A bundler takes the package without a plugin: esbuild bundles every browser entry point for
// the browser platform (the wasm is embedded, `arborhash/parallel` resolves to its browser
// file), and the bundle, run as a module, hashes as the package does.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import { build } from "esbuild";
import * as ah from "../src/index.js";

test("esbuild bundles the browser entry points, and the bundle hashes correctly", async () => {
  const dir = mkdtempSync(join(tmpdir(), "arborhash-bundle-"));
  try {
    const entry = join(import.meta.dirname, "bundle-entry.js");
    writeFileSync(
      entry,
      [
        'import { blake3Hex, blake2b, toHex } from "arborhash";',
        'import { blake2s } from "arborhash/hash-wasm";',
        'import { blake3 } from "arborhash/noble";',
        'import { hashParallel } from "arborhash/parallel";',
        "export const results = async () => [blake3Hex('page'), toHex(blake2b('page')),",
        "  await blake2s('page'), toHex(blake3(new Uint8Array(3))), toHex(await hashParallel('page'))];",
        "",
      ].join("\n"),
    );
    const out = join(dir, "bundle.mjs");
    try {
      await build({ entryPoints: [entry], bundle: true, platform: "browser", format: "esm", outfile: out, logLevel: "error" });
    } finally {
      rmSync(entry);
    }
    const { results } = await import(pathToFileURL(out).href);
    assert.deepEqual(await results(), [
      ah.blake3Hex("page"),
      ah.toHex(ah.blake2b("page")),
      ah.toHex(ah.blake2s("page")),
      ah.toHex(ah.blake3(new Uint8Array(3))),
      ah.blake3Hex("page"),
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
