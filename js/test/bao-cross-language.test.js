// Bao across languages: one input encoded by Rust (`arbor bao`), Go (go/internal/cmd/bao, built
// here) and JavaScript (this package), combined and outboard, with groups of 1 and 16 chunks;
// every encoding must be the same bytes with the same hash, decode with the other two languages,
// and be rejected by them once one byte of it is flipped. C and Python have no Bao.
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import * as bao from "../src/bao.js";
import { arborPath, equal, randomBytes, repo, rng } from "./bao-helpers.js";

const arbor = arborPath();
const dir = mkdtempSync(join(tmpdir(), "arborhash-bao-cross-"));
after(() => rmSync(dir, { recursive: true, force: true }));
// Built from the repository, so the test needs only Go, as scripts/test-go.sh does.
const goBao = join(dir, "bao-go");
execFileSync("go", ["build", "-o", goBao, "./internal/cmd/bao"], { cwd: join(repo, "go") });

const hex = (bytes) => Buffer.from(bytes).toString("hex");

/** Runs a command; returns its exit status and standard output. */
function run(program, args) {
  const result = spawnSync(program, args, { maxBuffer: 1 << 30 });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout };
}

// Each language: `encode(file, content, g, outboard)` gives { hash, encoding } and
// `decode(files, g, hash, outboard)` the verified content, or null when it refuses.
const languages = {
  rust: {
    encode(file, content, g, outboard) {
      const out = `${file}.rust`;
      const args = outboard ? [file, "--outboard", out] : [file, out];
      const gl = ["--group-log", String(g)];
      assert.equal(run(arbor, ["bao", "encode", ...args, ...gl]).status, 0);
      const hash = run(arbor, ["bao", "hash", file]).stdout.toString().trim().split(/\s+/)[0];
      return { hash, encoding: readFileSync(out) };
    },
    decode({ content, encoding, out }, g, hash, outboard) {
      const gl = ["--group-log", String(g)];
      const args = outboard ? [content, out, "--outboard", encoding] : [encoding, out];
      return run(arbor, ["bao", "decode", hash, ...args, ...gl]).status === 0
        ? readFileSync(out)
        : null;
    },
  },
  go: {
    encode(file, content, g, outboard) {
      const out = `${file}.go`;
      const r = run(goBao, [outboard ? "outboard" : "encode", String(g), file, out]);
      assert.equal(r.status, 0);
      return { hash: r.stdout.toString().trim(), encoding: readFileSync(out) };
    },
    decode({ content, encoding, out }, g, hash, outboard) {
      const args = outboard
        ? ["decode-outboard", String(g), hash, content, encoding, out]
        : ["decode", String(g), hash, encoding, out];
      return run(goBao, args).status === 0 ? readFileSync(out) : null;
    },
  },
  js: {
    encode(file, content, g, outboard) {
      const { hash, encoding } = (outboard ? bao.outboard : bao.encode)(content, { groupLog: g });
      return { hash: hex(hash), encoding };
    },
    decode({ content, encoding }, g, hash, outboard) {
      const enc = readFileSync(encoding);
      try {
        return outboard
          ? bao.decode(readFileSync(content), hash, { groupLog: g, outboard: enc })
          : bao.decode(enc, hash, { groupLog: g });
      } catch (error) {
        assert.ok(error instanceof bao.BaoError, String(error));
        return null;
      }
    },
  },
};

/** Lengths across the group boundaries of `g`. */
function lengths(g) {
  const group = 1024 << g;
  return [0, 1, group - 1, group, group + 1, 2 * group + 1, 4 * group, 5 * group + 1000];
}

for (const g of [0, 4]) {
  for (const outboard of [false, true]) {
    describe(`groupLog ${g}, ${outboard ? "outboard" : "combined"}`, () => {
      const next = rng(0xc39 + g);
      for (const len of lengths(g)) {
        test(`length ${len}`, () => {
          const content = randomBytes(next, len);
          const file = join(dir, `in-${g}-${outboard}-${len}`);
          writeFileSync(file, content);
          const made = Object.fromEntries(
            Object.entries(languages).map(([name, l]) => [name, l.encode(file, content, g, outboard)]),
          );
          for (const [name, { hash, encoding }] of Object.entries(made)) {
            assert.equal(hash, made.js.hash, `${name}'s hash`);
            assert.ok(equal(encoding, made.js.encoding), `${name}'s encoding`);
          }
          // The byte flipped: in the middle of a combined encoding; in the content under an
          // outboard one (its tree holds only parents), or its header for empty content.
          const flipAt = Math.floor((outboard && len > 0 ? len : made.js.encoding.length) / 2);
          for (const [maker, { hash, encoding }] of Object.entries(made)) {
            const files = { content: file, encoding: `${file}.${maker}.enc`, out: `${file}.out` };
            writeFileSync(files.encoding, encoding);
            const bad = {
              content: `${file}.${maker}.bad-content`,
              encoding: `${file}.${maker}.bad-enc`,
              out: `${file}.bad-out`,
            };
            const corrupt = Buffer.from(outboard && len > 0 ? content : encoding);
            corrupt[flipAt] ^= 0x10;
            writeFileSync(bad.content, outboard && len > 0 ? corrupt : content);
            writeFileSync(bad.encoding, outboard && len > 0 ? encoding : corrupt);
            for (const [name, l] of Object.entries(languages)) {
              if (name === maker) continue;
              const got = l.decode(files, g, hash, outboard);
              assert.ok(got !== null && equal(got, content), `${maker}'s encoding by ${name}`);
              assert.equal(l.decode(bad, g, hash, outboard), null, `${maker}'s corrupt by ${name}`);
            }
          }
        });
      }
    });
  }
}
