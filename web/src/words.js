// The page's words for what the arbiter announces and how a game ends: one table each, shared
// by every mode. The ranks' names and codes come from the engine (rankName, rankCode).

export const SIDE_NAMES = { white: "White", black: "Black" };

// A challenge's outcome, always the attacker's (the arbiter's word): as the move list writes
// it, and as what happened to the attacking piece.
export const OUTCOMES = {
  win: { list: "the attacker wins", piece: "won the challenge" },
  lose: { list: "the attacker loses", piece: "lost the challenge" },
  tie: { list: "both are removed", piece: "tied: both pieces are removed" },
};

const REASONS = {
  "flag-captured": "a Flag was captured",
  "flag-reached-end": "a Flag reached the far row",
  resignation: "resignation",
  time: "time",
  abandoned: "abandonment",
  agreement: "agreement",
  "move-limit": "the move limit",
};

// A draw's reasons where they differ from a win's: both seats left, as a server decides.
const DRAW_REASONS = { abandoned: "both players left" };

// The end in words, `names` saying who each side is ("You", "The bot", "White", …).
export function endText(status, names) {
  const who = status.winner ? `${names[status.winner]} ${names[status.winner] === "You" ? "win" : "wins"}` : "Draw";
  const why = (!status.winner && DRAW_REASONS[status.reason]) || REASONS[status.reason] || status.reason;
  return `${who} — ${why}.`;
}

// What a challenge did, as a sentence about the attacker (`who`: "You", "The bot", "White" …).
export function challengeText(who, outcome) {
  const piece = who === "You" ? "Your piece" : `${who}'s piece`;
  return `${piece} ${OUTCOMES[outcome].piece}.`;
}

// An aborted game in words: who ran out of setup time or called it off (`names` as above).
export function abortText(aborted, names) {
  const who = aborted.side ? names[aborted.side] : null;
  if (aborted.reason === "setup-time" && who) {
    return `Aborted: ${who} did not arrange ${who === "You" ? "your" : "their"} pieces in time. No result.`;
  }
  if (aborted.reason === "abort" && who) return `Aborted by ${who === "You" ? "you" : who} before the first move. No result.`;
  return "This game was aborted before its first move. No result.";
}

// A challenge's result as the board shows it: which piece was eliminated. `side` attacked;
// `names` as above ("You", a name, "White", …).
export function eliminationText(side, outcome, names) {
  const piece = (who) => (names[who] === "You" ? "your piece" : `${names[who]}'s piece`);
  const defender = side === "white" ? "black" : "white";
  if (outcome === "win") return `Challenge: ${piece(defender)} is eliminated.`;
  if (outcome === "lose") return `Challenge: ${piece(side)} is eliminated.`;
  return "Challenge: a tie, both pieces are eliminated.";
}
