// What the browser tests share: the arbiter server (its release binary, serving the built
// page) started on a temporary database, Chromium through playwright-core, a page that keeps
// every error it reports, the moves made by clicks, and the checks that no page names a
// hidden rank. Screenshots go to the artifacts folder only.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

import { clickMove } from "./clicks.mjs";
import { watchRandomness } from "./randomness.mjs";

export const here = (path) => fileURLToPath(new URL(path, import.meta.url));
export const artifacts = process.env.SALPAKAN_ARTIFACTS ?? here("../test-artifacts/");
mkdirSync(artifacts, { recursive: true });

// The server binary: SALPAKAN_SERVER, or built here.
export function serverBinary() {
  if (process.env.SALPAKAN_SERVER) return process.env.SALPAKAN_SERVER;
  const root = here("../../");
  execFileSync("cargo", ["build", "--quiet", "--release", "-p", "salpakan-server"], { cwd: root, stdio: "inherit" });
  const meta = JSON.parse(execFileSync("cargo", ["metadata", "--format-version", "1", "--no-deps"], { cwd: root }));
  return join(meta.target_directory, "release", "salpakan-server");
}

// A release binary of the workspace's tools (`salpakan-bridge`, `salpakan-engine`): from
// SALPAKAN_TOOLS (the folder scripts/test-web built them in), or built here.
export function toolBinary(name) {
  const root = here("../../");
  let folder = process.env.SALPAKAN_TOOLS;
  if (!folder) {
    execFileSync("cargo", ["build", "--quiet", "--release", "-p", "salpakan-engine", "-p", "salpakan-server", "--bin", "salpakan-engine", "--bin", "salpakan-bridge"], { cwd: root, stdio: "inherit" });
    const meta = JSON.parse(execFileSync("cargo", ["metadata", "--format-version", "1", "--no-deps"], { cwd: root }));
    folder = join(meta.target_directory, "release");
  }
  return join(folder, name);
}

// Every page of these tests is a client at 127.0.0.1: the server lets two players at one
// address play rated, and a pair play the leaderboard's fixture in a day (the bounds of rated
// games have tests of their own, in the server's suite).
const RATED_FROM_ONE_ADDRESS = ["--rated-one-address", "--rated-per-pair-day", "1000"];

// The server `binary` on `at` with the database `db` (and `extra` flags); resolves to
// [process, address] once it listens.
// With `{ oneAddress: false }` the server keeps its own rules for two players at one address.
export function spawnServer(binary, at, db, extra = [], { oneAddress = true } = {}) {
  return new Promise((resolve, reject) => {
    const args = ["--addr", at, "--db", db, "--static", here("../dist"), ...(oneAddress ? RATED_FROM_ONE_ADDRESS : []), ...extra];
    const child = spawn(binary, args, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const match = /listening on http:\/\/(\S+)/.exec(out);
      if (match) resolve([child, match[1]]);
    });
    child.on("exit", (code) => reject(new Error(`the server exited (${code}) before listening`)));
  });
}

// Chromium, headless (Debian's, or CHROMIUM).
export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-background-networking"],
  });
}

// A page in a fresh context of `browser` at `viewport`, its randomness watched, keeping every
// error it reports in `page.errors` (a socket cut by a server's restart, or a request the
// network refuses, is the browser's report, not the page's error).
export async function newPage(browser, viewport = { width: 1200, height: 900 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await watchRandomness(page);
  page.errors = [];
  page.on("pageerror", (error) => page.errors.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "error" && !/WebSocket|ERR_CONNECTION_REFUSED|ERR_INTERNET_DISCONNECTED|Failed to load resource/.test(message.text())) {
      page.errors.push(message.text());
    }
  });
  return page;
}

export const turnOf = (page) => page.getAttribute("#status", "data-turn");

export async function waitTurn(page, turns, timeout = 30000) {
  await page.waitForFunction((wanted) => wanted.includes(document.getElementById("status").dataset.turn), turns, { timeout });
}

export async function moveCount(page) {
  return (await page.$$("#moves li")).length;
}

// No element of a seat's page shows an enemy rank; none of a spectator's shows any rank.
// `names` are the ranks' names in the page's language (English's by default).
export async function assertNothingHidden(page, spectator, names = ["Flag", "Private", "Sergeant", "Lieutenant", "Captain", "Major", "Colonel", "General", "Spy"]) {
  const leaks = await page.$$eval(spectator ? "[data-piece]" : '[data-piece="enemy"]', (squares) =>
    squares.filter((s) => s.dataset.rank !== undefined || /[A-Z0-9]{2}/.test(s.textContent)).map((s) => s.dataset.square));
  assert.deepEqual(leaks, [], "a hidden rank is on the page");
  for (const name of names) {
    const labels = await page.$$eval('[data-piece="enemy"], [data-piece="white"], [data-piece="black"]',
      (squares, word) => squares.filter((s) => `${s.getAttribute("aria-label")} ${s.title} ${s.querySelector(".piece")?.title ?? ""}`.includes(word)).length, name);
    if (!spectator) assert.equal(labels, 0, `an enemy square's label names a rank (${name})`);
  }
  assert.ok((await page.textContent("body")).length > 0);
}

// The player to move makes one move by clicks, a challenge when one is at hand and wanted.
// The Flag stays home (in its corner), so that the game lasts through the test's events.
export async function playOneMove(page, wantChallenge) {
  const pieces = '[data-piece="own"]:not([data-rank="FL"])';
  assert.ok(await clickMove(page, { challenge: wantChallenge, pieces }), "a legal move to click");
}

// In the setup phase: the Flag to the back corner, by two clicks (a swap).
export async function flagToCorner(page) {
  const flag = await page.getAttribute('[data-piece="own"][data-rank="FL"]', "data-square");
  const corner = flag[1] <= "3" ? "a1" : "i8";
  if (flag !== corner) {
    await page.click(`[data-square="${flag}"]`);
    await page.click(`[data-square="${corner}"]`);
  }
  assert.equal(await page.getAttribute(`[data-square="${corner}"]`, "data-rank"), "FL");
  return corner;
}

// A full-page picture at a phone's size, then back to the desktop's.
export async function phoneShot(page, name) {
  const desktop = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${artifacts}/${name}`, fullPage: true });
  await page.setViewportSize(desktop);
}
