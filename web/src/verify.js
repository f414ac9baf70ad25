// The check anyone can make of a finished game (#verified): the engine replays the record
// (every announced challenge and the result must follow from the two formations), then
// checks each formation and salt against the commitment in the record, and that commitment
// against the one the start published, when the page saw it. The server's word counts for
// nothing here but the record.
import { Game } from "./pkg/salpakan.js";
import { sideName, t } from "./words.js";

// What the record says of itself: {state: "yes"}, {state: "no", why} or {state: "none"} (a
// game from before commitments). `published`: {white, black} as `start` gave them, or null.
export function verdict(record, published) {
  let game;
  try {
    game = Game.fromRecord(record);
  } catch (error) {
    return { state: "no", why: error.message };
  }
  try {
    if (game.commitment("white") == null && game.commitment("black") == null) return { state: "none" };
    game.verifyCommitments();
    for (const side of ["white", "black"]) {
      if (published && published[side] !== game.commitment(side)) {
        return { state: "no", why: t("verify.differs", { side: sideName(side) }) };
      }
    }
    return { state: "yes" };
  } catch (error) {
    return { state: "no", why: error.message };
  } finally {
    game.free();
  }
}

// Shows `record`'s verdict in #verified (`data-verified` is its state).
export function showVerdict(record, published) {
  const shown = document.getElementById("verified");
  const { state, why } = verdict(record, published);
  shown.dataset.verified = state;
  shown.textContent = t(`verify.${state}`, { why });
  shown.hidden = false;
}

// Hides #verified (a screen left, a new game).
export function hideVerdict() {
  const shown = document.getElementById("verified");
  shown.hidden = true;
  delete shown.dataset.verified;
  shown.textContent = "";
}
