// Builds the static page into dist/: the page's files and the npm package's browser entry
// (wasm/pkg/web, made by scripts/build-npm, which this runs when it is missing). No bundler:
// the page is ES modules, the bot runs in a module Web Worker.
import { cpSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const pkg = here("../wasm/pkg/web");
if (!existsSync(pkg)) {
  execFileSync(here("../scripts/build-npm"), { stdio: "inherit" });
}
const dist = here("dist");
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
cpSync(here("src"), dist, { recursive: true });
cpSync(pkg, `${dist}/pkg`, { recursive: true });
console.log(`built ${dist}`);
