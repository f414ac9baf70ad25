// The page's words for how a game ends: each status the server can send has its sentence.
import { test } from "node:test";
import assert from "node:assert/strict";

import { abortText, eliminationText, endText } from "../src/words.js";

const names = { white: "You", black: "The bot" };

test("a win names its winner and why", () => {
  assert.equal(endText({ state: "won", winner: "white", reason: "flag-captured" }, names), "You win — a Flag was captured.");
  assert.equal(endText({ state: "won", winner: "black", reason: "abandoned" }, names), "The bot wins — abandonment.");
});

test("a draw says why, and both players leaving is not an abandonment by one", () => {
  assert.equal(endText({ state: "drawn", winner: null, reason: "move-limit" }, names), "Draw — the move limit.");
  assert.equal(endText({ state: "drawn", winner: null, reason: "abandoned" }, names), "Draw — both players left.");
});

test("an aborted game says who and why, and that there is no result", () => {
  assert.equal(
    abortText({ reason: "setup-time", side: "black" }, names),
    "Aborted: The bot did not arrange their pieces in time. No result.",
  );
  assert.equal(abortText({ reason: "setup-time", side: "white" }, names), "Aborted: You did not arrange your pieces in time. No result.");
  assert.equal(abortText({ reason: "abort", side: "white" }, names), "Aborted by you before the first move. No result.");
  assert.equal(abortText({}, names), "This game was aborted before its first move. No result.");
});

test("a challenge on the board names the eliminated piece", () => {
  const who = { white: "You", black: "Maria" };
  assert.equal(eliminationText("white", "win", who), "Challenge: Maria's piece is eliminated.");
  assert.equal(eliminationText("white", "lose", who), "Challenge: your piece is eliminated.");
  assert.equal(eliminationText("black", "lose", who), "Challenge: Maria's piece is eliminated.");
  assert.equal(eliminationText("black", "tie", who), "Challenge: a tie, both pieces are eliminated.");
});
