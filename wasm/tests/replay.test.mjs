// The replay of knowledge through the npm package: the same numbers as the crate (the shared
// vectors of tests/data/replays.txt, which the Python package's tests read too).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { Game, Replay } from "../pkg/node/salpakan.js";

const VECTORS = fileURLToPath(new URL("../../tests/data/replays.txt", import.meta.url));

function games() {
  const out = [];
  for (const line of readFileSync(VECTORS, "utf8").split("\n")) {
    if (!line.trim() || line.startsWith("#")) continue;
    const space = line.indexOf(" ");
    const [kind, rest] = [line.slice(0, space), line.slice(space + 1)];
    if (kind === "record") out.push({ record: JSON.parse(rest), odds: [], luck: [], beliefs: [] });
    else if (kind === "plies") out.at(-1).plies = Number(rest);
    else out.at(-1)[kind].push(rest.split(" "));
  }
  return out;
}

const near = (got, want, what) => assert.ok(Math.abs(got - want) < 1e-9, `${what}: ${got} vs ${want}`);

test("the vectors have games with challenges", () => {
  const all = games();
  assert.ok(all.length >= 3);
  assert.ok(all.reduce((n, g) => n + g.odds.length, 0) >= 20);
});

for (const [i, game] of games().entries()) {
  test(`replay ${i}: the package gives the crate's numbers`, () => {
    const replay = Replay.fromRecord(game.record);
    try {
      assert.equal(replay.plies, game.plies);
      const challenges = new Map(game.odds.map((w) => [Number(w[0]), w]));
      for (let ply = 1; ply <= replay.plies; ply++) {
        const odds = replay.odds(ply);
        const want = challenges.get(ply);
        if (!want) {
          assert.equal(odds, null);
          continue;
        }
        near(odds.win, Number(want[1]), `ply ${ply} win`);
        near(odds.tie, Number(want[2]), `ply ${ply} tie`);
        near(odds.lose, Number(want[3]), `ply ${ply} lose`);
        assert.equal(odds.outcome, want[4]);
      }
      for (const [side, n, score, expected] of game.luck) {
        const luck = replay.luck(side);
        assert.equal(luck.challenges, Number(n));
        near(luck.score, Number(score), "score");
        near(luck.expected, Number(expected), "expected");
        near(luck.luck, Number(score) - Number(expected), "luck");
      }
      for (const [ply, side, ...digest] of game.beliefs) {
        const beliefs = replay.beliefs(Number(ply), side);
        assert.equal(beliefs.length, 72 * 15);
        digest.forEach((d, rank) => {
          let sum = 0;
          for (let square = 0; square < 72; square++) sum += (square + 1) * beliefs[square * 15 + rank];
          near(sum, Number(d), `ply ${ply} ${side} rank ${rank}`);
        });
      }
      // The end's beliefs and views are the whole game's.
      const whole = Game.fromRecord(game.record);
      assert.deepEqual(replay.beliefs(replay.plies, "white"), whole.beliefs("white"));
      assert.equal(replay.view(replay.plies, "black").text, whole.view("black").text);
      whole.free();
    } finally {
      replay.free();
    }
  });
}

test("a replay refuses what it cannot show", () => {
  const replay = Replay.fromRecord(games()[0].record);
  const kind = (call) => {
    try {
      call();
    } catch (error) {
      return error.kind;
    }
    return "ok";
  };
  assert.equal(kind(() => replay.beliefs(replay.plies + 1, "white")), "argument");
  assert.equal(kind(() => replay.beliefs(-1, "white")), "argument");
  assert.equal(kind(() => replay.beliefs(1.5, "white")), "argument");
  assert.equal(kind(() => replay.odds(0)), "argument");
  assert.equal(kind(() => replay.view(0, "red")), "argument");
  assert.equal(kind(() => Replay.fromRecord("not a record")), "text");
  replay.free();
});
