// A finished game replayed (`?replay=ID`, a link anyone can open): a ply slider with
// #replay-prev / #replay-next, and #replay-side: "all" shows both armies, "white" or "black"
// the board as that side knew it at that ply, each enemy piece shaded by that side's exact
// beliefs (its chance of being the Flag, its likeliest rank). Each challenge in the move list
// carries the odds the attacker saw just before it attacked; each side's luck is summed. The
// engine (in WebAssembly) computes all of it from the game's record: nothing is the server's
// word but the record.
import { Replay, rankCode, rankName } from "./pkg/salpakan.js";
import { addEnd, addMove, clearMoves, drawBoard, noteOnBoard } from "./board.js";
import { api } from "./lobby.js";
import { endText, OUTCOMES, SIDE_NAMES } from "./words.js";

const $ = (id) => document.getElementById(id);
const pct = (p) => `${Math.round(100 * p)}%`;

// The board's cells at `ply` as `side` knew them ("all": both armies).
function cellsAt(replay, ply, side) {
  if (side === "all") {
    const white = replay.view(ply, "white").cells;
    const black = replay.view(ply, "black").cells;
    return white.map((cell, i) => {
      if (cell?.owner === "own") return { owner: "white", rank: cell.rank };
      if (black[i]?.owner === "own") return { owner: "black", rank: black[i].rank };
      return null;
    });
  }
  return replay.view(ply, side).cells.map((cell) => {
    if (!cell) return null;
    return cell.owner === "own" ? { owner: "own", rank: cell.rank } : { owner: "enemy" };
  });
}

// `side`'s beliefs at `ply` as the board shades them: per enemy square, the Flag's chance and
// the likeliest rank.
function heatAt(replay, ply, side, cells) {
  const beliefs = replay.beliefs(ply, side);
  const heat = {};
  cells.forEach((cell, square) => {
    if (cell?.owner !== "enemy") return;
    const row = beliefs.subarray(square * 15, square * 15 + 15);
    let likely = 0;
    for (let rank = 1; rank < 15; rank++) if (row[rank] > row[likely]) likely = rank;
    heat[square] = {
      p: row[0],
      likely: rankCode(likely),
      title: `${SIDE_NAMES[side]} thought: likeliest ${rankName(likely)} (${pct(row[likely])}), the Flag ${pct(row[0])}`,
    };
  });
  return heat;
}

// The two squares of a move's notation ("e3-e4", "e4xe5").
const squaresOf = (move) => move.split(/[-x]/);

// Opens the replay of game `id`.
export async function showReplay(id) {
  document.body.dataset.mode = "replay";
  $("replay-controls").hidden = false;
  const [summary, record] = await Promise.all([
    api("GET", `/api/games/${encodeURIComponent(id)}`),
    fetch(`/api/games/${encodeURIComponent(id)}/record`),
  ]);
  if (!record.ok) {
    const why = record.status === 409 ? "This game is not over yet: its replay opens when it ends." : "No finished game has this link.";
    $("replay-info").textContent = why;
    $("status").textContent = why;
    $("replay-controls").dataset.state = "unavailable";
    return null;
  }
  const replay = Replay.fromRecord(await record.text());
  const game = replay.game;
  const reports = game.history();
  const status = game.status;
  game.free();
  const names = {
    white: summary.body?.names?.white ?? "White",
    black: summary.body?.names?.black ?? "Black",
  };
  const plies = replay.plies;
  const first = replay.publicView(0).sideToMove;
  const moverOf = (ply) => (ply % 2 === 1 ? first : first === "white" ? "black" : "white");
  const odds = reports.map((_, i) => replay.odds(i + 1));
  const slider = $("replay-ply");
  const sideChoice = $("replay-side");
  slider.max = String(plies);
  $("replay-title").textContent = `${names.white} (White) vs ${names.black} (Black)${summary.body?.rated ? ", rated" : ""}: ${endText(status, names)}`;
  $("status").dataset.turn = "over";
  $("status").textContent = endText(status, names);

  // The move list, once: each challenge with the attacker's odds; a click goes to that ply.
  clearMoves();
  reports.forEach((report, i) => {
    addMove(i + 1, moverOf(i + 1), report.move, report.outcome);
  });
  // An end no move made (a resignation, time, an agreement…) closes the list.
  if (status.state !== "ongoing" && (reports.length === 0 || reports.at(-1).status.state === "ongoing")) {
    addEnd(endText(status, names));
  }
  for (const item of $("moves").querySelectorAll("li[data-ply]")) {
    const ply = Number(item.dataset.ply);
    const seen = odds[ply - 1];
    if (seen) {
      const words = document.createElement("span");
      words.className = "odds";
      words.textContent = `saw ${pct(seen.win)} win · ${pct(seen.tie)} tie · ${pct(seen.lose)} lose`;
      item.dataset.win = seen.win.toFixed(4);
      item.append(words);
    }
    item.addEventListener("click", () => go(ply));
  }
  const lucky = ["white", "black"].map((side) => {
    const luck = replay.luck(side);
    const sign = luck.luck >= 0 ? "+" : "";
    return `${names[side]}: ${luck.challenges} ${luck.challenges === 1 ? "challenge" : "challenges"}, scored ${luck.score} where ${side === "white" ? "White" : "Black"}'s beliefs expected ${luck.expected.toFixed(2)} (luck ${sign}${luck.luck.toFixed(2)})`;
  });
  $("replay-luck").textContent = lucky.join(" · ");

  let ply = 0;
  function go(to) {
    ply = Math.max(0, Math.min(plies, to));
    const side = sideChoice.value;
    const cells = cellsAt(replay, ply, side);
    const report = ply > 0 ? reports[ply - 1] : null;
    const last = report ? squaresOf(report.move) : null;
    drawBoard(
      {
        cells,
        last,
        challenge: report?.challenge ? last[1] : null,
        flip: side === "black",
        ownSide: side === "all" ? "white" : side,
        heat: side === "all" ? null : heatAt(replay, ply, side, cells),
      },
      () => {},
    );
    slider.value = String(ply);
    slider.dataset.ply = String(ply);
    $("replay-controls").dataset.ply = String(ply);
    $("replay-prev").disabled = ply === 0;
    $("replay-next").disabled = ply === plies;
    for (const item of $("moves").querySelectorAll("li[data-ply]")) {
      item.classList.toggle("current", Number(item.dataset.ply) === ply);
    }
    let info = `Ply ${ply} of ${plies}`;
    if (report) {
      info += `: ${SIDE_NAMES[moverOf(ply)]} ${report.move}`;
      const seen = odds[ply - 1];
      if (seen) {
        info += `, ${OUTCOMES[seen.outcome].list} (${SIDE_NAMES[seen.attacker]}'s ${rankName(seen.rank)} saw ${pct(seen.win)} to win, ${pct(seen.tie)} to tie, ${pct(seen.lose)} to lose)`;
      }
    }
    if (side !== "all") info += ` — as ${SIDE_NAMES[side]} knew it`;
    $("replay-info").textContent = info;
    noteOnBoard(ply === plies ? endText(status, names) : null);
  }
  $("replay-prev").addEventListener("click", () => go(ply - 1));
  $("replay-next").addEventListener("click", () => go(ply + 1));
  slider.addEventListener("input", () => go(Number(slider.value)));
  sideChoice.addEventListener("change", () => go(ply));
  go(0);
  return replay;
}
