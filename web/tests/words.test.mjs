// The page's words for how a game ends: each status the server can send has its sentence.
import { test } from "node:test";
import assert from "node:assert/strict";

import { endText } from "../src/words.js";

const names = { white: "You", black: "The bot" };

test("a win names its winner and why", () => {
  assert.equal(endText({ state: "won", winner: "white", reason: "flag-captured" }, names), "You win — a Flag was captured.");
  assert.equal(endText({ state: "won", winner: "black", reason: "abandoned" }, names), "The bot wins — abandonment.");
});

test("a draw says why, and both players leaving is not an abandonment by one", () => {
  assert.equal(endText({ state: "drawn", winner: null, reason: "move-limit" }, names), "Draw — the move limit.");
  assert.equal(endText({ state: "drawn", winner: null, reason: "abandoned" }, names), "Draw — both players left.");
});
