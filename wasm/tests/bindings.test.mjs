// The cross-binding table (tests/data/bindings.txt at the repository's root) through the npm
// package: every row is accepted or refused as the table says, with the error `kind` of the
// row. The crate decides the table (tests/bindings.rs); the C ABI and the Python package run
// the same rows.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { Game, Greedy, Ismcts, Random, Replay, challenge } from "../pkg/node/salpakan.js";

const TABLE = fileURLToPath(new URL("../../tests/data/bindings.txt", import.meta.url));
const AGENTS = { random: () => new Random(1), greedy: () => new Greedy(1), ismcts: () => new Ismcts(1, 100) };
const SALTS = ["000102030405060708090a0b0c0d0e0f", "101112131415161718191a1b1c1d1e1f"];

function rows() {
  const out = [];
  readFileSync(TABLE, "utf8").split("\n").forEach((line, i) => {
    if (!line.trim() || line.startsWith("#")) return;
    const [call, expect] = line.split(" -> ");
    const [op, ...words] = call.trim().split(/\s+/);
    out.push({ line: i + 1, call, op, words, expect: expect.trim() });
  });
  return out;
}

function run(op, words) {
  const args = op === "cells" || op === "typed-cells" ? words : words.map((w) => JSON.parse(w));
  const game = new Game(1);
  const own = (value, text) => (value === "@fixture" ? text : value);
  try {
    switch (op) {
      case "first": new Game(1, args[0]).free(); break;
      case "move": game.play({ from: args[0], to: args[1] }); break;
      case "notation": game.play(args[0]); break;
      case "action": game.playAction(args[0]); break;
      case "cells":
      case "typed-cells": {
        let white = new Array(72).fill(255);
        const black = new Array(72).fill(255);
        for (let s = 0; s < 72; s++) {
          const piece = game.pieceAt(s);
          if (piece) (piece.side === "white" ? white : black)[s] = piece.rank;
        }
        for (const word of args) {
          const [key, value] = word.split("=");
          if (key === "len") white = white.concat(new Array(72).fill(255)).slice(0, Number(value));
          else white[(Number(key[1]) - 1) * 9 + "abcdefghi".indexOf(key[0])] = JSON.parse(value);
        }
        if (op === "typed-cells") {
          const bytes = white.every((v) => Number.isInteger(v) && v >= 0 && v <= 255);
          white = bytes ? Uint8Array.from(white) : Float64Array.from(white);
        }
        Game.fromCells(white, black).free();
        break;
      }
      case "rules": new Game(1, "white", args[0], args[1]).free(); break;
      case "challenge": challenge(args[0], args[1]); break;
      case "agent": {
        const agent = AGENTS[args[0]]();
        if (args[1] === "turn") agent.choose(game, "white");
        else if (args[1] === "other") agent.choose(game, "black");
        else if (args[1] === "over") { game.resign("white"); agent.choose(game, "black"); }
        else agent.choose(Game.fromText(game.toText()), "white");
        agent.free();
        break;
      }
      case "after-end":
        game.resign("white");
        ({
          play: () => game.play("e3-e4"),
          resign: () => game.resign("black"),
          draw: () => game.agreeDraw(),
          time: () => game.loseOnTime("black"),
          abandoned: () => game.abandon("black"),
          "both-left": () => game.abandonByBoth(),
        })[args[0]]();
        break;
      case "both-left": {
        const status = game.abandonByBoth();
        assert.deepEqual({ ...status }, { ...game.status });
        assert.deepEqual([status.state, status.winner, status.reason], ["drawn", null, "abandoned"]);
        break;
      }
      case "end": {
        const status = args[0] === "time" ? game.loseOnTime(args[1]) : game.abandon(args[1]);
        assert.deepEqual({ ...status }, { ...game.status });
        assert.equal(status.reason, args[0]);
        break;
      }
      case "commit": assert.equal(game.commit(args[0], args[1]).length, 64); break;
      case "verify": {
        let record = own(args[0], game.record());
        if (args[0] === "@committed" || args[0] === "@forged") {
          ["white", "black"].forEach((side, i) => {
            game.commit(side, SALTS[i]);
            game.openCommitment(side, SALTS[i]);
          });
          record = game.record();
          if (args[0] === "@forged") record = record.replace('[BlackSalt "10', '[BlackSalt "00');
        }
        const checked = Game.fromRecord(record);
        try { checked.verifyCommitments(); } finally { checked.free(); }
        break;
      }
      case "record": Game.fromRecord(own(args[0], game.record())).free(); break;
      case "position": Game.fromText(own(args[0], game.toText())).free(); break;
      case "beliefs":
        if (args[0] === "from-text") Game.fromText(game.toText()).beliefs("white");
        else game.beliefs(args[0]);
        break;
      case "replay": {
        const record = args[0] === "@position" ? Game.fromText(game.toText()).record() : own(args[0], game.record());
        Replay.fromRecord(record).free();
        break;
      }
      case "replay-beliefs":
      case "replay-odds": {
        game.play("e3-e4");
        const replay = new Replay(game);
        try {
          if (op === "replay-odds") assert.equal(replay.odds(args[0]), null);
          else assert.equal(replay.beliefs(args[0], args[1]).length, 72 * 15);
        } finally {
          replay.free();
        }
        break;
      }
      default: throw new Error(`unknown operation ${op}`);
    }
    return "ok";
  } catch (error) {
    assert.equal(error.name, "SalpakanError", `${op} ${words}: ${error}`);
    return error.kind;
  } finally {
    game.free();
  }
}

test("the package accepts and refuses every row of the table as it says", () => {
  const table = rows();
  assert.ok(table.length >= 80);
  const wrong = table
    .map((row) => ({ ...row, got: run(row.op, row.words) }))
    .filter((row) => row.got !== row.expect)
    .map((row) => `line ${row.line}: ${row.call}: expected ${row.expect}, got ${row.got}`);
  assert.deepEqual(wrong, []);
  const kinds = new Set(table.map((row) => row.expect));
  assert.deepEqual([...kinds].sort(), ["argument", "commitment", "game-over", "illegal-move", "observe", "ok", "setup", "text"]);
});
