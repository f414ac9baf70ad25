// Games through the arbiter server (docs/SERVER.md): a seat against a friend or the server's
// bot, or a spectator. The browser never receives an enemy rank before the end: a seat's
// board is its own `Tracker` (its formation, the enemy's squares, the arbiter's words), a
// spectator's the server's public view.
import { Game, Tracker } from "./pkg/salpakan.js";
import { SIDE_NAMES, addMove, announce, clearMoves, drawBoard, endText, squareIndex } from "./board.js";
import { cellsOf } from "./offline.js";

const seatKey = (id) => `salpakan-seat:${id}`;
const OUTCOME_WORDS = { win: "won the challenge", lose: "lost the challenge", tie: "tied: both pieces are removed" };

let ui;
let g = null; // the game followed now

function fresh(id, seat) {
  return {
    id,
    token: seat?.token ?? null,
    side: seat?.side ?? null, // null: a spectator
    invite: seat?.invite ?? null,
    opponent: seat?.opponent ?? "human",
    socket: null,
    lastV: 0,
    boardV: 0,
    phase: "setup",
    rules: { setup_rows: 3, move_limit: 0 },
    status: { state: "ongoing", winner: null, reason: null },
    clock: null,
    clockAt: 0,
    presence: {},
    drawOffer: null,
    tracker: null,
    formation: null, // the seat's cells while it arranges them
    submitted: false,
    publicCells: null, // a spectator's board
    sideToMove: null,
    revealed: null, // every piece with its rank, after the end
    record: null,
    selected: null,
    last: null,
    pending: null, // a move sent and not yet seen played: {move, ply}
    retry: 500,
    closed: false,
  };
}

function names() {
  if (!g.side) return { white: "White", black: "Black" };
  const other = g.opponent === "human" ? "Your opponent" : "The bot";
  return g.side === "white" ? { white: "You", black: other } : { white: other, black: "You" };
}

function send(message) {
  if (g.socket && g.socket.readyState === WebSocket.OPEN) {
    g.socket.send(JSON.stringify(message));
    return true;
  }
  return false;
}

// The close code of a game deleted because it never started (docs/SERVER.md, "Expiry").
const GAME_EXPIRED = 4410;

function connect() {
  const protocol = location.protocol === "https:" ? "wss:" : "ws:";
  const query = g.token ? `?token=${encodeURIComponent(g.token)}` : "";
  const socket = new WebSocket(`${protocol}//${location.host}/api/games/${g.id}/socket${query}`);
  const mine = g;
  g.socket = socket;
  socket.onmessage = (event) => {
    if (g === mine) onFrame(JSON.parse(event.data));
  };
  socket.onopen = () => {
    mine.retry = 500;
  };
  socket.onclose = (event) => {
    if (g !== mine || mine.closed) return;
    if (event.code === GAME_EXPIRED) {
      // The game never started and the server deleted it: nothing to reconnect to.
      mine.closed = true;
      mine.phase = "expired";
      mine.selected = null;
      localStorage.removeItem(seatKey(mine.id));
      render();
      return;
    }
    ui.setPresenceSelf(false);
    setTimeout(() => {
      if (g === mine && !mine.closed) connect();
    }, mine.retry);
    mine.retry = Math.min(mine.retry * 2, 4000);
  };
}

function showLinks() {
  const base = `${location.origin}${location.pathname}`;
  ui.watchLink.href = `${base}?watch=${g.id}`;
  if (g.invite) {
    ui.inviteLink.href = `${base}?join=${g.id}&invite=${g.invite}`;
    ui.inviteLink.hidden = false;
    ui.copyInvite.hidden = false;
  } else {
    ui.inviteLink.hidden = true;
    ui.copyInvite.hidden = true;
  }
}

// Creates a game (`opponent` "human" or a bot's name) and takes its first seat.
export async function createGame(opponent, clockChoice) {
  const body = { side: "random", opponent };
  const match = /^(\d+)\+(\d+)$/.exec(clockChoice);
  if (match) body.clock = { initial_ms: Number(match[1]) * 60000, increment_ms: Number(match[2]) * 1000 };
  const reply = await fetch("/api/games", { method: "POST", body: JSON.stringify(body) });
  const created = await reply.json();
  if (!reply.ok) throw new Error(created.message ?? "the server refused the game");
  const seat = { token: created.token, side: created.side, invite: created.invite, opponent };
  localStorage.setItem(seatKey(created.game), JSON.stringify(seat));
  history.replaceState(null, "", `?game=${created.game}`);
  follow(created.game, seat);
}

// Takes the seat an invite opens (or the one this browser already holds).
export async function joinGame(id, invite) {
  const held = localStorage.getItem(seatKey(id));
  if (held) {
    history.replaceState(null, "", `?game=${id}`);
    follow(id, JSON.parse(held));
    return;
  }
  const reply = await fetch(`/api/games/${id}/join`, { method: "POST", body: JSON.stringify({ invite }) });
  const joined = await reply.json();
  if (!reply.ok) {
    ui.setStatus("over", reply.status === 409 ? "This game already has two players: you can watch it." : "No such game or invite.");
    history.replaceState(null, "", `?watch=${id}`);
    if (reply.status === 409) follow(id, null);
    return;
  }
  const seat = { token: joined.token, side: joined.side, invite: null, opponent: "human" };
  localStorage.setItem(seatKey(id), JSON.stringify(seat));
  history.replaceState(null, "", `?game=${id}`);
  follow(id, seat);
}

// Resumes this browser's seat in game `id`, or watches it.
export function resumeGame(id) {
  const held = localStorage.getItem(seatKey(id));
  follow(id, held ? JSON.parse(held) : null);
}

export function watchGame(id) {
  follow(id, null);
}

function follow(id, seat) {
  leave();
  g = fresh(id, seat);
  clearMoves();
  ui.enterOnline(Boolean(seat));
  showLinks();
  ui.setStatus("waiting", "Connecting…");
  connect();
  render();
}

// Stops following the current game (another mode takes the page).
export function leave() {
  if (!g) return;
  g.closed = true;
  g.socket?.close();
  g.tracker?.free();
  g = null;
}

function onFrame(frame) {
  if (frame.v !== undefined && frame.t !== "state") {
    if (frame.v <= g.lastV) return; // already followed
    g.lastV = frame.v;
  }
  switch (frame.t) {
    case "state": onState(frame); break;
    case "ready": if (frame.side === g.side) g.submitted = true; break;
    case "start": onStart(frame); break;
    case "ply": onPly(frame); break;
    case "draw-offer":
      g.drawOffer = frame.side;
      announce(`${names()[frame.side]} ${frame.side === g.side ? "offer" : "offers"} a draw.`);
      break;
    case "over": onOver(frame); break;
    case "presence": g.presence[frame.side] = frame.connected; break;
    case "error": ui.hint.textContent = `Refused: ${frame.message}`; break;
    default: break;
  }
  render();
}

function onState(frame) {
  g.rules = frame.rules ?? g.rules;
  g.status = frame.status;
  setClock(frame.clock);
  g.presence = frame.presence ?? {};
  g.drawOffer = frame.draw_offer ?? null;
  ui.setPresenceSelf(true);
  if (frame.phase === "setup") {
    g.phase = "setup";
    if (g.side) {
      if (frame.view) {
        g.submitted = true;
        g.formation = frame.view.cells.map((c) => (c ? rankNumber(c.rank) : 255));
      } else if (!g.formation) {
        g.formation = cellsOf(g.side, Math.floor(Math.random() * 1e9));
      }
    }
    if (frame.v > g.lastV) send({ t: "hello", v: g.lastV });
    return;
  }
  if (!g.side) {
    g.publicCells = frame.view.cells;
    g.sideToMove = / ([wb]) /.exec(frame.view.text)?.[1] === "b" ? "black" : "white";
    g.boardV = frame.v;
    if (g.phase === "setup") g.phase = frame.phase;
  }
  if (g.side && !g.tracker) {
    // A page that lost its memory (a reload): the game's events again, from the first.
    g.lastV = 0;
    clearMoves();
    send({ t: "hello", v: 0 });
    return;
  }
  if (!g.side && g.lastV === 0 && frame.v > 0) {
    clearMoves();
    send({ t: "hello", v: 0 });
    return;
  }
  if (frame.v > g.lastV) send({ t: "hello", v: g.lastV });
  // A move sent before the connection dropped: sent again, answered once.
  if (g.pending && g.tracker && g.tracker.ply === g.pending.ply) {
    send({ t: "move", move: g.pending.move, ply: g.pending.ply });
  }
}

const CODES = ["FL", "PV", "SG", "2L", "1L", "CP", "MJ", "LC", "CO", "1G", "2G", "3G", "4G", "5G", "SP"];
const rankNumber = (code) => CODES.indexOf(code);

function onStart(frame) {
  g.phase = "playing";
  setClock(frame.clock);
  if (g.side) {
    const own = frame.view.cells.map((c) => (c && c.side === g.side ? rankNumber(c.rank) : 255));
    const enemy = [];
    frame.view.cells.forEach((c, i) => { if (c && c.side !== g.side) enemy.push(i); });
    g.tracker?.free();
    g.tracker = new Tracker(g.side, own, enemy, frame.first, g.rules.setup_rows, g.rules.move_limit);
  } else {
    g.publicCells = frame.view.cells;
    g.sideToMove = frame.first;
  }
  announce(`The game starts: ${names()[frame.first]} ${names()[frame.first] === "You" ? "move" : "moves"} first.`);
}

function onPly(frame) {
  g.phase = frame.status.state === "ongoing" ? "playing" : "over";
  g.status = frame.status;
  setClock(frame.clock);
  if (g.tracker) g.tracker.observe(frame);
  if (g.drawOffer && g.drawOffer !== frame.side) g.drawOffer = null;
  if (g.pending && frame.side === g.side && frame.ply === g.pending.ply + 1) g.pending = null;
  g.last = frame.move.split("-");
  g.selected = null;
  g.sideToMove = frame.side === "white" ? "black" : "white";
  addMove(frame.ply, frame.side, frame.move, frame.outcome);
  const who = names()[frame.side];
  const what = frame.challenge ? ` ${who === "You" ? "Your" : `${who}'s`} piece ${OUTCOME_WORDS[frame.outcome]}.` : "";
  ui.hint.textContent = what.trim();
  announce(`${who}: ${frame.move}.${what}`);
  if (!g.side && frame.v > g.boardV) send({ t: "hello", v: Number.MAX_SAFE_INTEGER }); // the new public board
}

function onOver(frame) {
  g.phase = "over";
  g.status = frame.status;
  g.drawOffer = null;
  g.record = frame.record;
  if (g.clock) g.clock.running = null;
  if (g.tracker && g.tracker.status.state === "ongoing") g.tracker.observeEnd(frame.status);
  const game = Game.fromRecord(frame.record);
  g.revealed = [];
  for (let i = 0; i < 72; i++) g.revealed.push(game.pieceAt(i) ?? null);
  game.free();
  ui.download.hidden = false;
  ui.download.href = URL.createObjectURL(new Blob([frame.record], { type: "text/plain" }));
  announce(endText(frame.status, names()));
}

function setClock(clock) {
  g.clock = clock ? { ...clock } : null;
  g.clockAt = performance.now();
}

// Each side's time now, counted down locally between the server's readings.
function clockNow() {
  if (!g?.clock) return null;
  const out = { white: g.clock.white_ms, black: g.clock.black_ms };
  if (g.clock.running && g.phase === "playing") {
    const side = g.clock.running;
    out[side] = Math.max(0, out[side] - (performance.now() - g.clockAt));
  }
  return out;
}

export function tickClocks() {
  const now = clockNow();
  ui.showClocks(now, g?.clock?.running ?? null);
}

function turnOf() {
  if (g.phase === "over") return ["over", endText(g.status, names())];
  if (g.phase === "expired") return ["over", "This game expired before it started: create a new one."];
  if (g.phase === "setup") {
    if (!g.side) return ["waiting", "The players are arranging their pieces."];
    return g.submitted
      ? ["waiting", g.presence[other(g.side)] === false && g.opponent === "human"
        ? "Waiting for your friend to join and arrange their pieces."
        : "Waiting for the other formation."]
      : ["setup", "Arrange your pieces (swap two by picking them), then press Start."];
  }
  const toMove = g.side ? g.tracker?.sideToMove : g.sideToMove;
  if (!g.side) return [toMove, `${SIDE_NAMES[toMove]} to move.`];
  if (toMove === g.side) return ["you", "Your move: pick one of your pieces, then a square."];
  return g.opponent === "human" ? ["opponent", "Your opponent is thinking…"] : ["bot", "The bot is thinking…"];
}

const other = (side) => (side === "white" ? "black" : "white");

function cellsNow() {
  const cells = new Array(72).fill(null);
  if (g.revealed) {
    g.revealed.forEach((p, i) => {
      if (!p) return;
      cells[i] = g.side ? { owner: p.side === g.side ? "own" : "enemy", rank: p.rank } : { owner: p.side, rank: p.rank };
    });
    return cells;
  }
  if (g.side && g.tracker) {
    const own = g.tracker.ownCells();
    own.forEach((rank, i) => { if (rank !== 255) cells[i] = { owner: "own", rank }; });
    for (const i of g.tracker.enemySquares()) cells[i] = { owner: "enemy" };
  } else if (g.side && g.formation) {
    g.formation.forEach((rank, i) => { if (rank !== 255) cells[i] = { owner: "own", rank }; });
  } else if (!g.side && g.publicCells) {
    g.publicCells.forEach((c, i) => { if (c) cells[i] = { owner: c.side }; });
  }
  return cells;
}

export function render() {
  if (!g || !ui.active("online")) return;
  const [turn, text] = turnOf();
  ui.setStatus(turn, text);
  const targets = new Set();
  if (g.tracker && g.selected && g.phase === "playing") {
    for (const move of g.tracker.legalMovesFrom(g.selected)) targets.add(move.split("-")[1]);
  }
  const zoneRows = g.side === "black" ? [5, 6, 7] : [0, 1, 2];
  drawBoard({
    cells: cellsNow(),
    selected: g.selected,
    targets,
    last: g.last,
    zone: g.phase === "setup" && g.side && !g.submitted ? zoneRows.slice(0, g.rules.setup_rows) : null,
    flip: g.side === "black",
    ownColour: g.side ? null : "white",
  }, onSquare);
  const playing = g.phase === "playing" && Boolean(g.side);
  const arranging = g.phase === "setup" && Boolean(g.side) && !g.submitted;
  ui.showSetupControls(g.phase === "setup" && Boolean(g.side), arranging);
  // The invite matters until play starts; the spectator link stays.
  ui.inviteLink.hidden = ui.copyInvite.hidden = !g.invite || g.phase !== "setup";
  ui.buttons.resign.disabled = !playing;
  ui.buttons.offerDraw.disabled = !playing || g.drawOffer === g.side || g.opponent !== "human";
  ui.showDrawOffer(g.drawOffer, g.drawOffer && g.drawOffer !== g.side ? `${names()[g.drawOffer]} offers a draw: press Offer draw to accept, or move to decline.` : "Your draw offer stands.");
  // The links are shown while following a game; an expired one has none to share and
  // nobody to wait for.
  ui.links.hidden = g.phase === "expired";
  const opponent = g.side && g.phase !== "expired" ? other(g.side) : null;
  ui.showPresence(opponent ? g.presence[opponent] !== false : null, g.phase === "setup");
  tickClocks();
}

function onSquare(name, index) {
  if (!g || !g.side) return;
  if (g.phase === "setup") {
    if (g.submitted || !g.formation) return;
    const zone = g.side === "white" ? index < g.rules.setup_rows * 9 : index >= 72 - g.rules.setup_rows * 9;
    if (!zone) return;
    if (g.selected === null) {
      if (g.formation[index] === 255) return;
      g.selected = name;
    } else {
      const from = squareIndex(g.selected);
      [g.formation[from], g.formation[index]] = [g.formation[index], g.formation[from]];
      g.selected = null;
    }
    render();
    return;
  }
  if (g.phase !== "playing" || !g.tracker || g.tracker.sideToMove !== g.side || g.pending) return;
  if (g.selected && g.selected !== name) {
    const move = `${g.selected}-${name}`;
    if (g.tracker.legalMovesFrom(g.selected).includes(move)) {
      g.pending = { move, ply: g.tracker.ply };
      g.selected = null;
      send({ t: "move", move, ply: g.pending.ply });
      render();
      return;
    }
  }
  const own = g.tracker.ownCells()[index] !== 255;
  g.selected = own && g.tracker.legalMovesFrom(name).length > 0 && g.selected !== name ? name : null;
  render();
}

// The online mode's handlers for the shared controls.
export function onlineMode(shared) {
  ui = shared;
  return {
    reroll() {
      if (!g?.side || g.submitted) return;
      g.formation = cellsOf(g.side, Math.floor(Math.random() * 1e9));
      g.selected = null;
      render();
    },
    begin() {
      if (!g?.side || g.submitted || !g.formation) return;
      g.selected = null;
      send({ t: "setup", cells: g.formation });
    },
    resign() {
      send({ t: "resign" });
    },
    offerDraw() {
      send({ t: "draw" });
    },
    render,
  };
}
