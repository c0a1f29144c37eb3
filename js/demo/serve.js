// A static server for the demo page on 127.0.0.1: the package's directory (js/), and generated
// files under /demo/files/ (a sample, its outboard, a tampered copy, and a manifest with the
// sample's hash). `node js/demo/serve.js [PORT]` makes the files with arborhash/bao and prints
// the page's address; the browser test passes files made by `arbor bao`.
import { createReadStream, statSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
};

// Every response makes the page cross-origin isolated, so that arborhash/parallel may use
// module workers (SharedArrayBuffer-era browsers allow them only there).
const isolation = {
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-embedder-policy": "require-corp",
};

/** Serves `root` and `files` (a Map from a path such as "/demo/files/x" to bytes) on
 * 127.0.0.1; resolves to the server once it listens (port 0: any free port). */
export function serve(files, port = 0) {
  const server = createServer((request, response) => {
    let path;
    try {
      path = decodeURIComponent(new URL(request.url, "http://127.0.0.1").pathname);
    } catch {
      response.writeHead(400, { ...isolation, "content-type": "text/plain" });
      return response.end("bad request");
    }
    const generated = files.get(path);
    if (generated) {
      response.writeHead(200, {
        ...isolation,
        "content-type": types[extname(path)] ?? "application/octet-stream",
        "content-length": generated.length,
      });
      // In pieces, as a network delivers them.
      let at = 0;
      const pump = () => {
        while (at < generated.length) {
          const piece = generated.subarray(at, at + (256 << 10));
          at += piece.length;
          if (!response.write(piece)) return response.once("drain", pump);
        }
        response.end();
      };
      return pump();
    }
    const file = normalize(join(root, path.endsWith("/") ? `${path}index.html` : path));
    let size;
    try {
      if (!file.startsWith(root + sep)) throw new Error("outside");
      size = statSync(file).isFile() ? statSync(file).size : undefined;
    } catch {
      size = undefined;
    }
    if (size === undefined) {
      response.writeHead(404, { ...isolation, "content-type": "text/plain" });
      return response.end("not found");
    }
    response.writeHead(200, {
      ...isolation,
      "content-type": types[extname(file)] ?? "application/octet-stream",
      "content-length": size,
    });
    createReadStream(file).pipe(response);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

/** The demo's files for `content`: the sample, its outboard, the copy with the byte at
 * `tamperAt` changed, and the manifest. */
export function demoFiles(content, outboard, hashHex, groupLog, tamperAt) {
  const tampered = content.slice();
  tampered[tamperAt] ^= 0x01;
  const manifest = JSON.stringify({ hash: hashHex, groupLog, length: content.length });
  return new Map([
    ["/demo/files/sample.bin", content],
    ["/demo/files/sample.bin.obao", outboard],
    ["/demo/files/sample.tampered.bin", tampered],
    ["/demo/files/manifest.json", new TextEncoder().encode(manifest)],
  ]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const bao = await import("../src/bao.js");
  const groupLog = 4;
  const content = new Uint8Array(8 << 20).map((_, i) => (i * 7 + (i >> 13)) & 0xff);
  const { hash, encoding } = bao.outboard(content, { groupLog });
  const hashHex = Buffer.from(hash).toString("hex");
  const server = await serve(
    demoFiles(content, encoding, hashHex, groupLog, 5_000_000),
    Number(process.argv[2] ?? 8080),
  );
  console.log(`demo: http://127.0.0.1:${server.address().port}/demo/ (Ctrl-C stops it)`);
}
