// A game against the engine's bot in this browser, no server: the person plays White (the
// bottom rows); the bot plays Black in a Web Worker. Both formations, and the bot's draws,
// come from secret seeds (64 bits of crypto.getRandomValues each).
import { Game, NO_PIECE, NUM_SQUARES, Setup, rankCode } from "./pkg/salpakan.js";
import { addMove, announce, clearMoves, drawBoard } from "./board.js";
import { Formation } from "./formation.js";
import { challengeText, endText, percent, personText, rankName, t } from "./words.js";

const ME = "white";
const BOT = "black";
const BUDGET = 3000;
const PEOPLE = { white: { you: true }, black: { bot: true } };

// 64 secret bits, as a BigInt (the worker passes it on to the bot's constructor).
function secretSeed() {
  return crypto.getRandomValues(new BigUint64Array(1))[0];
}

export function offlineMode(ui) {
  let phase = "setup"; // "setup", "play", "over"
  let formation = null; // the person's, while arranging it
  let botCells = null; // the bot's formation, hidden from the person
  let game = null;
  let selected = null;
  let botBusy = false;
  let worker = null;
  let botSeed = null; // the bot's draws: 64 secret bits
  let lastMove = null;

  function startWorker() {
    worker?.terminate();
    worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
    botSeed = secretSeed();
    worker.onmessage = (event) => {
      if (event.data.ready) return;
      botBusy = false;
      if (event.data.error) {
        ui.hint.textContent = t("hint.bot-failed", { error: event.data.error });
        return;
      }
      if (phase === "play" && game.sideToMove === BOT) play(event.data.move, BOT);
    };
  }

  function play(move, side) {
    const report = game.play(move);
    lastMove = move;
    addMove(game.ply, side, move, report.outcome);
    const what = report.challenge ? challengeText(PEOPLE[side], report.outcome) : "";
    ui.hint.textContent = what;
    const who = personText(PEOPLE[side]);
    announce(what ? t("announce.move-and", { who, move, what }) : t("announce.move", { who, move }));
    afterMove();
  }

  function afterMove() {
    selected = null;
    const s = game.status;
    if (s.state !== "ongoing") {
      phase = "over";
      ui.setStatus("over", endText(s, PEOPLE));
      ui.offerRecord(game.record());
    } else if (game.sideToMove === BOT) {
      ui.setStatus("bot", t("status.bot-thinking"));
      botBusy = true;
      worker.postMessage({ record: game.record(), side: BOT, seed: botSeed, budget: BUDGET });
    } else {
      ui.setStatus("you", t("status.your-move"));
    }
    render();
  }

  function boardCells() {
    const cells = new Array(NUM_SQUARES).fill(null);
    if (phase === "setup") {
      formation.boardCells(cells);
      botCells.forEach((rank, i) => {
        if (rank !== NO_PIECE) cells[i] = { owner: "enemy" };
      });
    } else if (phase === "over") {
      for (let i = 0; i < NUM_SQUARES; i++) {
        const p = game.pieceAt(i);
        if (p) cells[i] = { owner: p.side === ME ? "own" : "enemy", rank: p.rank };
      }
    } else {
      game.view(ME).cells.forEach((cell, i) => {
        if (cell) cells[i] = cell.owner === "own" ? { owner: "own", rank: cell.rank } : { owner: "enemy" };
      });
    }
    return cells;
  }

  function render() {
    if (!ui.active("offline")) return;
    ui.setPhase({ setup: "setup", play: "game", over: "over" }[phase]);
    const cells = boardCells();
    let heat = null;
    const targets = new Set();
    if (phase === "play") {
      if (selected !== null) {
        for (const move of game.legalMovesFrom(selected)) targets.add(move.split("-")[1]);
      }
      if (ui.beliefs.checked) heat = flagHeat(cells);
    }
    drawBoard({
      cells,
      selected: phase === "setup" ? formation.selected : selected,
      targets,
      heat,
      last: lastMove ? lastMove.split("-") : null,
      zone: phase === "setup" ? formation.zone : null,
    }, onSquare);
    ui.showSetupControls(phase === "setup", phase === "setup");
    ui.buttons.resign.disabled = phase !== "play";
    ui.beliefs.disabled = phase !== "play";
  }

  // Per enemy square, its chance of being the Flag and the likeliest ranks, from the engine's
  // exact beliefs of the person's side.
  function flagHeat(cells) {
    const beliefs = game.beliefs(ME);
    const ranks = beliefs.length / NUM_SQUARES;
    const heat = {};
    cells.forEach((cell, i) => {
      if (!cell || cell.owner !== "enemy") return;
      const row = beliefs.subarray(i * ranks, (i + 1) * ranks);
      const likeliest = [...row].map((p, r) => [p, r]).filter(([p]) => p > 0)
        .sort((a, b) => b[0] - a[0]).slice(0, 3)
        .map(([p, r]) => t("heat.likely", { rank: rankName(rankCode(r)), p: percent(p) }));
      heat[i] = { p: row[0], title: t("heat.offline", { flag: `${(100 * row[0]).toFixed(1)}%`, likeliest: likeliest.join(", ") }) };
    });
    return heat;
  }

  function onSquare(name, index) {
    if (phase === "setup") {
      const done = formation.pick(name, index);
      if (done === "picked") ui.hint.textContent = t("hint.swap-second");
      if (done === "swapped") ui.hint.textContent = t("hint.swapped");
      if (done) render();
      return;
    }
    if (phase !== "play" || botBusy || game.sideToMove !== ME) return;
    if (selected !== null && name !== selected) {
      const move = `${selected}-${name}`;
      if (game.legalMovesFrom(selected).includes(move)) {
        play(move, ME);
        return;
      }
    }
    const cell = game.view(ME).cells[index];
    selected = cell && cell.owner === "own" && game.legalMovesFrom(name).length > 0 && selected !== name ? name : null;
    render();
  }

  return {
    enter() {
      game?.free();
      game = null;
      phase = "setup";
      selected = null;
      lastMove = null;
      botBusy = false;
      clearMoves();
      ui.hideRecord();
      formation = new Formation(ME);
      const bot = Setup.random(BOT);
      botCells = bot.cells();
      bot.free();
      startWorker();
      // Setting up is the person's turn to act.
      ui.setStatus("you", t("status.arrange-start"));
      ui.hint.textContent = t("hint.swap-pick");
      render();
    },
    leave() {
      worker?.terminate();
      worker = null;
    },
    reroll() {
      if (phase !== "setup") return;
      formation.reroll();
      render();
    },
    begin() {
      if (phase !== "setup") return;
      game = Game.fromCells(formation.cells, botCells, ME);
      phase = "play";
      ui.hint.textContent = "";
      afterMove();
    },
    resign() {
      if (phase !== "play") return;
      game.resign(ME);
      ui.hint.textContent = t("hint.resigned");
      afterMove();
    },
    offerDraw() {},
    // The formation being arranged: {side, rows, cells}, or null when not arranging.
    arrangement() {
      return phase === "setup" ? { side: ME, rows: formation.rows, cells: formation.cells } : null;
    },
    // Puts formation `cells` on the board (a saved one).
    adopt(cells) {
      if (phase !== "setup") return;
      formation.adopt(cells);
      render();
    },
    render,
    tick() {},
  };
}
