// Builds the static page into dist/: the page's files and the npm package's browser entry
// (wasm/pkg/web, made by scripts/build-npm, which this runs when it is missing). No bundler:
// the page is ES modules, the bot runs in a module Web Worker. It also makes what an
// installed page needs: the PNG icons (drawn here, the shapes of src/icons/icon.svg) and the
// service worker's list of files and version (a digest of them all: a changed page is a new
// cache, and an open page reloads into it).
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, deflateSync, gzipSync } from "node:zlib";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const pkg = here("../wasm/pkg/web");
if (!existsSync(pkg)) {
  execFileSync(here("../scripts/build-npm"), { stdio: "inherit" });
}
const dist = here("dist");
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
cpSync(here("src"), dist, { recursive: true });
// The package's code and WebAssembly only: its types, manifest and readme are no page's.
cpSync(pkg, `${dist}/pkg`, { recursive: true, filter: (path) => !/(\.d\.ts|package\.json|README\.md|\.gitignore)$/.test(path) });
for (const size of [192, 512]) writeFileSync(`${dist}/icons/icon-${size}.png`, icon(size));
preloads();
serviceWorker();
const sizes = compressed();
console.log(`built ${dist}: ${sizes.files} files, ${kb(sizes.raw)} kB, ${kb(sizes.gzip)} kB gzipped, ${kb(sizes.brotli)} kB with Brotli`);

// Beside each file that compresses, its gzip and Brotli copies (FILE.gz, FILE.br: the server's
// `--static` sends one to a client that takes it, and spends nothing compressing). The sizes
// of the page: its files, as sent gzipped, and with Brotli (a copy only where it is smaller).
function compressed() {
  const sizes = { files: 0, raw: 0, gzip: 0, brotli: 0 };
  for (const path of listed(dist)) {
    const bytes = readFileSync(`${dist}/${path}`);
    sizes.files += 1;
    sizes.raw += bytes.length;
    let gzip = bytes;
    let brotli = bytes;
    if (/\.(html|js|mjs|css|wasm|svg|webmanifest|json|ts)$/.test(path)) {
      gzip = smaller(bytes, gzipSync(bytes, { level: 9 }));
      brotli = smaller(bytes, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }));
      if (gzip !== bytes) writeFileSync(`${dist}/${path}.gz`, gzip);
      if (brotli !== bytes) writeFileSync(`${dist}/${path}.br`, brotli);
    }
    sizes.gzip += gzip.length;
    sizes.brotli += brotli.length;
  }
  return sizes;
}

// `packed` if it saves at least a tenth of `bytes`, else `bytes`.
function smaller(bytes, packed) {
  return packed.length <= bytes.length * 0.9 ? packed : bytes;
}

function kb(bytes) {
  return (bytes / 1000).toFixed(1);
}

// Every module the page imports, and the engine's WebAssembly, named in the page's head: the
// browser asks for them all at once instead of finding each at the end of the one before (on
// a phone's network each level of imports costs a round trip).
function preloads() {
  const modules = listed(dist).filter((path) => path.endsWith(".js") && !["sw.js", "worker.js", "app.js"].includes(path)).sort();
  const links = [
    ...modules.map((path) => `  <link rel="modulepreload" href="${path}">`),
    '  <link rel="preload" href="pkg/salpakan_core_bg.wasm" as="fetch" type="application/wasm" crossorigin>',
  ].join("\n");
  const page = readFileSync(`${dist}/index.html`, "utf8");
  if (!page.includes("</head>")) throw new Error("index.html has no </head>");
  writeFileSync(`${dist}/index.html`, page.replace("</head>", `${links}\n</head>`));
}

// The service worker with the page's files (every file of dist/, relative to it) and their
// version, put into its text.
function serviceWorker() {
  const files = listed(dist).filter((path) => path !== "sw.js").sort();
  const digest = createHash("sha256");
  for (const path of files) digest.update(path).update(readFileSync(`${dist}/${path}`));
  const version = digest.digest("hex").slice(0, 16);
  const source = readFileSync(`${dist}/sw.js`, "utf8")
    .replace('"__VERSION__"', JSON.stringify(version))
    .replace("[/* __FILES__ */]", JSON.stringify(["./", ...files]));
  writeFileSync(`${dist}/sw.js`, source);
}

// Every file under `dir`, as paths relative to it.
function listed(dir, prefix = "") {
  return readdirSync(dir).flatMap((name) => {
    const path = `${dir}/${name}`;
    return statSync(path).isDirectory() ? listed(path, `${prefix}${name}/`) : [`${prefix}${name}`];
  });
}

// The icon at `size` × `size` pixels as a PNG: a rounded blue square, an ivory piece with a
// dark border, a gold star (icon.svg's shapes, in its 64-unit space), each pixel the average
// of 4 × 4 samples.
function icon(size) {
  const blue = [0x1d, 0x4f, 0x91];
  const ivory = [0xf7, 0xf2, 0xe3];
  const ink = [0x23, 0x30, 0x3c];
  const gold = [0xe0, 0xa5, 0x26];
  const star = [[32, 18], [36.1, 28.4], [47.2, 29.1], [38.6, 36.2], [41.4, 47.1], [32, 41], [22.6, 47.1], [25.4, 36.2], [16.8, 29.1], [27.9, 28.4]];
  const colour = (x, y) => {
    if (!inRoundedRect(x, y, 0, 0, 64, 64, 12)) return null;
    if (insidePolygon(x, y, star)) return edgeDistance(x, y, star) < 0.6 ? ink : gold;
    if (edgeDistance(x, y, star) < 0.6) return ink;
    if (inRoundedRect(x, y, 15, 13, 49, 51, 6)) return ivory;
    if (inRoundedRect(x, y, 13, 11, 51, 53, 8)) return ink;
    return blue;
  };
  const rows = [];
  const n = 4;
  for (let py = 0; py < size; py++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let px = 0; px < size; px++) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const c = colour(((px + (sx + 0.5) / n) * 64) / size, ((py + (sy + 0.5) / n) * 64) / size);
          if (!c) continue;
          sum[0] += c[0];
          sum[1] += c[1];
          sum[2] += c[2];
          sum[3] += 255;
        }
      }
      const covered = sum[3] / 255;
      for (let i = 0; i < 3; i++) row[1 + px * 4 + i] = covered ? Math.round(sum[i] / covered) : 0;
      row[1 + px * 4 + 3] = Math.round(sum[3] / (n * n));
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter method, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function inRoundedRect(x, y, x0, y0, x1, y1, r) {
  if (x < x0 || x > x1 || y < y0 || y > y1) return false;
  const dx = Math.max(x0 + r - x, 0, x - (x1 - r));
  const dy = Math.max(y0 + r - y, 0, y - (y1 - r));
  return dx * dx + dy * dy <= r * r;
}

function insidePolygon(x, y, points) {
  let inside = false;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const [xi, yi] = points[i];
    const [xj, yj] = points[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function edgeDistance(x, y, points) {
  let best = Infinity;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const [ax, ay] = points[j];
    const [bx, by] = points[i];
    const t = Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)));
    best = Math.min(best, Math.hypot(x - ax - t * (bx - ax), y - ay - t * (by - ay)));
  }
  return best;
}

// A PNG chunk: length, type, data, CRC-32 of type and data.
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
