// Every JavaScript block of the README and of docs/JAVASCRIPT.md runs as shown, importing the
// package built in wasm/pkg.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PACKAGE = pathToFileURL(join(ROOT, "wasm/pkg/node/salpakan.js")).href;
const DOCS = ["README.md", "docs/JAVASCRIPT.md"];

const blocks = DOCS.flatMap((doc) =>
  [...readFileSync(join(ROOT, doc), "utf8").matchAll(/```js\n([\s\S]*?)```/g)].map((m, k) => ({ doc, k, code: m[1] })));

test("the docs have JavaScript blocks", () => assert.ok(blocks.length >= 3));

const work = mkdtempSync(join(tmpdir(), "salpakan-docs-"));
for (const { doc, k, code } of blocks) {
  test(`${doc} block ${k + 1} runs`, async () => {
    const file = join(work, `block-${doc.replace(/\W/g, "_")}-${k}.mjs`);
    writeFileSync(file, code.replaceAll('from "salpakan"', `from "${PACKAGE}"`));
    await import(pathToFileURL(file).href);
  });
}
