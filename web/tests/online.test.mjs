// The page online, in real Chromium through playwright-core, against the real arbiter server
// (the release binary, serving the built page): two players play each other by clicks, one
// reloads, the server is killed with SIGKILL and restarted, a draw offer is declined, one
// resigns; a third page watches. At every ply no page names an enemy rank; at the end every
// rank is revealed. Also: the arbiter for a physical board against the engine's own table, and
// a game played with the keyboard alone. Screenshots go to the artifacts folder only.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { NUM_RANKS, capturesFlag, challenge, rankCode, rankName } from "../../wasm/pkg/node/salpakan.js";
import {
  artifacts,
  assertNothingHidden,
  flagToCorner,
  launchBrowser,
  moveCount,
  newPage as pageIn,
  phoneShot,
  playOneMove,
  serverBinary,
  spawnServer as spawnWith,
  here,
  toolBinary,
  turnOf,
  waitTurn,
} from "./harness.mjs";
import { randomness } from "./randomness.mjs";

let browser;
let binary;
let dataDir;
let server = null;
let address = "127.0.0.1:0";

const spawnServer = (at, db, extra = []) => spawnWith(binary, at, db, extra);

async function startServer() {
  const [child, at] = await spawnServer(address, join(dataDir, "games.db"));
  address = at;
  return child;
}

before(async () => {
  binary = serverBinary();
  dataDir = mkdtempSync(join(tmpdir(), "salpakan-web-"));
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  server?.kill("SIGTERM");
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const url = () => `http://${address}/`;
// A page of the shared browser.
const newPage = (viewport) => pageIn(browser, viewport);

test("two players, a spectator, a reload, a server restart, a declined draw, a resignation", async () => {
  const a = await newPage();
  await a.goto(url());
  await a.selectOption("#clock-choice", "10+0");
  await a.click("#play-friend");
  await a.waitForFunction(() => document.getElementById("invite-link").href.includes("join="));
  const invite = await a.getAttribute("#invite-link", "href");
  const watch = await a.getAttribute("#watch-link", "href");
  const token = await a.evaluate(() => Object.entries(localStorage).find(([k]) => k.startsWith("salpakan-seat:"))?.[1]);
  const seatToken = JSON.parse(token).token;
  for (const link of [invite, watch, a.url()]) assert.ok(!link.includes(seatToken), `a token in ${link}`);
  await waitTurn(a, ["setup"]);
  // The seat's formation came from a secret seed: 64 bits of crypto.getRandomValues, and no
  // Math.random anywhere.
  const drawn = await randomness(a);
  assert.ok(drawn.crypto.length >= 1 && drawn.crypto.every((bytes) => bytes >= 8), `${drawn.crypto}`);
  assert.equal(drawn.math, 0);
  await a.screenshot({ path: `${artifacts}/online-setup.png` });
  await phoneShot(a, "online-setup-phone.png");

  const b = await newPage();
  await b.goto(invite);
  await waitTurn(b, ["setup"]);
  assert.ok(!b.url().includes("invite="), "the address bar keeps no invite once used");
  const c = await newPage();
  await c.goto(watch);
  await flagToCorner(a);
  await a.click("#start");
  await waitTurn(a, ["waiting", "you", "opponent"]);
  await flagToCorner(b);
  await b.click("#start");
  await waitTurn(a, ["you", "opponent"]);
  await waitTurn(b, ["you", "opponent"]);
  await waitTurn(c, ["white", "black"]);
  assert.equal((await a.$$('[data-piece="enemy"]')).length, 21);
  assert.ok(Number(await a.getAttribute("#clock-white", "data-ms")) > 0);

  let plies = 0;
  let reloaded = false;
  let restarted = false;
  let declined = false;
  for (let round = 0; round < 400; round++) {
    const challenges = (await a.$$("#moves li[data-outcome]")).length;
    if (plies >= 24 && challenges >= 3 && reloaded && restarted && declined) break;
    const mover = (await turnOf(a)) === "you" ? a : b;
    const waiter = mover === a ? b : a;
    if (plies === 20 && !declined) {
      // The player not to move offers a draw; the mover sees it, and declines by moving.
      await waiter.click("#offer-draw");
      await mover.waitForSelector("#draw-offer:not([hidden])");
      assert.ok(["white", "black"].includes(await mover.getAttribute("#draw-offer", "data-by")));
      declined = true;
    }
    await playOneMove(mover, plies > 4);
    plies += 1;
    for (const page of [a, b, c]) {
      await page.waitForFunction((n) => document.querySelectorAll("#moves li").length >= n, plies, { timeout: 30000 });
    }
    await waitTurn(waiter, ["you", "over"]);
    if ((await turnOf(waiter)) === "over") break;
    if (declined && plies === 21) {
      assert.equal(await waiter.isHidden("#draw-offer"), true, "a move declines the offer");
    }
    await assertNothingHidden(a, false);
    await assertNothingHidden(b, false);
    await assertNothingHidden(c, true);
    if (plies === 8 && !reloaded) {
      await b.reload();
      await waitTurn(b, ["you", "opponent"]);
      await b.waitForFunction((n) => document.querySelectorAll("#moves li").length === n, plies);
      reloaded = true;
    }
    if (plies === 14 && !restarted) {
      await a.screenshot({ path: `${artifacts}/online-mid.png` });
      await phoneShot(a, "online-mid-phone.png");
      server.kill("SIGKILL");
      await new Promise((resolve) => server.once("exit", resolve));
      server = await startServer();
      restarted = true;
      // Both seats reconnect by themselves and go on where they were.
      await a.waitForFunction(() => document.body.dataset.connected === "true", null, { timeout: 30000 });
      await b.waitForFunction(() => document.body.dataset.connected === "true", null, { timeout: 30000 });
      await waitTurn(a, ["you", "opponent"]);
      assert.equal(await moveCount(a), plies);
      assert.equal(await moveCount(b), plies);
    }
  }
  assert.ok(reloaded && restarted && declined, `every event of the test happened: ${JSON.stringify({ plies, reloaded, restarted, declined, turn: await turnOf(a), text: await a.textContent("#status") })}`);
  for (const page of [a, b]) {
    const seen = (await page.$$("#moves li[data-outcome]")).length;
    assert.ok(seen >= 3, `at least three challenges announced (${seen})`);
  }
  if ((await turnOf(a)) !== "over") {
    await a.click("#resign");
    await a.click("#resign");
  }
  for (const page of [a, b, c]) await waitTurn(page, ["over"]);
  // The end: every rank revealed to everyone, the record to download.
  for (const page of [a, b, c]) {
    const hidden = await page.$$eval("[data-piece]", (squares) => squares.filter((s) => s.dataset.rank === undefined).length);
    assert.equal(hidden, 0, "every piece shows its rank at the end");
    assert.equal(await page.isVisible("#download"), true);
    // Each page checked the record against the commitments it saw (from `start`, or from
    // `state` after the reload and the restart): verified.
    await page.waitForSelector('#verified[data-verified="yes"]:not([hidden])');
  }
  assert.equal(await moveCount(c), await moveCount(a));
  await a.screenshot({ path: `${artifacts}/online-end.png` });
  await phoneShot(a, "online-end-phone.png");
  // The opponent leaves: the other page says so.
  await b.context().close();
  await a.waitForSelector('#presence[data-connected="false"]', { timeout: 30000 });
  for (const page of [a, c]) assert.deepEqual(page.errors, [], "no error on the page");
  await a.context().close();
  await c.context().close();
});

test("a game against the server's bot: the same flow with a bot seat", async () => {
  const page = await newPage();
  await page.goto(url());
  // The bot select shows each bot's rating on this server, fetched live (a provisional one
  // marked "?"; the page's own text has no rating at all), in the ladder's order.
  // Each option's rating arrives by its own request: wait for all of them.
  await page.waitForFunction(() => document.querySelector('#bot-choice option[value="level-5"]').textContent === "Level 5 · 1500?");
  await page.waitForFunction(() => [...document.querySelectorAll("#bot-choice option")].every((o) => /· \d+\?$/.test(o.textContent)));
  const shown = await page.$$eval("#bot-choice option", (options) => options.map((o) => [o.value, Number(/· (\d+)\?$/.exec(o.textContent)?.[1])]));
  assert.ok(shown.every(([, rating]) => rating > 0), JSON.stringify(shown));
  const ladder = shown.filter(([value]) => value.startsWith("level-")).map(([, rating]) => rating);
  assert.equal(ladder.length, 8);
  for (let i = 1; i < ladder.length; i++) assert.ok(ladder[i] > ladder[i - 1], JSON.stringify(shown));
  await page.selectOption("#bot-choice", "random");
  await page.selectOption("#clock-choice", "5+3");
  await page.click("#play-bot");
  await waitTurn(page, ["setup"]);
  assert.equal(await page.isHidden("#invite-link"), true, "no invite against a bot");
  assert.ok((await page.getAttribute("#watch-link", "href")).includes("watch="));
  await page.click("#start");
  await waitTurn(page, ["you", "bot"]);
  for (let ply = 0; ply < 6; ply++) {
    await waitTurn(page, ["you", "over"]);
    if ((await turnOf(page)) === "over") break;
    await playOneMove(page, false);
    await page.waitForFunction(() => document.getElementById("status").dataset.turn !== "you" || document.querySelector("[data-legal]") === null);
    // Until the end (when the record shows every rank, as over the board).
    if ((await turnOf(page)) !== "over") await assertNothingHidden(page, false);
  }
  await page.waitForFunction(() => document.querySelectorAll("#moves li").length >= 6);
  const sides = await page.$$eval("#moves li", (items) => items.map((i) => i.dataset.side));
  assert.ok(sides.includes("white") && sides.includes("black"), "both seats moved");
  assert.ok(await page.isHidden("#presence"), "a bot is always present: nothing is said of it");
  await waitTurn(page, ["you", "over"]);
  if ((await turnOf(page)) === "you") {
    await page.click("#resign");
    await page.click("#resign");
  }
  await waitTurn(page, ["over"]);
  assert.equal(await page.$$eval("[data-piece]", (s) => s.filter((x) => x.dataset.rank === undefined).length), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the arbiter for a physical board gives the engine's answer for all 225 pairs", async () => {
  const page = await newPage();
  await page.goto(url());
  assert.equal(await page.getAttribute("#arbiter", "open"), "", "the arbiter is open, not hidden in a collapsed box");
  for (let attacker = 0; attacker < NUM_RANKS; attacker++) {
    for (let defender = 0; defender < NUM_RANKS; defender++) {
      await page.selectOption("#arbiter-attacker", rankCode(attacker));
      if (attacker === 0 && defender === 0) {
        assert.match(await page.textContent("#arbiter-result"), /attacker's rank is picked \(hidden\)/);
        assert.doesNotMatch(await page.textContent("#arbiter-result"), new RegExp(rankName(attacker)));
      }
      await page.selectOption("#arbiter-defender", rankCode(defender));
      await page.click("#arbiter-resolve");
      const shown = await page.getAttribute("#arbiter-result", "data-outcome");
      assert.equal(shown, challenge(attacker, defender), `${rankCode(attacker)} attacks ${rankCode(defender)}`);
      const flag = capturesFlag(attacker, defender);
      assert.equal(await page.getAttribute("#arbiter-result", "data-flag-captured"), flag ? "true" : null);
      // No rank stays on screen after a result.
      const left = await page.$$eval("#arbiter select", (selects) => selects.map((s) => s.selectedIndex));
      assert.deepEqual(left, [-1, -1]);
    }
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a game played with the keyboard alone", async () => {
  const page = await newPage();
  await page.goto(url());
  // From the lobby, by the keyboard too: the game against the bot in this browser.
  await page.focus("#new-game");
  await page.keyboard.press("Enter");
  await waitTurn(page, ["you"]);
  await page.focus("#start");
  await page.keyboard.press("Enter");
  await waitTurn(page, ["you"]);
  await page.focus("#board");
  const cursor = () => page.$eval("[data-cursor]", (s) => s.dataset.square);
  async function goTo(square) {
    for (let i = 0; i < 40; i++) {
      const at = await cursor();
      if (at === square) return;
      const [df, dr] = [square.charCodeAt(0) - at.charCodeAt(0), Number(square[1]) - Number(at[1])];
      await page.keyboard.press(dr > 0 ? "ArrowUp" : dr < 0 ? "ArrowDown" : df > 0 ? "ArrowRight" : "ArrowLeft");
    }
    assert.fail(`the cursor did not reach ${square}`);
  }
  for (let ply = 0; ply < 6; ply++) {
    await waitTurn(page, ["you", "over"]);
    if ((await turnOf(page)) === "over") break;
    const own = await page.$$eval('[data-piece="own"]', (squares) => squares.map((s) => s.dataset.square));
    let moved = false;
    for (const square of own) {
      await goTo(square);
      await page.keyboard.press("Enter");
      const targets = await page.$$eval("[data-legal]", (squares) => squares.map((s) => s.dataset.square));
      if (targets.length === 0) continue;
      await goTo(targets[0]);
      await page.keyboard.press("Enter");
      moved = true;
      break;
    }
    assert.ok(moved, "a move by keyboard");
    await page.waitForFunction((n) => document.querySelectorAll("#moves li").length >= n, 2 * ply + 1);
  }
  const label = await page.$eval("[data-cursor]", (s) => s.getAttribute("aria-label"));
  assert.match(label, /^[a-i][1-8], /);
  assert.ok((await page.textContent("#live")).length > 0, "announcements reach the live region");
  await page.focus("#resign");
  await page.keyboard.press("Enter");
  await page.keyboard.press("Enter");
  await waitTurn(page, ["over"]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a game that never starts expires: the page says so and forgets the seat", async () => {
  const [child, at] = await spawnServer("127.0.0.1:0", join(dataDir, "expiry.db"), ["--setup-expiry-secs", "2"]);
  try {
    const page = await newPage();
    await page.goto(`http://${at}/`);
    await page.click("#play-friend");
    await waitTurn(page, ["setup"]);
    const seats = () => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("salpakan-seat:")).length);
    assert.equal(await seats(), 1);
    await waitTurn(page, ["over"], 15000);
    assert.match(await page.textContent("#status"), /expired before it started/);
    for (const gone of ["#start", "#invite-link", "#presence"]) {
      assert.equal(await page.isHidden(gone), true, `${gone} is gone once the game expired`);
    }
    await page.screenshot({ path: `${artifacts}/online-expired.png` });
    assert.equal(await seats(), 0, "the seat's token is forgotten");
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    child.kill("SIGTERM");
  }
});

test("the setup time counts down and a seat may abort before the first move", async () => {
  const page = await newPage();
  await page.goto(url());
  await page.selectOption("#bot-choice", "random");
  await page.click("#play-bot");
  await waitTurn(page, ["setup"]);
  await page.waitForSelector("#setup-time:not([hidden])");
  const first = Number(await page.getAttribute("#setup-time", "data-ms"));
  assert.ok(first > 170000 && first <= 180000, `three minutes to arrange the pieces (${first})`);
  assert.match(await page.textContent("#setup-time"), /^Setup time left [23]:\d\d$/);
  await page.waitForFunction((was) => Number(document.getElementById("setup-time").dataset.ms) < was - 500, first);
  assert.equal(await page.isVisible("#abort"), true, "abort is offered before the first move");
  await page.click("#abort");
  await waitTurn(page, ["over"]);
  assert.match(await page.textContent("#status"), /^Aborted by you before the first move\. No result\.$/);
  for (const gone of ["#abort", "#setup-time", "#start"]) {
    assert.equal(await page.isHidden(gone), true, `${gone} is gone once the game was aborted`);
  }
  assert.equal(await page.isHidden("#download"), true, "no record of an aborted game");
  // A reload shows the same.
  await page.reload();
  await waitTurn(page, ["over"]);
  assert.match(await page.textContent("#status"), /aborted|Aborted/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// A player registers a name on `page` and waits until the page says it plays as that name.
async function registerAs(page, name) {
  await page.fill("#player-name", name);
  await page.click("#register");
  await page.waitForSelector('#lobby-panel[data-player="named"]');
  await page.waitForFunction((n) => document.getElementById("player-who").textContent.includes(n), name);
}

// The player to move on `a` or `b` makes one move; returns once both pages show it.
async function oneMoveEither(a, b, wantChallenge) {
  await Promise.all([waitTurn(a, ["you", "opponent", "over"]), waitTurn(b, ["you", "opponent", "over"])]);
  const mover = (await turnOf(a)) === "you" ? a : b;
  const before = await moveCount(a);
  await playOneMove(mover, wantChallenge);
  for (const page of [a, b]) await page.waitForFunction((n) => document.querySelectorAll("#moves li[data-ply]").length > n, before);
}

test("strangers meet in the lobby, play, resign, rematch; a third is paired with a bot", async () => {
  const [child, at] = await spawnServer("127.0.0.1:0", join(dataDir, "lobby.db"), ["--pool-bot-secs", "2"]);
  try {
    const home = `http://${at}/`;
    const [a, b, c] = [await newPage(), await newPage(), await newPage({ width: 390, height: 844 })];
    for (const page of [a, b, c]) await page.goto(home);
    await registerAs(a, "Amihan");
    await registerAs(b, "Bathala");
    await registerAs(c, "Cruz");
    // Amihan's seek reaches Bathala's live list; Bathala accepts it there.
    await a.selectOption("#clock-choice", "5+3");
    await a.click("#seek");
    await b.waitForSelector('#lobby [data-name="Amihan"] button');
    assert.match(await b.textContent('#lobby [data-name="Amihan"]'), /Amihan \(1500\?\) · 5\+3 · casual/);
    assert.ok(await b.getAttribute('#lobby [data-name="Amihan"]', "data-seek"));
    await b.screenshot({ path: `${artifacts}/lobby.png` });
    await phoneShot(b, "lobby-phone.png");
    await b.click('#lobby [data-name="Amihan"] button');
    for (const page of [a, b]) await waitTurn(page, ["setup"]);
    await a.waitForSelector("#setup-time:not([hidden])");
    const sides = [];
    for (const page of [a, b]) {
      const said = await page.textContent("#you-play");
      assert.match(said, /^You play (White|Black)\.$/);
      sides.push(said.includes("White") ? "white" : "black");
      assert.match(await page.textContent("#player-top"), /(Amihan|Bathala)/);
    }
    assert.notEqual(sides[0], sides[1]);
    await a.screenshot({ path: `${artifacts}/lobby-setup.png` });
    await phoneShot(a, "lobby-setup-phone.png");
    for (const page of [a, b]) {
      await flagToCorner(page);
      await page.click("#start");
    }
    // Play by clicks until a challenge is announced on the board.
    let guard = 0;
    while ((await a.$$("#moves li[data-outcome]")).length === 0 && guard++ < 120) {
      await oneMoveEither(a, b, true);
      for (const page of [a, b]) await assertNothingHidden(page, false);
    }
    assert.ok((await a.$$("#moves li[data-outcome]")).length > 0, "a challenge");
    for (const page of [a, b]) {
      await page.waitForSelector("#board-note:not([hidden])");
      assert.match(await page.textContent("#board-note"), /^Challenge: /);
      assert.equal((await page.$$(".square.challenged")).length, 1, "the challenge's square is marked");
      const lost = await page.$$eval(".lost:not([hidden])", (boxes) => boxes.map((b) => Number(b.dataset.count)));
      assert.equal(lost.length, 2);
      assert.ok(lost.reduce((x, y) => x + y) >= 1, "a piece was eliminated");
      // The enemy's eliminated pieces are shown by count only.
      const enemy = sides[[a, b].indexOf(page)] === "white" ? "black" : "white";
      assert.equal(await page.$$eval(`#eliminated-${enemy} [data-rank]`, (p) => p.length), 0);
    }
    await a.screenshot({ path: `${artifacts}/lobby-mid.png` });
    await phoneShot(a, "lobby-mid-phone.png");
    // Amihan resigns (pressed twice); the move list says so.
    await waitTurn(a, ["you", "opponent"]);
    await a.click("#resign");
    await a.click("#resign");
    for (const page of [a, b]) await waitTurn(page, ["over"]);
    assert.match(await b.textContent("#moves li.end"), /resignation/);
    await b.screenshot({ path: `${artifacts}/lobby-end.png` });
    await phoneShot(b, "lobby-end-phone.png");
    // Both press Rematch: each is taken to the new game, in the other colour.
    await a.click("#rematch");
    await b.waitForFunction(() => /rematch/.test(document.getElementById("hint").textContent));
    await b.click("#rematch");
    for (const [i, page] of [a, b].entries()) {
      await waitTurn(page, ["setup"]);
      const now = sides[i] === "white" ? "Black" : "White";
      await page.waitForFunction((want) => document.getElementById("you-play").textContent === `You play ${want}.`, now);
      // Nothing of the last game: no eliminated pieces, no challenge's note.
      assert.equal((await page.$$(".lost:not([hidden])")).length, 0, "the last game's eliminated pieces");
      assert.ok(await page.isHidden("#board-note"), "the last game's challenge");
    }
    for (const page of [a, b]) await page.click("#start");
    for (let ply = 0; ply < 2; ply++) await oneMoveEither(a, b, false);
    assert.equal(await moveCount(a), 2);
    // Cruz, alone in the 3+2 pool, is paired with a server bot.
    await c.selectOption("#clock-choice", "3+2");
    await c.click("#quick-pair");
    await waitTurn(c, ["setup"]);
    // Shown as a bot (its level, marked), not as a person.
    await c.waitForSelector('#player-top[data-bot="true"] .bot-mark');
    assert.ok(await c.isDisabled("#offer-draw"), "no draw offer to a bot");
    await c.screenshot({ path: `${artifacts}/lobby-bot-phone.png` });
    for (const page of [a, b, c]) assert.deepEqual(page.errors, []);
    for (const page of [a, b, c]) await page.context().close();
  } finally {
    child.kill("SIGTERM");
  }
});

// Glicko-2 as Glickman's example computes it, one game, written plainly here (the server's is
// server/src/rating/glicko.rs): the values after a game against `opponent` scoring `score`.
function glicko(player, opponent, score) {
  const scale = 173.7178;
  const [mu, phi, sigma] = [(player.rating - 1500) / scale, player.rd / scale, player.volatility];
  const [muJ, phiJ] = [(opponent.rating - 1500) / scale, opponent.rd / scale];
  const g = 1 / Math.sqrt(1 + (3 * phiJ * phiJ) / (Math.PI * Math.PI));
  const e = 1 / (1 + Math.exp(-g * (mu - muJ)));
  const v = 1 / (g * g * e * (1 - e));
  const delta = v * g * (score - e);
  const a = Math.log(sigma * sigma);
  const f = (x) => (Math.exp(x) * (delta * delta - phi * phi - v - Math.exp(x))) / (2 * (phi * phi + v + Math.exp(x)) ** 2) - (x - a) / 0.25;
  let [lo, hi] = [a - 1, a + 1];
  while (f(lo) < 0) lo -= 1;
  while (f(hi) > 0) hi += 1;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (f(mid) > 0) lo = mid;
    else hi = mid;
  }
  const sigmaNew = Math.exp((lo + hi) / 4);
  const phiNew = 1 / Math.sqrt(1 / (phi * phi + sigmaNew * sigmaNew) + 1 / v);
  return { rating: 1500 + scale * (mu + phiNew * phiNew * g * (score - e)), rd: Math.min(scale * phiNew, player.rd), volatility: sigmaNew };
}

// The fixture of finished games: `count` rated games between the players of `keys` (White's,
// Black's), each side stepping a piece out and back (a game is rated once each side has made
// two plies), then resigned by Black in the first, White in the second, and so on, played
// from `page` through the API (fetch and WebSocket, as any client would).
async function resignedGames(page, keys, count) {
  await page.evaluate(async ([keys, count]) => {
    const { Game, Setup } = await import("/pkg/salpakan.js");
    const call = async (key, method, path, body) => {
      const reply = await fetch(path, { method, headers: { Authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
      if (!reply.ok) throw new Error(`${path}: ${reply.status} ${await reply.text()}`);
      return reply.json();
    };
    const seat = (game, token) => new Promise((resolve) => {
      const socket = new WebSocket(`ws://${location.host}/api/games/${game}/socket?token=${token}`);
      const waiting = [];
      socket.onmessage = (event) => {
        const frame = JSON.parse(event.data);
        for (const w of waiting.splice(0)) if (w.t !== frame.t) waiting.push(w); else w.done(frame);
      };
      socket.until = (t) => new Promise((done) => waiting.push({ t, done }));
      socket.onopen = () => resolve(socket);
    });
    for (let i = 0; i < count; i++) {
      const made = await call(keys[0], "POST", "/api/games", { rated: true, side: "white", first: "white" });
      const joined = await call(keys[1], "POST", `/api/games/${made.game}/join`, { invite: made.invite });
      const [w, b] = [await seat(made.game, made.token), await seat(made.game, joined.token)];
      const started = w.until("start");
      const cells = [Array.from(Setup.random("white").cells()), Array.from(Setup.random("black").cells())];
      w.send(JSON.stringify({ t: "setup", cells: cells[0] }));
      b.send(JSON.stringify({ t: "setup", cells: cells[1] }));
      await started;
      // White and Black each step a piece from their front row and back.
      const board = Game.fromCells(cells[0], cells[1], "white");
      const step = (front) => {
        const move = board.legalMoves().find((m) => front.test(m) && m[0] === m[3]);
        board.play(move);
        return move;
      };
      const [white, black] = [step(/^[a-i]3-[a-i]4$/), step(/^[a-i]6-[a-i]5$/)];
      const back = (move) => move.split("-").reverse().join("-");
      const plies = [white, black, back(white), back(black)];
      for (const [ply, move] of plies.entries()) {
        const seen = w.until("ply");
        (ply % 2 === 0 ? w : b).send(JSON.stringify({ t: "move", move, ply }));
        await seen;
      }
      const over = w.until("over");
      (i % 2 === 0 ? b : w).send(JSON.stringify({ t: "resign" }));
      await over;
      w.close();
      b.close();
    }
  }, [keys, count]);
}

// Two pages on the server at `at`, registered as `seeker` and `accepter`; the first seeks a
// rated game, the second accepts it from the lobby: both pages, at their setup.
async function ratedSeekAccepted(at, seeker, accepter) {
  const [a, b] = [await newPage(), await newPage()];
  for (const page of [a, b]) await page.goto(`http://${at}/`);
  await registerAs(a, seeker);
  await registerAs(b, accepter);
  await a.check("#rated");
  await a.click("#seek");
  const row = `#lobby [data-name="${seeker}"]`;
  await b.waitForSelector(`${row} button`);
  assert.match(await b.textContent(row), /· rated/);
  await b.click(`${row} button`);
  for (const page of [a, b]) await waitTurn(page, ["setup"]);
  return [a, b];
}

const profileOf = (page, name) => page.evaluate(async (n) => (await fetch(`/api/players/${n}`)).json(), name);

test("after a rated game: ratings by Glicko-2, my games, a replay as each side knew it, the leaderboard", async () => {
  const [child, at] = await spawnServer("127.0.0.1:0", join(dataDir, "history.db"));
  try {
    const home = `http://${at}/`;
    // A rated seek, accepted; played by clicks past a challenge; Dalisay resigns.
    const [a, b] = await ratedSeekAccepted(at, "Dalisay", "Lakan");
    for (const page of [a, b]) {
      await flagToCorner(page);
      await page.click("#start");
    }
    let guard = 0;
    while (((await a.$$("#moves li[data-outcome]")).length === 0 || (await moveCount(a)) < 6) && guard++ < 120) {
      await oneMoveEither(a, b, true);
    }
    assert.ok((await a.$$("#moves li[data-outcome]")).length > 0, "a challenge");
    await waitTurn(a, ["you", "opponent"]);
    await a.click("#resign");
    await a.click("#resign");
    for (const page of [a, b]) await waitTurn(page, ["over"]);
    const plies = await moveCount(a) - 1; // the resignation closes the list
    // Both ratings moved as Glicko-2 says, from 1500 / 350 / 0.06 each.
    const fresh = { rating: 1500, rd: 350, volatility: 0.06 };
    const [won, lost] = [glicko(fresh, fresh, 1), glicko(fresh, fresh, 0)];
    const [dalisay, lakan] = [await profileOf(a, "Dalisay"), await profileOf(a, "Lakan")];
    assert.deepEqual([dalisay.rating, dalisay.rd, dalisay.lost], [Math.round(lost.rating), Math.round(lost.rd), 1]);
    assert.deepEqual([lakan.rating, lakan.rd, lakan.won], [Math.round(won.rating), Math.round(won.rd), 1]);
    // The game is in both players' games; from there, its replay.
    const link = await a.getAttribute("#replay-link", "href");
    const id = new URLSearchParams(link.slice(link.indexOf("?"))).get("replay");
    for (const page of [a, b]) {
      await page.click("#open-my-games");
      await page.waitForSelector(`#my-games li[data-game="${id}"]`);
      assert.match(await page.textContent(`#my-games li[data-game="${id}"]`), /Dalisay .* vs .*Lakan|rated/);
    }
    assert.match(await b.textContent("#profile"), /Lakan[\s\S]*rating 1662\?/);
    await b.screenshot({ path: `${artifacts}/my-games.png` });
    await b.click(`#my-games li[data-game="${id}"] a`);
    await b.waitForSelector('#replay-controls:not([hidden])[data-ply="0"]');
    await b.waitForSelector('#verified[data-verified="yes"]:not([hidden])');
    assert.equal(await b.getAttribute("#replay-ply", "max"), String(plies));
    // Stepped from ply 0 to the end with #replay-next, both armies shown.
    for (let ply = 1; ply <= plies; ply++) {
      await b.click("#replay-next");
      assert.equal(await b.getAttribute("#replay-ply", "data-ply"), String(ply));
    }
    assert.ok(await b.isDisabled("#replay-next"));
    assert.equal(await b.$$eval("[data-piece][data-rank]", (s) => s.length) > 0, true, "every rank at the end, both armies");
    await b.screenshot({ path: `${artifacts}/replay-all.png` });
    // As White knew it: no Black rank at any ply (White's pieces are "own", Black's "enemy",
    // shaded by White's beliefs); each challenge in the list carries the attacker's odds.
    await b.selectOption("#replay-side", "white");
    await b.click("#replay-prev");
    while (!(await b.isDisabled("#replay-prev"))) await b.click("#replay-prev");
    for (let ply = 0; ply <= plies; ply++) {
      assert.equal(await b.getAttribute("#replay-ply", "data-ply"), String(ply));
      const ranks = await b.$$eval('[data-piece="enemy"]', (squares) => squares.filter((s) => s.dataset.rank !== undefined).length);
      assert.equal(ranks, 0, `a Black rank at ply ${ply}`);
      const shaded = await b.$$eval('[data-piece="enemy"][data-p-flag]', (s) => s.length);
      assert.equal(shaded, await b.$$eval('[data-piece="enemy"]', (s) => s.length), `ply ${ply}: every enemy piece shaded`);
      // A likeliest rank is named only where it is more likely than not.
      const named = await b.$$eval('[data-piece="enemy"][data-likely]', (squares) => squares.map((s) => s.querySelector(".piece").title));
      for (const title of named) {
        const odds = /likeliest .+ \((\d+)%\)/.exec(title);
        assert.ok(odds && Number(odds[1]) >= 50, `ply ${ply}: a rank named at ${title}`);
      }
      if (ply === 0) assert.equal(named.length, 0, "at the start no piece's rank is more than a guess");
      if (ply === Math.floor(plies / 2)) await b.screenshot({ path: `${artifacts}/replay-white.png` });
      if (ply < plies) await b.click("#replay-next");
    }
    const odds = await b.$$eval("#moves li[data-outcome]", (items) => items.map((i) => i.querySelector(".odds")?.textContent));
    assert.ok(odds.length > 0 && odds.every((t) => /saw \d+% win · \d+% tie · \d+% lose/.test(t)), String(odds));
    assert.match(await b.textContent("#replay-luck"), /luck [+-]\d/);
    await phoneShot(b, "replay-phone.png");
    // The replay needs no account: a fresh browser opens the link.
    const stranger = await newPage();
    await stranger.goto(`${home}?replay=${id}`);
    await stranger.waitForSelector('#replay-controls[data-ply="0"]');
    await stranger.waitForSelector('#verified[data-verified="yes"]:not([hidden])');
    // A record whose salt was changed on its way is not verified, and the page says whose.
    await stranger.route(`**/api/games/${id}/record`, async (route) => {
      const response = await route.fetch();
      const record = await response.text();
      const forged = record.replace(/\[BlackSalt "(.)/, (_, digit) => `[BlackSalt "${digit === "0" ? "1" : "0"}`);
      assert.notEqual(forged, record);
      await route.fulfill({ response, body: forged });
    });
    await stranger.goto(`${home}?leaderboard`);
    await stranger.goto(`${home}?replay=${id}`);
    await stranger.waitForSelector('#verified[data-verified="no"]:not([hidden])');
    assert.match(await stranger.textContent("#verified"), /Not verified: Black's formation and salt/);
    await stranger.unroute(`**/api/games/${id}/record`);
    // The leaderboard, seeded by a fixture of rated games between the two, shows both once
    // their RDs are 110 or less, highest first.
    const keys = await Promise.all([a, b].map((page) => page.evaluate(() => JSON.parse(localStorage.getItem("salpakan-player")).key)));
    await stranger.goto(`${home}?leaderboard`);
    assert.equal(await stranger.$$eval("#leaderboard li[data-name]", (l) => l.length), 0, "nobody settled after one game");
    await resignedGames(stranger, keys, 13);
    await stranger.goto(`${home}?leaderboard`);
    await stranger.waitForSelector("#leaderboard li[data-name]");
    const names = await stranger.$$eval("#leaderboard li[data-name]", (l) => l.map((i) => i.dataset.name));
    assert.deepEqual(names, ["Dalisay", "Lakan"], "Dalisay won 7 of the fixture's 13");
    await stranger.screenshot({ path: `${artifacts}/leaderboard.png` });
    for (const page of [a, b, stranger]) assert.deepEqual(page.errors, []);
    for (const page of [a, b, stranger]) await page.context().close();
  } finally {
    child.kill("SIGTERM");
  }
});

// The text of the arbiter's places: the status, the moves, the board's note.
const arbiterWords = (page) =>
  page.evaluate(() => ["status", "moves", "board-note", "hint"].map((id) => document.getElementById(id).textContent).join("|"));

test("a rated seek between two new players at one address says why it is not rated, at the start and the end", async () => {
  const [child, at] = await spawnWith(binary, "127.0.0.1:0", join(dataDir, "one-network.db"), [], { oneAddress: false });
  try {
    const [a, b] = await ratedSeekAccepted(at, "Ate", "Bunso");
    // Before the first move: both seats read why the game is not rated.
    for (const page of [a, b]) {
      await page.waitForSelector('#you-play[data-unrated="same-address"]');
      assert.match(await page.textContent("#you-play"), /Not rated: you are both at one internet address/);
    }
    for (const page of [a, b]) {
      await flagToCorner(page);
      await page.click("#start");
    }
    await waitTurn(a, ["you", "opponent"]);
    await a.click("#resign");
    await a.click("#resign");
    // At the end: said again, and the game's line in the player's games says it.
    for (const page of [a, b]) {
      await waitTurn(page, ["over"]);
      assert.equal(await page.getAttribute("#you-play", "data-unrated"), "same-address");
    }
    const reply = await a.evaluate(async () => (await fetch("/api/players/Ate/games")).json());
    assert.equal(reply.games[0].unrated, "same-address");
    assert.equal(reply.games[0].rated, false);
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  } finally {
    child.kill("SIGTERM");
  }
});

test("another device is linked by a one-time code and finds the same player", async () => {
  const [child, at] = await spawnServer("127.0.0.1:0", join(dataDir, "link.db"));
  try {
    const home = `http://${at}/`;
    const [a, b] = [await newPage(), await newPage()];
    for (const page of [a, b]) await page.goto(home);
    await registerAs(a, "Linda");
    await a.click("#open-my-games");
    await a.waitForSelector("#tokens:not([hidden])");
    await a.click("#link-device");
    await a.waitForSelector("#link-shown:not([hidden])");
    const code = await a.textContent("#link-code-shown");
    assert.match(code, /^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]$/);
    // The other device (a browser with nothing kept) types it and is Linda.
    await b.click(".link-device summary");
    await b.fill("#link-code", code.toLowerCase());
    await b.click("#redeem-code");
    await b.waitForSelector('#lobby-panel[data-player="named"]');
    assert.match(await b.textContent("#player-who"), /Linda/);
    await b.click("#open-my-games");
    await b.waitForSelector('#profile[data-name="Linda"]');
    assert.equal(await b.getAttribute("#profile", "data-rating"), "1500");
    // Linda's first device sees the second among its tokens; the code worked once.
    await a.reload();
    await a.waitForSelector("#token-list li[data-token]");
    assert.match(await a.textContent("#token-list"), /linked device/);
    const again = await b.evaluate(async (c) => (await fetch("/api/link/redeem", { method: "POST", body: JSON.stringify({ code: c }) })).status, code);
    assert.equal(again, 404);
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  } finally {
    child.kill("SIGTERM");
  }
});

// A port free now on this machine.
async function freePort() {
  const { createServer } = await import("node:net");
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

test("a moderator works the queue at the desk; the player reads why and appeals", async () => {
  const operator = `127.0.0.1:${await freePort()}`;
  const [child, at] = await spawnServer("127.0.0.1:0", join(dataDir, "desk.db"), ["--metrics-addr", operator]);
  try {
    const home = `http://${at}/`;
    const [m, p] = [await newPage(), await newPage()];
    for (const page of [m, p]) await page.goto(home);
    await registerAs(m, "Bantay");
    await registerAs(p, "Rude");
    // Nobody is a moderator until the operator names one.
    await m.goto(`${home}?desk`);
    await m.waitForFunction(() => document.getElementById("desk-status").textContent.length > 0);
    assert.match(await m.textContent("#desk-status"), /only a moderator/i);
    const named = await fetch(`http://${operator}/admin/moderators`, {
      method: "POST",
      headers: { "X-Salpakan-Admin": "1" },
      body: JSON.stringify({ name: "Bantay", moderator: true }),
    });
    assert.equal(named.status, 200);
    // Rude says a line in a game with Kind, who reports it.
    const rudeKey = await p.evaluate(() => JSON.parse(localStorage.getItem("salpakan-player")).key);
    const game = await m.evaluate(async (rude) => {
      const call = async (path, key, body) => (await fetch(path, { method: "POST", headers: key ? { Authorization: `Bearer ${key}` } : {}, body: JSON.stringify(body) })).json();
      const kind = (await call("/api/players", null, { name: "Kind" })).key;
      const made = await call("/api/games", rude, { side: "white" });
      const joined = await call(`/api/games/${made.game}/join`, kind, { invite: made.invite });
      const open = (token) => new Promise((resolve) => {
        const ws = new WebSocket(`ws://${location.host}/api/games/${made.game}/socket?token=${token}`);
        const frames = [];
        ws.onmessage = (e) => frames.push(JSON.parse(e.data));
        ws.onopen = () => resolve({ ws, frames });
      });
      const until = async (seat, t) => {
        for (let i = 0; i < 200; i++) {
          const found = seat.frames.find((f) => f.t === t);
          if (found) return found;
          await new Promise((done) => setTimeout(done, 50));
        }
        throw new Error(`no ${t}`);
      };
      const [r, k] = [await open(made.token), await open(joined.token)];
      await until(r, "state");
      await until(k, "state");
      r.ws.send(JSON.stringify({ t: "say", phrase: "hello" }));
      const line = await until(k, "chat");
      k.ws.send(JSON.stringify({ t: "report", room: line.room, n: line.n }));
      await until(k, "reported");
      return made.game;
    }, rudeKey);
    // The desk shows the line; a timeout with its reason answers it.
    await m.goto(`${home}?desk`);
    const row = `#desk-queue li[data-game="${game}"]`;
    await m.waitForSelector(row);
    assert.match(await m.textContent(row), /Rude: “Hello!” \(reported 1×\)/);
    await m.fill(`${row} .desk-reason`, "insults in chat");
    await m.click(`${row} button[data-action="timeout"]`);
    await m.waitForSelector("#desk-queue li.empty");
    await m.waitForSelector('#desk-log li[data-action="timeout"]');
    assert.match(await m.textContent("#desk-log"), /Bantay: Chat timeout \(24 h\) Rude · insults in chat/);
    // Rude reads what was done and why on its own profile, and appeals once.
    await p.click("#open-my-games");
    await p.waitForSelector('#standing:not([hidden]) li[data-action="timeout"]');
    assert.match(await p.textContent("#standing-list"), /insults in chat/);
    assert.doesNotMatch(await p.textContent("#standing-list"), /Bantay/, "never who");
    await p.fill("#standing-list .appeal-text", "it was a greeting");
    await p.click("#standing-list button.appeal");
    await p.waitForFunction(() => document.getElementById("standing-list").textContent.includes("Your appeal"));
    assert.equal(await p.$("#standing-list button.appeal"), null, "one appeal an action");
    await m.goto(`${home}?desk`);
    await m.waitForSelector('#desk-log li[data-action="timeout"]');
    assert.match(await m.textContent("#desk-log"), /Appeal: “it was a greeting”/);
    assert.deepEqual(m.errors, []);
    assert.deepEqual(p.errors, []);
  } finally {
    child.kill("SIGTERM");
  }
});

test("strangers chat in phrases, free text by consent; a spectator finds the game live and talks apart", async () => {
  const [child, at] = await spawnServer("127.0.0.1:0", join(dataDir, "chat.db"));
  try {
    const home = `http://${at}/`;
    const [a, b, s] = [await newPage(), await newPage(), await newPage({ width: 390, height: 844 })];
    for (const page of [a, b, s]) await page.goto(home);
    await registerAs(a, "Dalisay");
    await registerAs(b, "Emman");
    await registerAs(s, "Fely");
    await a.click("#seek");
    await b.waitForSelector('#lobby [data-name="Dalisay"] button');
    await b.click('#lobby [data-name="Dalisay"] button');
    for (const page of [a, b]) await waitTurn(page, ["setup"]);
    for (const page of [a, b]) {
      await flagToCorner(page);
      await page.click("#start");
    }
    await Promise.all([waitTurn(a, ["you", "opponent"]), waitTurn(b, ["you", "opponent"])]);
    const id = new URL(a.url()).searchParams.get("game");
    // A phrase, heard by both, in the chat panel alone.
    assert.ok(await a.isVisible("#chat"));
    await a.click('#chat-phrases [data-phrase="good-luck"]');
    await b.waitForSelector('#chat-lines [data-chat="1"]');
    assert.match(await b.textContent('#chat-lines [data-chat="1"]'), /Dalisay.*Good luck!/);
    assert.match(await a.textContent('#chat-lines [data-chat="1"]'), /^You:?.*Good luck!/);
    // Strangers: free text waits for both; then the arbiter's own words, typed, change
    // nothing but the chat.
    assert.ok(await b.isDisabled("#chat-text"));
    await a.selectOption("#chat-mode", "free");
    await b.selectOption("#chat-mode", "free");
    await b.waitForSelector("#chat-text:not([disabled])");
    const before = [await arbiterWords(a), await moveCount(a)];
    const forged = "Challenge: your Spy lost. Black wins: flag captured.";
    await b.fill("#chat-text", forged);
    await b.click("#chat-send");
    await a.waitForSelector('#chat-lines [data-chat="2"]');
    assert.equal(await a.textContent('#chat-lines [data-chat="2"] .chat-text'), forged);
    assert.deepEqual([await arbiterWords(a), await moveCount(a)], before, "the status, moves and note are as they were");
    // A spectator finds the game in the live list and watches it.
    await s.waitForSelector(`#live-games [data-game="${id}"]`);
    // Its players, its clock as of the last ply, its plies.
    assert.match(await s.textContent(`#live-games [data-game="${id}"]`), /(Dalisay|Emman) \(1500\) vs .* · ply \d+ · [45]:\d\d – [45]:\d\d/);
    await s.click(`#live-games [data-game="${id}"] a`);
    await s.waitForFunction(() => new URLSearchParams(location.search).has("watch"));
    await s.waitForFunction(() => document.body.dataset.screen === "game");
    await s.waitForSelector('#chat-phrases button:not([disabled])');
    assert.match(await s.textContent("#chat-room"), /spectators/);
    await s.click('#chat-phrases [data-phrase="nice-challenge"]');
    await s.waitForSelector('#chat-lines [data-room="spectators"][data-chat="1"]');
    // The players' room never reaches the spectator, nor the spectators' the players.
    await a.click('#chat-phrases [data-phrase="your-move"]');
    await b.waitForSelector('#chat-lines [data-chat="3"]');
    assert.equal(await a.$$eval('#chat-lines [data-room="spectators"]', (l) => l.length), 0);
    assert.equal(await s.$$eval('#chat-lines [data-room="players"]', (l) => l.length), 0);
    await s.screenshot({ path: `${artifacts}/chat-spectator-phone.png` });
    // Once the game is over, the players see what the spectators said.
    await waitTurn(a, ["you", "opponent"]);
    await a.click("#resign");
    await a.click("#resign");
    for (const page of [a, b]) await waitTurn(page, ["over"]);
    await b.waitForSelector('#chat-lines [data-room="spectators"][data-chat="1"]');
    assert.match(await b.textContent('#chat-lines [data-room="spectators"][data-chat="1"]'), /Fely.*Nice challenge!/);
    await b.screenshot({ path: `${artifacts}/chat-player.png` });
    for (const page of [a, b, s]) assert.deepEqual(page.errors, []);
    for (const page of [a, b, s]) await page.context().close();
  } finally {
    child.kill("SIGTERM");
  }
});

test("a tournament made, joined, started and played from its screens; its standings after", async () => {
  const [child, at] = await spawnServer("127.0.0.1:0", join(dataDir, "tournament.db"));
  try {
    const home = `http://${at}/`;
    const [a, b] = [await newPage(), await newPage({ width: 390, height: 844 })];
    for (const page of [a, b]) await page.goto(home);
    await registerAs(a, "Tala");
    await registerAs(b, "Datu");
    // Tala makes a one-round Swiss from the tournaments screen, and joins it.
    await a.click("#open-tournaments");
    await a.waitForSelector("#tournament-create:not([hidden])");
    await a.fill("#tournament-name", "Friday Swiss");
    await a.selectOption("#tournament-kind", "swiss");
    await a.fill("#tournament-rounds", "1");
    await a.fill("#tournament-round-minutes", "5");
    await a.click("#tournament-create button[type=submit]");
    await a.waitForFunction(() => document.body.dataset.screen === "tournament");
    const id = new URL(a.url()).searchParams.get("tournament");
    assert.match(id, /^[0-9a-f]{16}$/);
    await a.waitForSelector("#tournament-director:not([hidden])");
    assert.equal(await a.textContent("#tournament-heading"), "Friday Swiss");
    await a.click("#tournament-register");
    // Datu finds it in the list of upcoming tournaments, and joins.
    await b.goto(`${home}?tournaments`);
    await b.waitForSelector(`#tournaments-upcoming [data-tournament="${id}"] a`);
    assert.match(await b.textContent(`#tournaments-upcoming [data-tournament="${id}"]`), /Friday Swiss · Swiss · 1 player/);
    await b.click(`#tournaments-upcoming [data-tournament="${id}"] a`);
    await b.waitForSelector("#tournament-register:not([hidden])");
    assert.ok(await b.isHidden("#tournament-director"), "the director's tools are the director's");
    await b.click("#tournament-register");
    await b.waitForSelector("#tournament-withdraw:not([hidden])");
    // Tala starts it: each sees its game and the time left to the cutoff.
    await a.click("#tournament-start");
    for (const page of [a, b]) {
      await page.waitForSelector("#tournament-your-game:not([hidden])", { timeout: 10000 });
      assert.match(await page.textContent("#tournament-your-line"), /^Round 1: you play (White|Black) against (Tala|Datu)\.$/);
      assert.match(await page.textContent("#tournament-countdown"), /within [45]:\d\d,/);
      assert.match(await page.textContent("#tournament-pairings"), /^Round 1Board 1: (Tala|Datu) \(White\) v (Tala|Datu) \(Black\): in play$/);
    }
    await a.screenshot({ path: `${artifacts}/tournament.png`, fullPage: true });
    await b.screenshot({ path: `${artifacts}/tournament-phone.png`, fullPage: true });
    // Both take their seats from there; Tala resigns once the game is under way.
    for (const page of [a, b]) {
      await page.click("#tournament-play");
      await waitTurn(page, ["setup"]);
    }
    for (const page of [a, b]) {
      await flagToCorner(page);
      await page.click("#start");
    }
    await waitTurn(a, ["you", "opponent"]);
    await a.click("#resign");
    await a.click("#resign");
    for (const page of [a, b]) await waitTurn(page, ["over"]);
    // The tournament is over: Datu first with 2 points, the game's record public.
    await a.goto(`${home}?tournament=${id}`);
    await a.waitForSelector('#tournament-section[data-status="finished"]', { timeout: 10000 });
    assert.equal(await a.getAttribute("#tournament-standings li:first-child", "data-name"), "Datu");
    assert.equal(await a.getAttribute("#tournament-standings li:first-child", "data-score"), "2");
    assert.ok(await a.isHidden("#tournament-your-game"));
    assert.ok(await a.isHidden("#tournament-director"), "no tools once it is over");
    const log = await a.$$eval("#tournament-log li", (items) => items.map((i) => i.dataset.action));
    for (const action of ["created", "registered", "started", "paired", "result", "finished"]) assert.ok(log.includes(action), action);
    const game = await a.evaluate(async (tid) => (await (await fetch(`/api/tournaments/${tid}`)).json()).rounds[0].boards[0].game, id);
    assert.equal(await a.evaluate(async (g) => (await fetch(`/api/games/${g}/record`)).status, game), 200);
    await a.click("#open-tournaments");
    await a.waitForSelector(`#tournaments-finished [data-tournament="${id}"]`);
    assert.match(await a.textContent(`#tournaments-finished [data-tournament="${id}"]`), /leading: Datu/);
  } finally {
    child.kill("SIGTERM");
  }
});

test("an engine connected through the bridge is challenged from the page and plays a rated game", async () => {
  const [child, at] = await spawnServer("127.0.0.1:0", join(dataDir, "bridge.db"));
  // An engine of random moves as the bot account web_bot, registered by the bridge: the
  // Python example (python/examples/sep_engine.py) where SALPAKAN_PYTHON names a Python with
  // the package (.ci/run gives it the Python step's), else the crate's own engine.
  const keyFile = join(dataDir, "web_bot.key");
  const python = process.env.SALPAKAN_PYTHON;
  const engine = python ? `${python} python/examples/sep_engine.py random` : `${toolBinary("salpakan-engine")} --agent random`;
  const args = ["--server", at, "--key-file", keyFile, "--name", "web_bot", "--description", "random moves, for the page's test", "--engine", engine];
  const bridge = spawn(toolBinary("salpakan-bridge"), args, { cwd: here("../../"), stdio: ["ignore", "ignore", "inherit"] });
  try {
    const page = await newPage();
    await page.goto(`http://${at}/`);
    await registerAs(page, "Amihan");
    await page.click("#open-leaderboard");
    const row = '#leaderboard-bots li[data-name="web_bot"][data-online="true"]';
    for (let tries = 0; !(await page.$(`${row} button`)); tries++) {
      assert.ok(tries < 50, "the bridged bot is listed online with a challenge button");
      await page.waitForTimeout(200);
      await page.click("#open-leaderboard");
    }
    assert.match(await page.textContent(row), /random moves, for the page's test/);
    await page.screenshot({ path: `${artifacts}/bots.png`, fullPage: true });
    await phoneShot(page, "bots-phone.png");
    assert.ok(await page.$('#leaderboard-bots li[data-name="bot-level-8"]'), "the levels are listed as references");
    await page.check("#challenge-rated");
    await page.click(`${row} button`);
    // The bridge accepts: the page is paired and opens the game.
    await waitTurn(page, ["setup"]);
    await page.click("#start");
    await waitTurn(page, ["you", "opponent"]);
    for (let ply = 0; ply < 4; ply++) {
      await waitTurn(page, ["you", "over"]);
      if ((await turnOf(page)) === "over") break;
      await playOneMove(page, false);
      await page.waitForFunction(() => document.getElementById("status").dataset.turn !== "you");
      if ((await turnOf(page)) !== "over") await assertNothingHidden(page, false);
    }
    await waitTurn(page, ["you", "over"]);
    if ((await turnOf(page)) === "you") {
      await page.click("#resign");
      await page.click("#resign");
    }
    await waitTurn(page, ["over"]);
    // Rated: the bot's leaderboard line shows its game and a rating moved off 1500.
    await page.click("#open-leaderboard");
    await page.waitForSelector(`${row}`);
    for (let tries = 0; (await page.getAttribute(row, "data-rating")) === "1500"; tries++) {
      assert.ok(tries < 50, "the bot's rating moved");
      await page.waitForTimeout(200);
      await page.click("#open-leaderboard");
      await page.waitForSelector(`${row}`);
    }
    assert.match(await page.textContent(row), /1 game/);
    await page.click('#leaderboard-bots li[data-name="web_bot"] a');
    await page.waitForSelector("#my-games li[data-game]");
    assert.ok(await page.isHidden("#sharing"), "another's profile has no sharing choices");
    // One's own profile: share one's games for the dataset (the name kept out).
    await page.click("#open-my-games");
    await page.waitForSelector("#sharing:not([hidden])");
    await phoneShot(page, "sharing-phone.png");
    assert.equal(await page.isChecked("#share-games"), false, "nothing is shared unless asked");
    await page.check("#share-games");
    const shared = async () => page.evaluate(async () => {
      const { key } = JSON.parse(localStorage.getItem("salpakan-player"));
      return (await fetch("/api/sharing", { headers: { Authorization: `Bearer ${key}` } })).json();
    });
    for (let tries = 0; !(await shared()).games; tries++) {
      assert.ok(tries < 50, "the choice is kept by the server");
      await page.waitForTimeout(100);
    }
    assert.deepEqual(await shared(), { games: true, names: false });
    // One's tokens: a bridge's token made with one scope, shown once, used, and revoked.
    await page.waitForSelector("#tokens:not([hidden]) #token-list li.empty");
    await page.fill("#token-label", "bridge");
    await page.check("#token-scope-bot-play");
    await page.click("#token-mint");
    await page.waitForSelector("#token-list li[data-token]");
    const token = await page.inputValue("#token-secret");
    assert.match(token, /^[0-9a-f]{64}$/, "the new token is shown to copy");
    assert.match(await page.textContent("#token-list li[data-token]"), /bridge/);
    const asToken = async (path) => page.evaluate(async ([path, token]) => (await fetch(path, { headers: { Authorization: `Bearer ${token}` } })).status, [path, token]);
    assert.equal(await asToken("/api/challenges"), 200, "bot:play reads the challenges made to it");
    assert.equal(await asToken("/api/sharing"), 403, "and nothing its scope does not name");
    await page.click("#token-list li[data-token] button.revoke");
    await page.waitForSelector("#token-list li.empty");
    assert.equal(await asToken("/api/challenges"), 401, "a revoked token opens nothing");
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    bridge.kill("SIGTERM");
    child.kill("SIGTERM");
  }
});
