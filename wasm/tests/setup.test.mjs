// The npm package's formations and vocabulary: Setup (random from a secret seed unless one is
// given, from cells in an array or a typed array, from text), the constants, rank codes and
// names, square names, setup zones and whether a challenge captures a Flag, all from the crate.
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  ARMY,
  Game,
  NO_PIECE,
  NUM_ACTIONS,
  NUM_RANKS,
  NUM_SQUARES,
  OBSERVATION_VERSION,
  Setup,
  TEXT_FORMAT,
  Tracker,
  capturesFlag,
  challenge,
  rankCode,
  rankName,
  setupZone,
  squareIndex,
  squareName,
} from "../pkg/node/salpakan.js";

const key = (setup) => {
  const text = String(setup);
  setup.free();
  return text;
};

test("a formation without a seed comes from 64 secret bits: 300,000 never repeat", () => {
  // Seeds of 32 bits would repeat a formation here about ten times (10^9 seeds: about 45):
  // the birthday bound, n^2 / 2N.
  const seen = new Set();
  for (let i = 0; i < 300_000; i++) seen.add(key(Setup.random("white")));
  assert.equal(seen.size, 300_000);
});

test("the secret seed is 8 bytes of crypto.getRandomValues; a given seed draws nothing", () => {
  const real = crypto.getRandomValues.bind(crypto);
  const asked = [];
  crypto.getRandomValues = (array) => {
    asked.push(array.byteLength);
    return real(array);
  };
  try {
    key(Setup.random("black"));
    key(Setup.random("white", undefined, 4));
    key(Setup.random("white", 12345n));
    key(Setup.random("white", 7));
  } finally {
    crypto.getRandomValues = real;
  }
  assert.deepEqual(asked, [8, 8]);
});

test("a seed is a number up to 2^53 or a BigInt below 2^64, and keys its formation", () => {
  assert.equal(key(Setup.random("white", 7)), key(Setup.random("white", 7n)));
  assert.notEqual(key(Setup.random("white", 7)), key(Setup.random("white", 8)));
  assert.equal(key(Setup.random("white", 2n ** 64n - 1n)), key(Setup.random("white", 2n ** 64n - 1n)));
  // A game from seed s deals White's formation from s: the same as Setup.random's.
  const game = new Game(2n ** 63n);
  const white = game.view("white").cells.map((c) => (c && c.owner === "own" ? c.rank : NO_PIECE));
  assert.deepEqual(white, [...Setup.random("white", 2n ** 63n).cells()]);
  game.free();
  for (const bad of [-1, -1n, 2n ** 64n, 1.5, 2 ** 60, "7"]) {
    assert.throws(() => Setup.random("white", bad), (e) => e.name === "SalpakanError" && e.kind === "argument", String(bad));
  }
});

test("formations from cells accept arrays and typed arrays, and give their cells back", () => {
  const setup = Setup.random("black", 3);
  const cells = setup.cells();
  assert.ok(cells instanceof Uint8Array);
  assert.equal(cells.length, NUM_SQUARES);
  for (const given of [cells, [...cells], Float64Array.from(cells), Int32Array.from(cells)]) {
    const again = Setup.fromCells("black", given);
    assert.deepEqual([...again.cells()], [...cells]);
    again.free();
  }
  assert.equal(Setup.parse(String(setup)).side, "black");
  const game = Game.fromCells(Setup.random("white", 1).cells(), cells);
  assert.equal(game.sideToMove, "white");
  game.free();
  for (const bad of ["cells", { length: 72 }, new DataView(new ArrayBuffer(72)), 72]) {
    assert.throws(() => Setup.fromCells("black", bad), /cells are 72 numbers, in an array or a typed array/);
  }
  assert.throws(() => Setup.fromCells("black", cells.subarray(1)), (e) => e.kind === "argument" && /71 cells/.test(e.message));
  setup.free();
});

test("a tracker takes its enemy squares as an array or a typed array", () => {
  const game = new Game(5);
  const own = Setup.random("white", 5).cells();
  const enemy = game.view("white").cells.flatMap((c, i) => (c && c.owner === "enemy" ? [i] : []));
  for (const squares of [enemy, Uint8Array.from(enemy)]) {
    const tracker = new Tracker("white", own, squares);
    assert.deepEqual([...tracker.enemySquares()].sort((a, b) => a - b), enemy);
    tracker.free();
  }
  game.free();
});

test("the constants, codes, names, squares and zones are the crate's", () => {
  assert.equal(NUM_SQUARES, 72);
  assert.equal(NO_PIECE, 255);
  assert.equal(NUM_ACTIONS, 288);
  assert.equal(NUM_RANKS, 15);
  assert.ok(Object.isFrozen(ARMY));
  assert.equal(ARMY.length, 21);
  assert.deepEqual([...ARMY].sort((a, b) => a - b), [...ARMY]);
  // Every random formation holds exactly the army.
  const cells = [...Setup.random("white", 9).cells()].filter((c) => c !== NO_PIECE).sort((a, b) => a - b);
  assert.deepEqual(cells, [...ARMY]);
  const game = new Game(1);
  const pieces = Array.from({ length: NUM_SQUARES }, (_, i) => game.pieceAt(i)).filter(Boolean);
  for (const piece of pieces) {
    assert.equal(rankCode(piece.rank), piece.code);
    assert.equal(rankName(piece.rank), piece.name);
  }
  game.free();
  assert.throws(() => rankCode(NUM_RANKS), (e) => e.kind === "argument");
  for (let i = 0; i < NUM_SQUARES; i++) assert.equal(squareIndex(squareName(i)), i);
  assert.equal(squareName("e4"), "e4");
  assert.throws(() => squareName(72), (e) => e.kind === "argument");
  assert.deepEqual([...setupZone("white")], [...Array(27).keys()]);
  assert.deepEqual([...setupZone("black", 4)], [...Array(36).keys()].map((i) => i + 36));
  assert.throws(() => setupZone("white", 5), (e) => e.kind === "argument");
});

test("capturesFlag says when a challenge removes a Flag, as the game decides", () => {
  for (let a = 0; a < NUM_RANKS; a++) {
    for (let d = 0; d < NUM_RANKS; d++) {
      const outcome = challenge(a, d);
      const expected = (outcome === "win" && d === 0) || (outcome === "lose" && a === 0);
      assert.equal(capturesFlag(a, d), expected, `${rankCode(a)} attacks ${rankCode(d)}`);
    }
  }
});

// Each observation layout's tensors of one fixed game (both sides, after every ply), hashed: a
// change to the tensor fails here unless OBSERVATION_VERSION is raised and its digest added
// (the crate and the Python package pin theirs the same way).
const OBSERVATION_DIGESTS = { 1: "cbcc953a9836a6bb24712b47abfcf9d18386e4ea88297fd79b93386a28e4b339" };

test("the observation layout is the one its version names", async () => {
  const { createHash } = await import("node:crypto");
  const game = new Game(17, "white", 3, 50);
  const digest = createHash("sha256");
  let state = 12345;
  for (let ply = 0; ply < 60; ply++) {
    for (const side of ["white", "black"]) digest.update(Buffer.from(game.observation(side).buffer));
    if (game.status.state !== "ongoing") break;
    const moves = game.legalMoves();
    state = (state * 1103515245 + 12345) % 2147483648;
    game.play(moves[state % moves.length]);
  }
  game.free();
  assert.ok(Number.isInteger(OBSERVATION_VERSION) && OBSERVATION_VERSION >= 1);
  const found = digest.digest("hex");
  assert.equal(found, OBSERVATION_DIGESTS[OBSERVATION_VERSION], `raise OBSERVATION_VERSION and pin ${found}`);
});

test("a record says its text format and a newer one is refused as newer", () => {
  const game = new Game(3);
  const record = game.record();
  game.free();
  const line = `[Format "${TEXT_FORMAT}"]\n`;
  assert.ok(Number.isInteger(TEXT_FORMAT) && TEXT_FORMAT >= 1);
  assert.ok(record.startsWith(line), record);
  // A record from before the tag is format 1 and reads the same.
  const older = Game.fromRecord(record.slice(line.length));
  assert.equal(older.record(), record);
  older.free();
  const newer = record.replace(line, `[Format "${TEXT_FORMAT + 1}"]\n`);
  assert.throws(() => Game.fromRecord(newer), (e) => e.kind === "text" && /from a later release/.test(e.message));
});
