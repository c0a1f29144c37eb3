// Runs a wasm32-wasip1 program (a `cargo test` binary) under Node's WASI, with the arguments
// after its path and the current directory preopened, and exits with its exit code.
import { readFile } from "node:fs/promises";
import { argv, env, exit } from "node:process";
import { WASI } from "node:wasi";

const [program, ...args] = argv.slice(2);
const wasi = new WASI({
  version: "preview1",
  args: [program, ...args],
  env,
  preopens: { ".": "." },
  returnOnExit: true,
});
const module = await WebAssembly.compile(await readFile(program));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
exit(wasi.start(instance));
