// A game against the engine's bot in this browser, no server: the person plays White (the
// bottom rows); the bot plays Black in a Web Worker.
import { Game } from "./pkg/salpakan.js";
import { RANK_NAMES, addMove, announce, clearMoves, drawBoard, endText, squareIndex } from "./board.js";

const ME = "white";
const BOT = "black";
const BUDGET = 3000;
const NAMES = { white: "You", black: "The bot" };

let ui;
let phase = "setup"; // "setup", "play", "over"
let seed = Math.floor(Math.random() * 1e9);
let whiteCells = null;
let blackCells = null;
let game = null;
let selected = null;
let botBusy = false;
let worker = null;
let lastMove = null;

export function cellsOf(side, fromSeed) {
  const sample = new Game(fromSeed);
  const cells = new Array(72).fill(255);
  for (let s = 0; s < 72; s++) {
    const piece = sample.pieceAt(s);
    if (piece && piece.side === side) cells[s] = piece.rank;
  }
  sample.free();
  return cells;
}

function newFormation() {
  seed = (seed * 1103515245 + 12345) % 2147483647;
  whiteCells = cellsOf("white", seed);
}

function startWorker() {
  if (worker) worker.terminate();
  worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  worker.onmessage = (event) => {
    if (event.data.ready) return;
    botBusy = false;
    if (event.data.error) {
      ui.hint.textContent = `The bot failed: ${event.data.error}`;
      return;
    }
    if (phase === "play" && game.sideToMove === BOT) play(event.data.move, "bot");
  };
}

function describe(report, who) {
  if (!report.challenge) return "";
  const attacker = who === "you" ? "Your piece" : "The bot's piece";
  const words = { win: "won the challenge", lose: "lost the challenge", tie: "tied: both are removed" };
  return `${attacker} ${words[report.outcome]}.`;
}

function play(move, who) {
  const side = game.sideToMove;
  const report = game.play(move);
  lastMove = move;
  addMove(game.ply, side, move, report.outcome);
  ui.hint.textContent = describe(report, who);
  announce(`${who === "you" ? "You" : "The bot"}: ${move}. ${describe(report, who)}`);
  afterMove();
}

function afterMove() {
  selected = null;
  const s = game.status;
  if (s.state !== "ongoing") {
    phase = "over";
    ui.setStatus("over", endText(s, NAMES));
    ui.download.hidden = false;
    ui.download.href = URL.createObjectURL(new Blob([game.record()], { type: "text/plain" }));
  } else if (game.sideToMove === BOT) {
    ui.setStatus("bot", "The bot is thinking…");
    botBusy = true;
    worker.postMessage({ record: game.record(), side: BOT, seed, budget: BUDGET });
  } else {
    ui.setStatus("you", "Your move: pick one of your pieces, then a square.");
  }
  render();
}

function render() {
  if (!ui.active("offline")) return;
  const cells = new Array(72).fill(null);
  let heat = null;
  const targets = new Set();
  if (phase === "setup") {
    for (let i = 0; i < 72; i++) {
      if (whiteCells[i] !== 255) cells[i] = { owner: "own", rank: whiteCells[i] };
      else if (blackCells[i] !== 255) cells[i] = { owner: "enemy" };
    }
  } else if (phase === "over") {
    for (let i = 0; i < 72; i++) {
      const p = game.pieceAt(i);
      if (p) cells[i] = { owner: p.side === ME ? "own" : "enemy", rank: p.rank };
    }
  } else {
    const view = game.view(ME);
    view.cells.forEach((cell, i) => {
      if (cell) cells[i] = cell.owner === "own" ? { owner: "own", rank: cell.rank } : { owner: "enemy" };
    });
    if (selected !== null) {
      for (const move of game.legalMovesFrom(selected)) targets.add(move.split("-")[1]);
    }
    if (ui.beliefs.checked) {
      const beliefs = game.beliefs(ME);
      heat = {};
      cells.forEach((cell, i) => {
        if (!cell || cell.owner !== "enemy") return;
        const row = beliefs.subarray(i * 15, i * 15 + 15);
        const likeliest = [...row].map((p, r) => [p, r]).filter(([p]) => p > 0)
          .sort((a, b) => b[0] - a[0]).slice(0, 3)
          .map(([p, r]) => `${RANK_NAMES[r]} ${(100 * p).toFixed(0)}%`);
        heat[i] = { p: row[0], title: `Flag ${(100 * row[0]).toFixed(1)}% · likeliest: ${likeliest.join(", ")}` };
      });
    }
  }
  drawBoard({
    cells,
    selected,
    targets,
    heat,
    last: lastMove ? lastMove.split("-") : null,
    zone: phase === "setup" ? [0, 1, 2] : null,
  }, onSquare);
  ui.showSetupControls(phase === "setup", phase === "setup");
  ui.buttons.resign.disabled = phase !== "play";
  ui.beliefs.disabled = phase !== "play";
}

function onSquare(name, index) {
  if (phase === "setup") {
    if (index >= 27) return;
    if (selected === null) {
      if (whiteCells[index] === 255) return;
      selected = name;
      ui.hint.textContent = "Now pick the square to swap it with.";
    } else {
      const from = squareIndex(selected);
      [whiteCells[from], whiteCells[index]] = [whiteCells[index], whiteCells[from]];
      selected = null;
      ui.hint.textContent = "Swapped. Swap more, or press Start.";
    }
    render();
    return;
  }
  if (phase !== "play" || botBusy || game.sideToMove !== ME) return;
  if (selected !== null && name !== selected) {
    const move = `${selected}-${name}`;
    if (game.legalMovesFrom(selected).includes(move)) {
      play(move, "you");
      return;
    }
  }
  const cell = game.view(ME).cells[index];
  if (cell && cell.owner === "own" && game.legalMovesFrom(name).length > 0) {
    selected = selected === name ? null : name;
  } else {
    selected = null;
  }
  render();
}

function newGame() {
  if (game) game.free();
  game = null;
  phase = "setup";
  selected = null;
  lastMove = null;
  botBusy = false;
  clearMoves();
  ui.download.hidden = true;
  newFormation();
  blackCells = cellsOf("black", seed ^ 0x5a5a5a);
  startWorker();
  // Setting up is the person's turn to act.
  ui.setStatus("you", "Arrange your pieces, then press Start.");
  ui.hint.textContent = "Pick two of your pieces (or a piece and an empty square of your rows) to swap them.";
  render();
}

// The offline mode's handlers for the shared controls.
export function offlineMode(shared) {
  ui = shared;
  return {
    start() {
      newGame();
    },
    reroll() {
      newFormation();
      selected = null;
      render();
    },
    begin() {
      game = Game.fromCells(whiteCells, blackCells, ME, 3, 0);
      phase = "play";
      ui.hint.textContent = "";
      afterMove();
    },
    resign() {
      if (phase !== "play") return;
      game.resign(ME);
      ui.hint.textContent = "You resigned.";
      afterMove();
    },
    render,
  };
}
