// The page as an app, in real Chromium against the real arbiter server: a screen for each
// moment with nothing of another left over, at a desktop's and a phone's size; a rated game's
// rating change as the server's history has it; bots shown as bots; quick pairing's countdown
// and Cancel; the installed page's cache, which holds no API or tokened address, and the bot
// in the browser playing with the network cut; a whole online game in Filipino; formations
// saved on the device and never sent before Start. Screenshots go to the artifacts folder.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import en from "../src/i18n/en.js";
import fil, { FILIPINO_RANKS } from "../src/i18n/fil.js";
import {
  artifacts,
  assertNothingHidden,
  flagToCorner,
  launchBrowser,
  newPage as pageIn,
  playOneMove,
  serverBinary,
  spawnServer,
  turnOf,
  waitTurn,
} from "./harness.mjs";

let browser;
let server;
let address;
let dataDir;

before(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "salpakan-app-"));
  [server, address] = await spawnServer(serverBinary(), "127.0.0.1:0", join(dataDir, "app.db"), ["--pool-bot-secs", "3"]);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  server?.kill("SIGTERM");
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const url = (search = "") => `http://${address}/${search}`;
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const newPage = (viewport = DESKTOP) => pageIn(browser, viewport);

// Registers `name` on `page` (in the lobby).
async function registerAs(page, name) {
  await page.fill("#player-name", name);
  await page.click("#register");
  await page.waitForSelector('#lobby-panel[data-player="named"]');
}

// The screen the page says it shows, and the elements of other screens it shows (none may).
async function screenOf(page) {
  return page.evaluate(() => {
    const screen = document.body.dataset.screen;
    const router = { setup: "game", game: "game", over: "game" }[screen] ?? screen;
    const leftovers = [...document.querySelectorAll("body [data-screen]")]
      .filter((el) => !el.hidden && !el.dataset.screen.split(" ").includes(router))
      .map((el) => el.id || el.className);
    return { screen, leftovers };
  });
}

// The board and the game's controls that are not in the viewport without scrolling (their
// ids, or "scrolled" if the page is).
async function outsideTheViewport(page) {
  return page.evaluate(() => {
    const visible = (el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight + 1 && r.left >= 0 && r.right <= innerWidth + 1;
    };
    const controls = [...document.querySelectorAll(".controls button")].filter((b) => !b.hidden && b.offsetParent);
    const outside = [document.getElementById("board"), ...controls].filter((el) => !visible(el)).map((el) => el.id);
    return scrollY === 0 ? outside : [...outside, "scrolled"];
  });
}

test("a screen for each moment, nothing of another left, the game playable at both sizes", async () => {
  const page = await newPage();
  await page.goto(url());
  await registerAs(page, "Bituin");
  const shots = [];
  const look = async (name, expected) => {
    await page.waitForFunction((want) => document.body.dataset.screen === want, expected);
    for (const [size, viewport] of [["desktop", DESKTOP], ["phone", PHONE]]) {
      await page.setViewportSize(viewport);
      await page.evaluate(() => window.scrollTo(0, 0));
      // The picture first: on a failure it shows what was wrong.
      const path = `${artifacts}/screen-${name}-${size}.png`;
      await page.screenshot({ path });
      shots.push(path);
      const { screen, leftovers } = await screenOf(page);
      assert.equal(screen, expected);
      assert.deepEqual(leftovers, [], `${expected} at ${size}: elements of another screen`);
      if (["setup", "game"].includes(expected)) {
        const outside = await outsideTheViewport(page);
        assert.deepEqual(outside, [], `${expected} at ${size}: the board and its controls need scrolling`);
      }
    }
    await page.setViewportSize(DESKTOP);
  };
  await look("lobby", "lobby");
  // A game against the server's bot: its setup, its play, its end, its replay.
  await page.selectOption("#bot-choice", "random");
  await page.click("#play-bot");
  await waitTurn(page, ["setup"]);
  await look("setup", "setup");
  await flagToCorner(page);
  await page.click("#start");
  await waitTurn(page, ["you", "bot"]);
  await waitTurn(page, ["you"]);
  await look("game", "game");
  // The lobby lists the game in play, and its link takes the seat back (Back does too).
  const id = new URL(page.url()).searchParams.get("game");
  await page.click("#open-lobby");
  await page.waitForSelector(`#your-games li[data-game="${id}"] a`);
  assert.match(await page.textContent(`#your-games li[data-game="${id}"]`), /against Random: your move/);
  await page.goBack();
  await waitTurn(page, ["you"]);
  await page.click("#open-lobby");
  await page.click(`#your-games li[data-game="${id}"] a`);
  await waitTurn(page, ["you"]);
  assert.equal(new URL(page.url()).searchParams.get("game"), id);
  // A bot is shown as one, and is offered no draw.
  const bar = await page.$eval('#player-top', (el) => ({ bot: el.dataset.bot, text: el.textContent }));
  assert.equal(bar.bot, "true", bar.text);
  assert.match(bar.text, /Random/);
  assert.doesNotMatch(bar.text, /Recruit/);
  assert.ok(await page.isDisabled("#offer-draw"), "no draw offer to a bot");
  await page.click("#resign");
  await page.click("#resign");
  await waitTurn(page, ["over"]);
  await look("over", "over");
  // The bot is named as the page names bots, and nothing said during the game stays.
  assert.match(await page.textContent("#status"), /^Random wins/);
  assert.equal(await page.textContent("#hint"), "");
  assert.ok(await page.isHidden("#presence"), "a bot's presence is not news");
  // A finished game is no longer in play.
  await page.click("#open-lobby");
  await page.waitForSelector('#your-games[data-looked="true"]', { state: "attached" });
  assert.equal(await page.$(`#your-games li[data-game="${id}"]`), null);
  await page.goBack();
  await waitTurn(page, ["over"]);
  const replay = await page.getAttribute("#replay-link", "href");
  await page.goto(url(replay));
  await page.waitForSelector('#replay-controls:not([hidden])[data-ply="0"]');
  await look("replay", "replay");
  assert.match(await page.textContent("#replay-title"), /^Random \(White\) vs Bituin|^Bituin \(White\) vs Random/);
  await page.click("#open-my-games");
  await page.waitForSelector("#my-games li[data-game]");
  await look("profile", "profile");
  assert.doesNotMatch(await page.textContent("#profile-section"), /bot-random/);
  await page.click("#open-leaderboard");
  await page.waitForSelector("#leaderboard-bots li[data-name]");
  await look("leaderboard", "leaderboard");
  // Back goes back: the profile, then the replay; a reload lands on the same screen.
  await page.goBack();
  await page.waitForFunction(() => document.body.dataset.screen === "profile");
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.screen === "profile");
  assert.equal(shots.length, 14);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// Plays `plies` plies of the game on `a` and `b` (whoever is to move), then resigns on `a`.
async function playThenResign(a, b, plies) {
  for (let done = 0; done < plies; done++) {
    await Promise.all([waitTurn(a, ["you", "opponent"]), waitTurn(b, ["you", "opponent"])]);
    const mover = (await turnOf(a)) === "you" ? a : b;
    const count = await mover.$$eval("#moves li", (l) => l.length);
    await playOneMove(mover, false);
    for (const page of [a, b]) await page.waitForFunction((n) => document.querySelectorAll("#moves li").length > n, count);
  }
  await waitTurn(a, ["you", "opponent"]);
  await a.click("#resign");
  await a.click("#resign");
  for (const page of [a, b]) await waitTurn(page, ["over"]);
}

test("a rated game says each player's rating change, as the server's history has it", async () => {
  const [a, b] = [await newPage(), await newPage()];
  for (const page of [a, b]) await page.goto(url());
  await registerAs(a, "Amihan");
  await registerAs(b, "Habagat");
  await a.check("#rated");
  await a.click("#seek");
  await b.waitForSelector('#lobby [data-name="Amihan"] button');
  await b.click('#lobby [data-name="Amihan"] button');
  for (const page of [a, b]) {
    await waitTurn(page, ["setup"]);
    await flagToCorner(page);
    await page.click("#start");
  }
  await playThenResign(a, b, 4);
  for (const [page, name] of [[a, "Amihan"], [b, "Habagat"]]) {
    await page.waitForSelector("#rating-change:not([hidden])");
    const shown = Number(await page.getAttribute("#rating-change", "data-delta"));
    const history = await page.evaluate(async (n) => (await (await fetch(`/api/players/${n}`)).json()).history[0], name);
    assert.equal(shown, history.after - history.before, name);
    assert.ok(name === "Amihan" ? shown < 0 : shown > 0, `${name}: ${shown}`);
  }
  // In my games, and on the profile.
  await a.click("#open-my-games");
  await a.waitForSelector("#my-games li[data-delta]");
  assert.ok(Number(await a.getAttribute("#my-games li[data-delta]", "data-delta")) < 0);
  assert.ok((await a.$$(".rating-history li")).length === 1);
  for (const page of [a, b]) assert.deepEqual(page.errors, []);
  for (const page of [a, b]) await page.context().close();
});

test("quick pairing counts down to the server's bot, and Cancel leaves the pool", async () => {
  const page = await newPage();
  await page.goto(url());
  await registerAs(page, "Kidlat");
  await page.click("#quick-pair");
  await page.waitForSelector("#pool-wait:not([hidden])");
  const first = Number(await page.getAttribute("#pool-wait", "data-left"));
  assert.ok(first >= 2 && first <= 3, String(first));
  await page.click("#pool-cancel");
  await page.waitForSelector("#pool-wait", { state: "hidden" });
  // Nobody is paired after the countdown would have ended.
  await page.waitForTimeout(3500);
  assert.equal(await page.evaluate(() => document.body.dataset.screen), "lobby");
  // Waiting to the end: the server's bot takes the other seat, shown as a bot.
  await page.click("#quick-pair");
  await waitTurn(page, ["setup"], 15000);
  await page.waitForSelector('#player-top[data-bot="true"]');
  assert.ok(await page.isDisabled("#offer-draw"));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("the installed page caches no API or tokened address, and the bot plays offline", async () => {
  const page = await newPage();
  await page.goto(url());
  await page.waitForFunction(async () => (await navigator.serviceWorker.ready).active !== null);
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  // A whole online game through the server, with its tokened address and sockets.
  await registerAs(page, "Ulan");
  await page.selectOption("#bot-choice", "random");
  await page.click("#play-bot");
  await waitTurn(page, ["setup"]);
  await page.click("#start");
  await waitTurn(page, ["you"]);
  await playOneMove(page, false);
  await page.click("#resign");
  await page.click("#resign");
  await waitTurn(page, ["over"]);
  const cached = await page.evaluate(async () => {
    const urls = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    }
    return urls;
  });
  assert.ok(cached.length > 10, `${cached.length} files cached`);
  for (const cachedUrl of cached) {
    const { pathname, search } = new URL(cachedUrl);
    assert.ok(!pathname.startsWith("/api"), cachedUrl);
    assert.equal(search, "", cachedUrl);
  }
  assert.ok(cached.some((u) => u.endsWith(".wasm")), "the engine is kept");
  // The network cut: the page comes back from the cache, and its bot plays.
  await page.context().setOffline(true);
  await page.goto(url());
  await page.waitForFunction(() => document.body.dataset.server === "none");
  await page.click("#start");
  for (let ply = 0; ply < 3; ply++) {
    await waitTurn(page, ["you"], 20000);
    await playOneMove(page, false);
  }
  await page.waitForFunction(() => document.querySelectorAll("#moves li").length >= 5);
  await page.context().setOffline(false);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a whole online game in Filipino: every word translated, no enemy rank anywhere", async () => {
  const page = await newPage(PHONE);
  await page.goto(url());
  await page.selectOption("#lang-choice", "fil");
  await page.waitForFunction(() => document.documentElement.lang === "fil");
  await page.check("#filipino-ranks");
  assert.equal(await page.textContent("#register"), fil["lobby.register"]);
  await registerAs(page, "Dalampasigan");
  await page.selectOption("#bot-choice", "random");
  await page.click("#play-bot");
  await waitTurn(page, ["setup"]);
  await page.click("#start");
  // Every rank's name, English and Filipino: none may name an enemy piece.
  const names = [...new Set([...Object.values(FILIPINO_RANKS), "Flag", "Private", "Sergeant", "Lieutenant", "Captain", "Major", "Colonel", "General", "Spy"])];
  const keys = Object.keys(en);
  for (let ply = 0; ply < 8; ply++) {
    await waitTurn(page, ["you", "over"], 20000);
    if ((await turnOf(page)) === "over") break;
    await assertNothingHidden(page, false, names);
    const text = await page.evaluate(() => document.body.innerText);
    const untranslated = keys.filter((key) => key.includes(".") && text.includes(key));
    assert.deepEqual(untranslated, [], "a key shown as it is");
    await playOneMove(page, ply > 3);
  }
  assert.equal(await page.textContent("#resign"), fil["button.resign"]);
  await page.screenshot({ path: `${artifacts}/fil-game-phone.png` });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("a saved formation stays on the device: nothing of it is sent before Start", async () => {
  const page = await newPage();
  const sent = [];
  page.on("request", (request) => sent.push(`${request.url()} ${request.postData() ?? ""}`));
  page.on("websocket", (socket) => socket.on("framesent", (frame) => sent.push(String(frame.payload))));
  await page.goto(url());
  await registerAs(page, "Tala");
  await page.selectOption("#bot-choice", "random");
  await page.click("#play-bot");
  await waitTurn(page, ["setup"]);
  const corner = await flagToCorner(page);
  await page.fill("#formation-name", "corner");
  await page.click("#formation-save");
  await page.waitForFunction(() => document.getElementById("formation-note").textContent.length > 0);
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem("salpakan-formations")));
  assert.equal(saved[0].name, "corner");
  // A new game: a new random formation, then the saved one put back, by name.
  await page.click("#reroll");
  await page.selectOption("#formation-choice", "corner");
  await page.click("#formation-use");
  await page.waitForSelector(`[data-square="${corner}"][data-rank="FL"]`);
  const cells = await page.$$eval('[data-piece="own"]', (squares) => squares.map((s) => `${s.dataset.square}:${s.dataset.rank}`).sort());
  const formation = JSON.stringify(saved[0].grid);
  assert.ok(sent.every((line) => !line.includes(formation) && !line.includes('"setup"')), "sent before Start");
  await page.click("#start");
  await waitTurn(page, ["you", "bot"]);
  assert.ok(sent.some((line) => line.includes('"setup"')), "the formation goes at Start");
  assert.equal(cells.length, 21);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
