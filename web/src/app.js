// The page: a game against the engine's bot. The human plays White (the bottom rows); the bot
// plays Black in a Web Worker. Everything about the rules comes from the engine.
import { Game } from "./pkg/salpakan.js";

const FILES = "abcdefghi";
const ME = "white";
const BOT = "black";
const BUDGET = 3000;

const board = document.getElementById("board");
const status = document.getElementById("status");
const hint = document.getElementById("hint");
const movesList = document.getElementById("moves");
const buttons = {
  reroll: document.getElementById("reroll"),
  start: document.getElementById("start"),
  resign: document.getElementById("resign"),
  newGame: document.getElementById("new-game"),
};
const beliefsToggle = document.getElementById("beliefs");
const download = document.getElementById("download");

const squareName = (index) => `${FILES[index % 9]}${Math.floor(index / 9) + 1}`;
const rankNames = ["Flag", "Private", "Sergeant", "2nd Lieutenant", "1st Lieutenant", "Captain",
  "Major", "Lieutenant Colonel", "Colonel", "1-Star General", "2-Star General",
  "3-Star General", "4-Star General", "5-Star General", "Spy"];
const rankCodes = ["FL", "PV", "SG", "2L", "1L", "CP", "MJ", "LC", "CO", "1G", "2G", "3G", "4G", "5G", "SP"];

let phase = "setup"; // "setup", "play", "over"
let seed = Math.floor(Math.random() * 1e9);
let whiteCells = null;
let blackCells = null;
let game = null;
let selected = null;
let botBusy = false;
let worker = null;
let lastMove = null;

function cellsOf(side, fromSeed) {
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
      hint.textContent = `The bot failed: ${event.data.error}`;
      return;
    }
    if (phase === "play" && game.sideToMove === BOT) play(event.data.move, "bot");
  };
}

function setStatus(turn, text) {
  status.dataset.turn = turn;
  status.textContent = text;
}

function describe(report, who) {
  if (!report.challenge) return "";
  const attacker = who === "you" ? "Your piece" : "The bot's piece";
  const words = { win: "won the challenge", lose: "lost the challenge", tie: "tied: both are removed" };
  return `${attacker} ${words[report.outcome]}.`;
}

function endText(s) {
  const who = s.winner === ME ? "You win" : s.winner === BOT ? "The bot wins" : "Draw";
  const why = {
    "flag-captured": "a Flag was captured",
    "flag-reached-end": "a Flag reached the far row",
    resignation: "resignation",
    agreement: "agreement",
    "move-limit": "the move limit",
  }[s.reason] ?? s.reason;
  return `${who} — ${why}.`;
}

function play(move, who) {
  const report = game.play(move);
  lastMove = move;
  const item = document.createElement("li");
  item.textContent = move + (report.challenge ? ` (${report.outcome})` : "");
  if (report.challenge) item.className = "challenge";
  movesList.appendChild(item);
  movesList.scrollTop = movesList.scrollHeight;
  hint.textContent = describe(report, who);
  afterMove();
}

function afterMove() {
  selected = null;
  const s = game.status;
  if (s.state !== "ongoing") {
    phase = "over";
    setStatus("over", endText(s));
    download.hidden = false;
    download.href = URL.createObjectURL(new Blob([game.record()], { type: "text/plain" }));
  } else if (game.sideToMove === BOT) {
    setStatus("bot", "The bot is thinking…");
    botBusy = true;
    worker.postMessage({ record: game.record(), side: BOT, seed, budget: BUDGET });
  } else {
    setStatus("you", "Your move: click one of your pieces, then a square.");
  }
  render();
}

function render() {
  board.replaceChildren();
  const view = phase === "setup" ? null : game.view(ME);
  const beliefs = phase === "play" && beliefsToggle.checked ? game.beliefs(ME) : null;
  const targets = new Set();
  if (phase === "play" && selected !== null) {
    for (const move of game.legalMovesFrom(selected)) targets.add(move.split("-")[1]);
  }
  for (let row = 7; row >= 0; row--) {
    for (let file = 0; file < 9; file++) {
      const index = row * 9 + file;
      const name = squareName(index);
      const square = document.createElement("div");
      square.className = `square${(row + file) % 2 ? "" : " dark"}`;
      square.dataset.square = name;
      if (phase === "setup" && row < 3) square.classList.add("zone");
      if (lastMove && lastMove.split("-").includes(name)) square.classList.add("last");
      if (selected === name) square.classList.add("selected");
      if (targets.has(name)) square.dataset.legal = "";
      let piece = null;
      if (phase === "setup") {
        if (whiteCells[index] !== 255) piece = { owner: "own", rank: whiteCells[index] };
        else if (blackCells[index] !== 255) piece = { owner: "enemy" };
      } else if (phase === "over") {
        const p = game.pieceAt(index);
        if (p) piece = { owner: p.side === ME ? "own" : "enemy", rank: p.rank, revealed: true };
      } else {
        const cell = view.cells[index];
        if (cell) piece = cell.owner === "own" ? { owner: "own", rank: cell.rank } : { owner: "enemy" };
      }
      if (piece) {
        square.dataset.piece = piece.owner;
        const token = document.createElement("div");
        token.className = `piece ${piece.owner}`;
        if (piece.rank !== undefined) {
          token.textContent = rankCodes[piece.rank];
          token.title = rankNames[piece.rank];
          if (piece.rank === 0) token.classList.add("flag");
        } else {
          token.classList.add("hidden");
        }
        if (beliefs && piece.owner === "enemy") {
          const row15 = beliefs.subarray(index * 15, index * 15 + 15);
          const pFlag = row15[0];
          square.dataset.pFlag = pFlag.toFixed(4);
          // The piece glows gold the likelier it is the Flag, and shows the percentage.
          const heat = document.createElement("div");
          heat.className = "heat";
          heat.style.setProperty("--p", Math.min(0.95, pFlag * 3).toFixed(3));
          token.classList.remove("hidden");
          token.appendChild(heat);
          const pct = document.createElement("span");
          pct.className = "pct";
          pct.textContent = `${Math.round(100 * pFlag)}%`;
          token.appendChild(pct);
          const likeliest = [...row15].map((p, r) => [p, r]).filter(([p]) => p > 0)
            .sort((a, b) => b[0] - a[0]).slice(0, 3)
            .map(([p, r]) => `${rankNames[r]} ${(100 * p).toFixed(0)}%`);
          token.title = `Flag ${(100 * pFlag).toFixed(1)}% · likeliest: ${likeliest.join(", ")}`;
        }
        square.appendChild(token);
      }
      square.addEventListener("click", () => onSquare(name, index));
      board.appendChild(square);
    }
  }
  buttons.reroll.disabled = phase !== "setup";
  buttons.start.disabled = phase !== "setup";
  buttons.resign.disabled = phase !== "play";
  beliefsToggle.disabled = phase !== "play";
  if (view) view.free?.();
}

function onSquare(name, index) {
  if (phase === "setup") {
    if (index >= 27) return;
    if (selected === null) {
      if (whiteCells[index] === 255) return;
      selected = name;
      hint.textContent = "Now click the square to swap it with.";
    } else {
      const from = FILES.indexOf(selected[0]) + (Number(selected.slice(1)) - 1) * 9;
      [whiteCells[from], whiteCells[index]] = [whiteCells[index], whiteCells[from]];
      selected = null;
      hint.textContent = "Swapped. Swap more, or press Start.";
    }
    render();
    return;
  }
  if (phase !== "play" || botBusy || game.sideToMove !== ME) return;
  const cell = game.view(ME).cells[index];
  if (selected !== null && name !== selected) {
    const move = `${selected}-${name}`;
    if (game.legalMovesFrom(selected).includes(move)) {
      play(move, "you");
      return;
    }
  }
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
  movesList.replaceChildren();
  download.hidden = true;
  newFormation();
  blackCells = cellsOf("black", seed ^ 0x5a5a5a);
  startWorker();
  // Setting up is the person's turn to act.
  setStatus("you", "Arrange your pieces, then press Start.");
  hint.textContent = "Click two of your pieces (or a piece and an empty square of your rows) to swap them.";
  render();
}

buttons.reroll.addEventListener("click", () => {
  newFormation();
  selected = null;
  render();
});
buttons.start.addEventListener("click", () => {
  game = Game.fromCells(whiteCells, blackCells, ME, 3, 0);
  phase = "play";
  hint.textContent = "";
  afterMove();
});
buttons.resign.addEventListener("click", () => {
  if (phase !== "play") return;
  game.resign(ME);
  hint.textContent = "You resigned.";
  afterMove();
});
buttons.newGame.addEventListener("click", newGame);
beliefsToggle.addEventListener("change", render);

newGame();
