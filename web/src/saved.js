// Formations saved on this device: named, kept in the browser's storage only, and never sent
// anywhere before a game's submission (the formation a seat submits is the one on its board).
// A saved formation is kept as its player sees it (rows counted from the back, files from the
// player's left), so that it serves either colour; and a formation already seen by others (in
// one of the player's listed finished games, whose records show both formations) is warned of.
import { NO_PIECE, rankCode, squareIndex } from "./pkg/salpakan.js";

const KEY = "salpakan-formations";
const FILES = "abcdefghi";

// The square of depth `depth` (0: the back row) and column `column` (0: the player's left)
// for `side`: White's back row is rank 1 and its left file a; Black's is rank 8, file i.
function square(side, depth, column) {
  const [file, rank] = side === "white" ? [column, depth] : [8 - column, 7 - depth];
  return squareIndex(`${FILES[file]}${rank + 1}`);
}

// Every saved formation: [{name, rows, grid}] (`grid[depth][column]` a rank number or
// NO_PIECE).
export function savedFormations() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(saved) ? saved.filter((f) => f?.name && Array.isArray(f.grid)) : [];
  } catch {
    return [];
  }
}

// Saves `side`'s formation `cells` (its zone of `rows` rows) as `name` (a formation of that
// name is replaced).
export function saveFormation(name, side, rows, cells) {
  const grid = Array.from({ length: rows }, (_, depth) => Array.from({ length: 9 }, (_, column) => cells[square(side, depth, column)]));
  const saved = savedFormations().filter((f) => f.name !== name);
  saved.push({ name, rows, grid });
  saved.sort((a, b) => a.name.localeCompare(b.name));
  localStorage.setItem(KEY, JSON.stringify(saved));
}

// The cells (by square) of saved formation `saved` played as `side`, every other square
// empty; null if it is for another zone than `rows` rows.
export function formationCells(saved, side, rows) {
  if (saved.rows !== rows) return null;
  const cells = new Uint8Array(72).fill(NO_PIECE);
  saved.grid.forEach((row, depth) => row.forEach((rank, column) => {
    cells[square(side, depth, column)] = rank;
  }));
  return cells;
}

// Whether a game `record`'s setup of `side` is the formation `cells` (played as that side).
export function recordShows(record, side, cells) {
  const tag = side === "white" ? "WhiteSetup" : "BlackSetup";
  const match = new RegExp(`^\\[${tag} "([^"]*)"\\]$`, "m").exec(record);
  if (!match) return false;
  const placed = new Map();
  for (const token of match[1].split(/\s+/).filter(Boolean)) {
    const [code, at] = token.split(":");
    placed.set(squareIndex(at), code.toUpperCase());
  }
  return Array.from(cells).every((rank, index) => (rank === NO_PIECE ? !placed.has(index) : placed.get(index) === rankCode(rank)));
}
