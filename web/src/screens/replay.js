// The replay screen (`?replay=ID`, a link anyone can open): a finished game, a ply slider
// with #replay-prev / #replay-next, and #replay-side: "all" shows both armies, "white" or
// "black" the board as that side knew it at that ply, each enemy piece shaded by that side's
// exact beliefs (its chance of being the Flag, its likeliest rank). Each challenge in the move
// list carries the odds the attacker saw just before it attacked; each side's luck is summed.
// The engine (in WebAssembly) computes all of it from the game's record: nothing is the
// server's word but the record.
import { Replay, rankCode } from "../pkg/salpakan.js";
import { addEnd, addMove, clearMoves, drawBoard, noteOnBoard } from "../board.js";
import { api } from "../connection.js";
import { hideVerdict, showVerdict } from "../verify.js";
import { botName, endText, outcomeWords, percent, rankName, sideName, t } from "../words.js";

const $ = (id) => document.getElementById(id);

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

// The least chance at which the board names a piece's likeliest rank: more likely than not,
// not a guess (at the start every unknown piece's likeliest is a Private, at 6 in 21).
const NAMED_FROM = 0.5;

// `side`'s beliefs at `ply` as the board shades them: per enemy square, the Flag's chance and,
// where it is more than a guess, the likeliest rank.
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
      likely: row[likely] >= NAMED_FROM ? rankCode(likely) : null,
      title: t("heat.replay", { side: sideName(side), rank: rankName(rankCode(likely)), p: percent(row[likely]), flag: percent(row[0]) }),
    };
  });
  return heat;
}

// The two squares of a move's notation ("e3-e4", "e4xe5").
const squaresOf = (move) => move.split(/[-x]/);

export function replayScreen() {
  let replay = null;
  let shown = 0;

  async function show(id) {
    const showing = ++shown;
    const [summary, record] = await Promise.all([
      api("GET", `/api/games/${encodeURIComponent(id)}`),
      fetch(`/api/games/${encodeURIComponent(id)}/record`),
    ]);
    if (showing !== shown) return null;
    if (!record.ok) {
      const why = record.status === 409 ? t("replay.not-over") : t("replay.none");
      $("replay-info").textContent = why;
      $("status").textContent = why;
      $("replay-controls").dataset.state = "unavailable";
      return null;
    }
    const text = await record.text();
    if (showing !== shown) return null;
    replay = Replay.fromRecord(text);
    showVerdict(text, summary.body?.commitments ?? null);
    const game = replay.game;
    const reports = game.history();
    const status = game.status;
    game.free();
    const people = {
      white: { name: summary.body?.names?.white ? botName(summary.body.names.white) : sideName("white") },
      black: { name: summary.body?.names?.black ? botName(summary.body.names.black) : sideName("black") },
    };
    const names = { white: people.white.name, black: people.black.name };
    const plies = replay.plies;
    const first = replay.publicView(0).sideToMove;
    const moverOf = (ply) => (ply % 2 === 1 ? first : first === "white" ? "black" : "white");
    const odds = reports.map((_, i) => replay.odds(i + 1));
    const slider = $("replay-ply");
    const sideChoice = $("replay-side");
    slider.max = String(plies);
    const end = endText(status, people);
    $("replay-title").textContent = t(summary.body?.rated ? "replay.title-rated" : "replay.title", { ...names, end });
    $("status").dataset.turn = "over";
    $("status").textContent = end;

    // The move list, once: each challenge with the attacker's odds; a click goes to that ply.
    clearMoves();
    reports.forEach((report, i) => {
      addMove(i + 1, moverOf(i + 1), report.move, report.outcome);
    });
    // An end no move made (a resignation, time, an agreement…) closes the list.
    if (status.state !== "ongoing" && (reports.length === 0 || reports.at(-1).status.state === "ongoing")) {
      addEnd(end);
    }
    for (const item of $("moves").querySelectorAll("li[data-ply]")) {
      const ply = Number(item.dataset.ply);
      const seen = odds[ply - 1];
      if (seen) {
        const words = document.createElement("span");
        words.className = "odds";
        words.textContent = t("replay.odds", { win: percent(seen.win), tie: percent(seen.tie), lose: percent(seen.lose) });
        item.dataset.win = seen.win.toFixed(4);
        item.append(words);
      }
      item.addEventListener("click", () => go(ply));
    }
    const lucky = ["white", "black"].map((side) => {
      const luck = replay.luck(side);
      const sign = luck.luck >= 0 ? "+" : "";
      return t("replay.luck", {
        name: names[side],
        count: luck.challenges,
        score: luck.score,
        side: sideName(side),
        expected: luck.expected.toFixed(2),
        luck: `${sign}${luck.luck.toFixed(2)}`,
      });
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
        const current = Number(item.dataset.ply) === ply;
        item.classList.toggle("current", current);
        // The move list follows the slider.
        if (current) item.scrollIntoView({ block: "nearest" });
      }
      let info = t("replay.at", { ply, plies });
      if (report) {
        const seen = odds[ply - 1];
        const mover = sideName(moverOf(ply));
        info = seen
          ? t("replay.at-challenge", {
            ply,
            plies,
            side: mover,
            move: report.move,
            outcome: outcomeWords(seen.outcome),
            attacker: sideName(seen.attacker),
            rank: rankName(rankCode(seen.rank)),
            win: percent(seen.win),
            tie: percent(seen.tie),
            lose: percent(seen.lose),
          })
          : t("replay.at-move", { ply, plies, side: mover, move: report.move });
      }
      if (side !== "all") info = t("replay.as-known", { info, side: sideName(side) });
      $("replay-info").textContent = info;
      noteOnBoard(ply === plies ? end : null);
    }
    $("replay-prev").onclick = () => go(ply - 1);
    $("replay-next").onclick = () => go(ply + 1);
    slider.oninput = () => go(Number(slider.value));
    sideChoice.onchange = () => go(ply);
    go(0);
    return replay;
  }

  return {
    enter(params) {
      document.body.dataset.mode = "replay";
      return show(params.get("replay"));
    },
    leave() {
      shown++;
      replay?.free();
      replay = null;
      clearMoves();
      noteOnBoard(null);
      $("replay-side").value = "all";
      delete $("replay-controls").dataset.state;
      for (const id of ["replay-title", "replay-info", "replay-luck"]) $(id).textContent = "";
      hideVerdict();
    },
  };
}
