// The npm package in Node.js: the public rule vectors replayed announcement by announcement,
// views that hide every enemy rank, and the API's shapes and errors.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { Game, Greedy, Ismcts, Level, Random, Tracker, challenge, observationShape } from "../pkg/node/salpakan.js";

const VECTORS = fileURLToPath(new URL("../../tests/data/games.txt", import.meta.url));
const REASONS = {
  "flag captured": "flag-captured",
  "flag reached the far end": "flag-reached-end",
  resignation: "resignation",
  agreement: "agreement",
  "move limit": "move-limit",
};

function readVectors() {
  const games = [];
  let game = null;
  for (const raw of readFileSync(VECTORS, "utf8").split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    if (line.startsWith("game ")) game = { name: line.slice(5), rules: {}, perft: [], plies: [] };
    else if (line === "end") { games.push(game); game = null; }
    else if (line.startsWith("rules")) {
      for (const word of line.split(/\s+/).slice(1)) {
        const [key, value] = word.split("=");
        game.rules[key] = Number(value);
      }
    } else if (line.startsWith("white ") || line.startsWith("black ")) {
      game[line.slice(0, 5)] = line.slice(6);
    } else if (line.startsWith("first ")) game.first = line.split(/\s+/)[1];
    else if (line.startsWith("perft ")) {
      const [, depth, nodes] = line.split(/\s+/);
      game.perft.push([Number(depth), Number(nodes)]);
    } else {
      const [movePart, status] = line.split("|");
      const [move, announcement] = movePart.trim().split(/\s+/);
      game.plies.push([move, announcement, status.trim()]);
    }
  }
  return games;
}

function statusOf(text) {
  if (text === "ongoing") return { state: "ongoing", winner: null, reason: null };
  if (text.includes(" wins, ")) {
    const [winner, reason] = text.split(" wins, ");
    return { state: "won", winner, reason: REASONS[reason] };
  }
  return { state: "drawn", winner: null, reason: REASONS[text.replace("draw, ", "")] };
}

function gameOf(vector) {
  return Game.fromSetups(
    vector.white,
    vector.black.toLowerCase(),
    vector.first,
    vector.rules.setup_rows ?? 3,
    vector.rules.move_limit ?? 0,
  );
}

test("every public rule vector replays with its announcements", () => {
  const vectors = readVectors();
  assert.ok(vectors.length >= 5);
  let plies = 0;
  for (const vector of vectors) {
    const game = gameOf(vector);
    for (const [depth, nodes] of vector.perft) assert.equal(game.perft(depth), nodes, vector.name);
    for (const [move, announcement, status] of vector.plies) {
      const report = game.play(move);
      assert.equal(report.outcome, announcement === "move" ? null : announcement, `${vector.name} ${move}`);
      assert.equal(report.challenge, announcement !== "move");
      assert.deepEqual({ ...report.status }, statusOf(status), `${vector.name} ${move}`);
      plies += 1;
    }
    game.free();
  }
  assert.ok(plies >= 40);
});

test("views hide every enemy rank", () => {
  const game = new Game(9);
  const bot = new Random(9);
  for (let i = 0; i < 80 && game.status.state === "ongoing"; i++) game.play(bot.choose(game, game.sideToMove));
  for (const side of ["white", "black"]) {
    const view = game.view(side);
    let enemies = 0;
    for (const cell of view.cells) {
      if (cell === null) continue;
      if (cell.owner === "enemy") {
        enemies += 1;
        assert.deepEqual(Object.keys(cell), ["owner"], "an enemy cell holds nothing but its owner");
      } else {
        assert.equal(cell.owner, "own");
        assert.equal(typeof cell.rank, "number");
      }
    }
    const hidden = (view.text.match(/\b(xx|XX)\b/g) ?? []).length;
    assert.equal(hidden, enemies);
    // The same public history with other hidden ranks gives the same view: a sample.
    const sample = game.sample(side, 3);
    assert.deepEqual(sample.view(side), view);
    sample.free();
  }
  game.free();
});

test("the public view shows sides and no rank, whatever the hidden ranks", () => {
  const game = new Game(9);
  const bot = new Random(9);
  for (let i = 0; i < 80 && game.status.state === "ongoing"; i++) game.play(bot.choose(game, game.sideToMove));
  const view = game.publicView();
  assert.equal(view.cells.length, 72);
  assert.ok(view.cells.every((c) => c === null || c === "white" || c === "black"));
  const white = game.view("white");
  view.cells.forEach((side, square) => assert.equal(side === null, white.cells[square] === null));
  assert.equal(view.sideToMove, game.sideToMove);
  assert.equal(view.ply, game.ply);
  assert.deepEqual({ ...view.status }, { ...game.status });
  assert.ok(!/\b(FL|fl|SP|sp|PV|pv|5G|5g)\b/.test(view.text));
  for (const side of ["white", "black"]) {
    const sample = game.sample(side, 4);
    assert.deepEqual(sample.publicView(), view);
    sample.free();
  }
  game.free();
});

test("fromCells, statuses, moves as text and as {from, to}, and errors", () => {
  const white = new Array(72).fill(255);
  const black = new Array(72).fill(255);
  const random = new Game(4);
  for (let s = 0; s < 72; s++) {
    const p = random.pieceAt(s);
    if (p) (p.side === "white" ? white : black)[s] = p.rank;
  }
  const game = Game.fromCells(white, black, 1, 3, 0);
  assert.equal(game.sideToMove, "black");
  assert.deepEqual({ ...game.status }, { state: "ongoing", winner: null, reason: null });
  const [first] = game.legalMoves();
  assert.match(first, /^[a-i][1-8]-[a-i][1-8]$/);
  const [from, to] = first.split("-");
  const report = game.play({ from, to });
  assert.equal(report.move, first);
  const refused = (kind, pattern) => (e) =>
    e instanceof Error && e.name === "SalpakanError" && e.kind === kind && pattern.test(e.message);
  assert.throws(() => game.play("a1-a3"), refused("illegal-move", /a1/));
  assert.throws(() => game.play("nonsense"), refused("text", /nonsense/));
  assert.throws(() => Game.fromCells(new Array(72).fill(255), black, 0), refused("setup", /Flag|21|piece/i));
  assert.deepEqual({ ...game.resign("white") }, { state: "won", winner: "black", reason: "resignation" });
  assert.throws(() => game.play(game.legalMoves()[0] ?? "e3-e4"), refused("game-over", /over/));
  const drawn = new Game(5);
  assert.deepEqual({ ...drawn.agreeDraw() }, { state: "drawn", winner: null, reason: "agreement" });
  assert.equal(challenge(14, 13), "win");
  for (const g of [game, drawn, random]) g.free();
});

test("beliefs, observations, masks, records and players", () => {
  const game = new Game(11);
  const greedy = new Greedy(1);
  const search = new Ismcts(2, 300);
  assert.equal(search.budget, 300);
  assert.equal(new Ismcts(2).budget, Ismcts.defaultBudget());
  assert.equal(Ismcts.defaultBudget(), 10000);
  while (game.status.state === "ongoing" && game.ply < 60) {
    const side = game.sideToMove;
    game.play((side === "white" ? greedy : search).choose(game, side));
  }
  const [planes, rows, files] = observationShape();
  const observation = game.observation("white");
  assert.ok(observation instanceof Float32Array);
  assert.equal(observation.length, planes * rows * files);
  const beliefs = game.beliefs("black");
  assert.equal(beliefs.length, 72 * 15);
  const view = game.view("black");
  for (let s = 0; s < 72; s++) {
    let total = 0;
    for (let r = 0; r < 15; r++) total += beliefs[s * 15 + r];
    assert.ok(Math.abs(total - (view.cells[s] ? 1 : 0)) < 1e-9, `square ${s}`);
  }
  const mask = game.legalActionMask();
  assert.equal(mask.length, 288);
  assert.equal(mask.reduce((a, b) => a + b, 0), game.legalMoves().length);
  const copy = Game.fromRecord(game.record());
  assert.equal(copy.toText(), game.toText());
  if (game.status.state === "ongoing") {
    const other = game.sideToMove === "white" ? "black" : "white";
    assert.throws(() => greedy.choose(game, other), /turn/);
  }
  // The same seed, the same choice, from a player made afresh.
  const fresh = new Game(21);
  for (const [agent, twin] of [[new Random(5), new Random(5)], [new Greedy(5), new Greedy(5)],
    [new Ismcts(5, 200), new Ismcts(5, 200)]]) {
    const move = agent.choose(fresh, "white");
    assert.ok(fresh.legalMoves().includes(move));
    assert.equal(move, twin.choose(fresh, "white"));
  }
  // Every level of the ladder, the same way; a level out of range is refused.
  assert.equal(Level.count(), 8);
  for (let n = 1; n <= Level.count(); n++) {
    const [agent, twin] = [new Level(n, 5), new Level(n, 5)];
    assert.equal(agent.level, n);
    const move = agent.choose(fresh, "white");
    assert.ok(fresh.legalMoves().includes(move));
    assert.equal(move, twin.choose(fresh, "white"));
    assert.throws(() => agent.choose(fresh, "black"), /turn/);
  }
  for (const bad of [0, 9, 2.5, -1]) {
    assert.throws(() => new Level(bad, 1), (e) => e.kind === "argument" && /level/.test(e.message));
  }
  fresh.free();
  for (const g of [game, copy]) g.free();
});

test("records ended on time or by abandonment keep their reason", () => {
  const game = new Game(3);
  game.play(game.legalMoves()[0]);
  const record = game.record();
  for (const [token, winner, reason] of [["black:time", "black", "time"], ["white:abandoned", "white", "abandoned"]]) {
    const ended = Game.fromRecord(record.replace('[Result "-"]', `[Result "${token}"]`));
    assert.deepEqual({ ...ended.status }, { state: "won", winner, reason });
    assert.throws(() => ended.resign("white"), (e) => e.kind === "game-over");
    ended.free();
  }
  game.free();
});

test("a tracker follows a game from the arbiter's announcements alone", () => {
  const game = new Game(11);
  const own = new Array(72).fill(255);
  const enemy = [];
  for (let s = 0; s < 72; s++) {
    const piece = game.pieceAt(s);
    if (piece && piece.side === "black") own[s] = piece.rank;
    else if (piece) enemy.push(s);
  }
  const tracker = new Tracker("black", own, enemy, "white");
  assert.equal(tracker.side, "black");
  const bot = new Random(3);
  let challenges = 0;
  for (let ply = 0; ply < 80 && game.status.state === "ongoing"; ply++) {
    if (game.sideToMove === "black") {
      assert.deepEqual(tracker.legalMoves(), game.legalMoves());
      assert.deepEqual(tracker.legalMovesFrom(tracker.legalMoves()[0].slice(0, 2)),
        game.legalMovesFrom(tracker.legalMoves()[0].slice(0, 2)));
    }
    const report = game.play(bot.choose(game, game.sideToMove));
    if (report.challenge) challenges++;
    // The shape of a server's ply event: move, outcome, status.
    tracker.observe({ move: report.move, outcome: report.outcome, status: report.status });
    assert.equal(tracker.ply, game.ply);
    assert.equal(tracker.sideToMove, game.sideToMove);
  }
  assert.ok(challenges > 0);
  const view = game.view("black");
  assert.deepEqual([...tracker.ownCells()], view.cells.map((c) => (c && c.owner === "own" ? c.rank : 255)));
  assert.deepEqual([...tracker.enemySquares()], view.cells.flatMap((c, i) => (c && c.owner === "enemy" ? [i] : [])));
  assert.deepEqual([...tracker.beliefs()], [...game.beliefs("black")]);
  assert.throws(() => tracker.observe({ move: "a1-a2", outcome: "win", status: game.status }),
    (e) => e.kind === "observe" || e.kind === "illegal-move");
  assert.throws(() => tracker.observe({ move: "a1-a2", outcome: "draw", status: game.status }), (e) => e.kind === "argument");
  assert.throws(() => new Tracker("black", own, enemy.slice(1)), (e) => e.kind === "observe");
  game.resign("white");
  tracker.observeEnd(game.status);
  assert.deepEqual(tracker.status, { state: "won", winner: "black", reason: "resignation" });
  tracker.free();
  game.free();
});
