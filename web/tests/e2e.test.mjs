// The page in a real browser (Debian's chromium through playwright-core): set up, play by
// clicking until a challenge is announced, look at the beliefs, resign, and see every rank
// revealed, with no error in the console. Screenshots (desktop.png and phone.png among them) go
// only to the test artifacts folder (SALPAKAN_ARTIFACTS, default web/test-artifacts, ignored by
// git); `scripts/test-web --screenshots` copies those two to docs/screenshots after a passing run.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

import { serve } from "../server.mjs";
import { clickMove } from "./clicks.mjs";
import { randomness, watchRandomness } from "./randomness.mjs";

const artifacts = process.env.SALPAKAN_ARTIFACTS ?? fileURLToPath(new URL("../test-artifacts/", import.meta.url));
mkdirSync(artifacts, { recursive: true });

let server;
let browser;
let url;

before(async () => {
  server = await serve(0);
  url = `http://127.0.0.1:${server.address().port}/`;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox"],
  });
});

after(async () => {
  await browser?.close();
  server?.close();
});

async function turn(page) {
  return page.getAttribute("#status", "data-turn");
}

async function waitForTurn(page, turns, timeout = 30000) {
  await page.waitForFunction(
    (wanted) => wanted.includes(document.getElementById("status").dataset.turn),
    turns,
    { timeout },
  );
}

test("a game in the browser: setup, moves, a challenge, beliefs, resignation", async () => {
  const page = await browser.newPage({ viewport: { width: 1200, height: 860 } });
  const errors = [];
  page.on("console", (message) => { if (message.type() === "error") errors.push(message.text()); });
  page.on("pageerror", (error) => errors.push(String(error)));
  await page.goto(url);
  await waitForTurn(page, ["you"]);
  await page.waitForSelector('[data-piece="own"]');

  // Setup: reroll, then swap two pieces of different ranks.
  await page.click("#reroll");
  const own = await page.$$eval('[data-piece="own"]', (squares) =>
    squares.map((x) => [x.dataset.square, x.querySelector(".piece").textContent]));
  assert.equal(own.length, 21);
  const a = own[0];
  const b = own.find((o) => o[1] !== a[1]);
  await page.click(`[data-square="${a[0]}"]`);
  await page.click(`[data-square="${b[0]}"]`);
  assert.equal(await page.textContent(`[data-square="${a[0]}"] .piece`), b[1]);
  assert.equal(await page.textContent(`[data-square="${b[0]}"] .piece`), a[1]);
  await page.screenshot({ path: `${artifacts}/setup.png` });

  await page.click("#start");
  await waitForTurn(page, ["you"]);
  assert.equal((await page.$$('[data-piece="enemy"]')).length, 21);
  assert.equal((await page.$$('[data-piece="enemy"] .piece.hidden')).length, 21, "enemy ranks hidden");

  // Play until a challenge has been announced (ours or the bot's).
  let challenged = false;
  for (let ply = 0; ply < 120 && !challenged; ply++) {
    if ((await turn(page)) !== "you") break;
    assert.ok(await clickMove(page, { challenge: ply > 6 }), "a legal move to click");
    await waitForTurn(page, ["you", "over"]);
    challenged = (await page.$$("#moves li[data-outcome]")).length > 0;
  }
  assert.ok(challenged, "a challenge was announced");
  // Each ply says its number, who moved, the move, and for a challenge the arbiter's words.
  const announced = await page.$$eval("#moves li", (items) => items.map((i) => ({ ...i.dataset, text: i.textContent })));
  announced.forEach((item, i) => {
    assert.equal(item.ply, String(i + 1));
    assert.equal(item.side, i % 2 === 0 ? "white" : "black");
    assert.match(item.move, /^[a-i][1-8]-[a-i][1-8]$/);
    assert.ok(item.outcome === undefined || ["win", "lose", "tie"].includes(item.outcome));
    assert.ok(item.text.startsWith(`${i + 1}.${item.side === "white" ? "White" : "Black"}${item.move}`), item.text);
  });

  if ((await turn(page)) === "you") {
    // Beliefs: every enemy square gets its probability of being the Flag; they sum to 1.
    await page.check("#beliefs");
    const pFlag = await page.$$eval('[data-piece="enemy"]', (s) => s.map((x) => Number(x.dataset.pFlag)));
    assert.ok(pFlag.length > 0 && pFlag.every((p) => p >= 0 && p <= 1));
    assert.ok(Math.abs(pFlag.reduce((x, y) => x + y, 0) - 1) < 1e-3, `sum ${pFlag}`);
    await page.screenshot({ path: `${artifacts}/desktop.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${artifacts}/phone.png`, fullPage: true });
    await page.setViewportSize({ width: 1200, height: 860 });
    await page.uncheck("#beliefs");

    await page.click("#resign");
    assert.equal(await page.textContent("#resign"), "Confirm resign", "resigning asks to be pressed again");
    await page.click("#resign");
  }
  await waitForTurn(page, ["over"]);
  const revealed = await page.$$eval('[data-piece="enemy"] .piece', (s) => s.map((x) => x.textContent));
  assert.ok(revealed.length > 0 && revealed.every((code) => /^(FL|PV|SG|2L|1L|CP|MJ|LC|CO|[1-5]G|SP)$/.test(code)),
    `revealed: ${revealed}`);
  assert.match(await page.textContent("#status"), /win|Draw/);
  assert.equal(await page.isVisible("#download"), true);
  await page.screenshot({ path: `${artifacts}/over.png` });
  assert.deepEqual(errors, [], "no error in the console");
  await page.close();
});

test("every formation comes from 8 fresh bytes of crypto.getRandomValues, never Math.random", async () => {
  const page = await browser.newPage({ viewport: { width: 1200, height: 860 } });
  await watchRandomness(page);
  await page.goto(url);
  await waitForTurn(page, ["you"]);
  await page.waitForSelector('[data-piece="own"]');
  const formation = () => page.$$eval('[data-piece="own"]', (squares) =>
    squares.map((x) => `${x.dataset.square}:${x.dataset.rank}`).join(" "));
  const seen = new Set([await formation()]);
  const before = (await randomness(page)).crypto.length;
  const rerolls = 30;
  for (let i = 0; i < rerolls; i++) {
    await page.click("#reroll");
    seen.add(await formation());
  }
  const drawn = await randomness(page);
  // Each reroll drew one secret seed of 64 bits; nothing came from Math.random.
  assert.deepEqual(drawn.crypto.slice(before), new Array(rerolls).fill(8));
  assert.ok(drawn.crypto.slice(0, before).every((bytes) => bytes >= 8), `${drawn.crypto}`);
  assert.equal(drawn.math, 0, "Math.random was called");
  assert.equal(seen.size, rerolls + 1, "a reroll repeated a formation");
  await page.close();
});
