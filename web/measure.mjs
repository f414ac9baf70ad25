// Measures the page as a player's browser gets it from the arbiter server's `--static`: the
// bytes sent, the time until the lobby is ready (cold: a new browser; warm: the installed page
// from its service worker's cache; offline: the network cut), and the service worker's cache.
// Each figure is the median (and range) of several fresh browser contexts, on loopback and on a
// phone's network (150 ms round trips, 1.6 Mbit/s down, as Lighthouse's "slow 4G").
//
//   npm run build && npm run measure              5 runs of each (RUNS to change it)
//
// The server is the release binary (SALPAKAN_SERVER, or built here), on a temporary database.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { launchBrowser, serverBinary, spawnServer } from "./tests/harness.mjs";

process.env.RUST_LOG ??= "warn";
const RUNS = Number(process.env.RUNS ?? 5);
const NETWORKS = {
  loopback: null,
  "slow 4G": { offline: false, latency: 150, downloadThroughput: (1.6e6 / 8) * 0.9, uploadThroughput: (750e3 / 8) * 0.9 },
};

const dataDir = mkdtempSync(join(tmpdir(), "salpakan-measure-"));
const [server, address] = await spawnServer(serverBinary(), "127.0.0.1:0", join(dataDir, "measure.db"));
const browser = await launchBrowser();
const url = `http://${address}/`;

// Milliseconds from the navigation's start until one of `screens` is drawn (the lobby; without
// the server, the setup against the bot here), and the bytes the network carried for it.
async function load(page, screens) {
  await page.goto(url);
  await page.waitForFunction((want) => want.includes(document.body.dataset.screen), screens, { timeout: 60000 });
  return page.evaluate(() => {
    const entries = [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")];
    return { ms: performance.now(), bytes: entries.reduce((sum, e) => sum + (e.transferSize ?? 0), 0) };
  });
}

function summary(values, unit) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const fmt = (v) => (unit === "kB" ? (v / 1000).toFixed(1) : v.toFixed(0));
  return `${fmt(at(0.5))} ${unit} (${fmt(sorted[0])}–${fmt(sorted[sorted.length - 1])})`;
}

try {
  for (const [name, conditions] of Object.entries(NETWORKS)) {
    const cold = [];
    const coldBytes = [];
    const warm = [];
    const offline = [];
    let cacheBytes = 0;
    let cacheFiles = 0;
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Network.enable");
      if (conditions) await cdp.send("Network.emulateNetworkConditions", conditions);
      const first = await load(page, ["lobby"]);
      cold.push(first.ms);
      coldBytes.push(first.bytes);
      // Installed: the service worker has kept the page's files.
      await page.waitForFunction(async () => (await navigator.serviceWorker.ready).active?.state === "activated");
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60000 }).catch(() => page.reload());
      warm.push((await load(page, ["lobby"])).ms);
      const kept = await page.evaluate(async () => {
        let bytes = 0;
        let files = 0;
        for (const key of await caches.keys()) {
          const cache = await caches.open(key);
          for (const request of await cache.keys()) {
            bytes += (await (await cache.match(request)).arrayBuffer()).byteLength;
            files += 1;
          }
        }
        return { bytes, files };
      });
      cacheBytes = kept.bytes;
      cacheFiles = kept.files;
      // The network cut, for the page and its service worker alike.
      await context.setOffline(true);
      if (conditions) await cdp.send("Network.emulateNetworkConditions", { ...conditions, offline: true });
      offline.push((await load(page, ["setup"])).ms);
      await context.close();
    }
    console.log(`${name}: first load ${summary(cold, "ms")}, ${summary(coldBytes, "kB")} sent; installed ${summary(warm, "ms")}; offline ${summary(offline, "ms")}`);
    console.log(`${name}: the service worker keeps ${cacheFiles} files, ${(cacheBytes / 1000).toFixed(1)} kB`);
  }
} finally {
  await browser.close();
  server.kill("SIGTERM");
  rmSync(dataDir, { recursive: true, force: true });
}
