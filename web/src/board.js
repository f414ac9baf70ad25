// The board, the move list and the announcements, shared by every mode of the page. Nothing
// here knows a rule: what is legal, what a challenge did and who won come from the engine
// (in the browser) or the arbiter server; square names and rank codes come from the engine
// too, and every word from the string table.
import { NUM_SQUARES, rankCode, squareIndex as indexOf, squareName as nameOf } from "./pkg/salpakan.js";
import { insignia } from "./insignia.js";
import { outcomeWords, rankName as codeName, sideName, t } from "./words.js";

// A rank's name, from its number.
const rankName = (rank) => codeName(rankCode(rank));

// The board's geometry, read from the engine's square names: the files of the first row.
const NAMES = Array.from({ length: NUM_SQUARES }, (_, i) => nameOf(i));
const FILES = NAMES.filter((name) => name.endsWith("1")).map((name) => name[0]);
const WIDTH = FILES.length;
const ROWS = NUM_SQUARES / WIDTH;

export const squareName = (index) => NAMES[index];
export const squareIndex = (name) => indexOf(name);

const boardElement = document.getElementById("board");
const movesList = document.getElementById("moves");
const live = document.getElementById("live");
const rankLabels = document.querySelector(".ranks");
const fileLabels = document.querySelector(".files");

// The keyboard cursor (a square index) and the board's handler, kept across renders.
let cursor = 4;
let pick = () => {};
let flipped = false;

function cursorTo(index) {
  cursor = index;
  for (const square of boardElement.children) {
    if (Number(square.dataset.index) === index) {
      square.dataset.cursor = "";
      square.setAttribute("aria-selected", "true");
      boardElement.setAttribute("aria-activedescendant", square.id);
    } else {
      delete square.dataset.cursor;
      square.removeAttribute("aria-selected");
    }
  }
}

// Arrow keys move the cursor as the board is drawn (up is away from the player), Enter or
// Space picks or drops at it.
boardElement.addEventListener("keydown", (event) => {
  const up = flipped ? -WIDTH : WIDTH;
  const right = flipped ? -1 : 1;
  const file = cursor % WIDTH;
  const last = WIDTH - 1;
  const steps = {
    ArrowUp: () => cursor + up,
    ArrowDown: () => cursor - up,
    ArrowRight: () => (right > 0 ? (file < last ? cursor + 1 : cursor) : (file > 0 ? cursor - 1 : cursor)),
    ArrowLeft: () => (right > 0 ? (file > 0 ? cursor - 1 : cursor) : (file < last ? cursor + 1 : cursor)),
  };
  if (steps[event.key]) {
    const next = steps[event.key]();
    if (next >= 0 && next < NUM_SQUARES) cursorTo(next);
    event.preventDefault();
  } else if (event.key === "Enter" || event.key === " ") {
    pick(squareName(cursor), cursor);
    event.preventDefault();
  }
});

function label(square, piece) {
  if (!piece) return t("board.empty", { square });
  if (piece.owner === "own") return t("board.your", { square, rank: rankName(piece.rank) });
  if (piece.owner === "enemy") {
    return piece.rank === undefined ? t("board.enemy", { square }) : t("board.enemy-rank", { square, rank: rankName(piece.rank) });
  }
  const side = sideName(piece.owner);
  return piece.rank === undefined ? t("board.side", { square, side }) : t("board.side-rank", { square, side, rank: rankName(piece.rank) });
}

// Draws the board. `model`: `cells` (NUM_SQUARES × null or {owner: "own" | "enemy" |
// "white" | "black", rank?}), `selected` (a square name), `targets` (a Set of names), `last`
// (the last move's two names), `challenge` (the square of the last challenge, if the last
// move was one), `zone` (a Set of square indices to tint), `flip` (Black's view: the far row
// at the bottom), `ownSide` (the side "own" pieces belong to: each piece is drawn in its
// side's colour, White light and Black dark, everywhere on the page), `heat` (optional: per
// square index, `{p, title, likely?}`: the chance the piece is the Flag, and in a replay the
// viewer's likeliest rank code for it). `onPick` gets every click or keyboard pick.
export function drawBoard(model, onPick) {
  pick = onPick;
  flipped = Boolean(model.flip);
  const up = [...Array(ROWS).keys()];
  const across = [...Array(WIDTH).keys()];
  const rows = flipped ? up : up.reverse();
  const files = flipped ? across.reverse() : across;
  rankLabels.replaceChildren(...rows.map((r) => Object.assign(document.createElement("span"), { textContent: r + 1 })));
  fileLabels.replaceChildren(...files.map((f) => Object.assign(document.createElement("span"), { textContent: FILES[f] })));
  boardElement.replaceChildren();
  for (const row of rows) {
    for (const file of files) {
      const index = row * WIDTH + file;
      const name = squareName(index);
      const square = document.createElement("div");
      square.className = `square${(row + file) % 2 ? "" : " dark"}`;
      square.id = `square-${name}`;
      square.setAttribute("role", "gridcell");
      square.dataset.square = name;
      square.dataset.index = index;
      if (model.zone?.has(index)) square.classList.add("zone");
      if (model.last?.includes(name)) square.classList.add("last");
      if (model.challenge === name) square.classList.add("challenged");
      if (model.selected === name) square.classList.add("selected");
      if (model.targets?.has(name)) square.dataset.legal = "";
      const piece = model.cells[index];
      square.setAttribute("aria-label", label(name, piece) + (model.targets?.has(name) ? ", a legal target" : ""));
      if (piece) {
        square.dataset.piece = piece.owner;
        const token = document.createElement("div");
        const own = model.ownSide ?? "white";
        const side = { own, enemy: own === "white" ? "black" : "white" }[piece.owner] ?? piece.owner;
        token.className = `piece side-${side}`;
        if (piece.rank !== undefined) {
          const code = rankCode(piece.rank);
          square.dataset.rank = code;
          token.innerHTML = insignia(code);
          const text = document.createElement("span");
          text.className = "code";
          text.textContent = code;
          token.appendChild(text);
          token.title = rankName(piece.rank);
          if (piece.rank === 0) token.classList.add("flag");
        } else {
          token.classList.add("hidden");
        }
        const heat = model.heat?.[index];
        if (heat !== undefined && piece.rank === undefined) {
          square.dataset.pFlag = heat.p.toFixed(4);
          const glow = document.createElement("div");
          glow.className = "heat";
          glow.style.setProperty("--p", Math.min(0.95, heat.p * 3).toFixed(3));
          token.classList.remove("hidden");
          token.appendChild(glow);
          const pct = document.createElement("span");
          pct.className = "pct";
          pct.textContent = `${Math.round(100 * heat.p)}%`;
          token.appendChild(pct);
          // A replay shows the viewer's likeliest rank for the piece: a belief, not its rank.
          if (heat.likely) {
            square.dataset.likely = heat.likely;
            const likely = document.createElement("span");
            likely.className = "likely";
            likely.textContent = `${heat.likely}?`;
            token.appendChild(likely);
          }
          token.title = heat.title;
        }
        square.appendChild(token);
      }
      square.addEventListener("click", () => {
        cursorTo(index);
        pick(name, index);
      });
      boardElement.appendChild(square);
    }
  }
  cursorTo(cursor);
}

// Adds ply `ply` to the move list: its number, who moved, the move, and the arbiter's words
// for a challenge.
export function addMove(ply, side, move, outcome) {
  const item = document.createElement("li");
  item.dataset.ply = ply;
  item.dataset.side = side;
  item.dataset.move = move;
  const number = document.createElement("span");
  number.className = "ply";
  number.textContent = `${ply}.`;
  const who = document.createElement("span");
  who.className = `who ${side}`;
  who.textContent = sideName(side);
  const text = document.createElement("span");
  text.className = "move";
  text.textContent = move;
  item.append(number, who, text);
  if (outcome) {
    item.dataset.outcome = outcome;
    item.classList.add("challenge");
    const words = document.createElement("span");
    words.className = "outcome";
    words.textContent = outcomeWords(outcome);
    item.append(words);
  }
  movesList.appendChild(item);
  movesList.scrollTop = movesList.scrollHeight;
}

// Adds the end of a game that no move made (a resignation, time, an agreement…) to the move
// list, in `text`.
export function addEnd(text) {
  const item = document.createElement("li");
  item.className = "end";
  item.textContent = text;
  movesList.appendChild(item);
  movesList.scrollTop = movesList.scrollHeight;
}

// Shows `text` under the board (the last challenge's result, fading; the challenged squares
// are marked on the board, and no square is covered), or nothing.
export function noteOnBoard(text) {
  const note = document.getElementById("board-note");
  note.hidden = !text;
  if ((text ?? "") === note.textContent) return;
  note.textContent = text ?? "";
  // A new result fades anew.
  note.style.animation = "none";
  void note.offsetWidth;
  note.style.animation = "";
}

// Each side's eliminated pieces, `[side, ranks (or null when unknown), count]` each; shown
// beside the board as insignia, or as a count of pieces whose ranks are hidden. A side not
// in `lists` shows none (a new game's setup keeps nothing of the last game's).
export function showEliminated(lists) {
  for (const side of ["white", "black"]) {
    if (lists.some(([listed]) => listed === side)) continue;
    const box = document.getElementById(`eliminated-${side}`);
    if (!box) continue;
    box.hidden = true;
    box.querySelector(".shelf").replaceChildren();
    delete box.dataset.count;
  }
  for (const [side, ranks, count] of lists) {
    const box = document.getElementById(`eliminated-${side}`);
    if (!box) continue;
    const title = box.querySelector("h3");
    const shelf = box.querySelector(".shelf");
    title.textContent = t("eliminated.lost", { side: sideName(side), count });
    box.dataset.count = String(count);
    shelf.replaceChildren();
    if (ranks) {
      for (const rank of ranks) {
        const code = rankCode(rank);
        const piece = document.createElement("span");
        piece.className = `piece mini side-${side}`;
        piece.dataset.rank = code;
        piece.title = rankName(rank);
        piece.setAttribute("aria-label", rankName(rank));
        piece.innerHTML = insignia(code);
        shelf.appendChild(piece);
      }
    } else {
      for (let i = 0; i < count; i++) {
        const piece = document.createElement("span");
        piece.className = `piece mini side-${side} hidden`;
        piece.setAttribute("aria-label", t("eliminated.hidden"));
        shelf.appendChild(piece);
      }
    }
    box.hidden = false;
  }
}

export function clearMoves() {
  movesList.replaceChildren();
}

// Says `text` to screen readers (and keeps it visible in the live region).
export function announce(text) {
  live.textContent = text;
}
