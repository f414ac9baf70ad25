// What the page knows of a game it follows through the server: as a seat, its own `Tracker`
// (its formation, the enemy's squares, the arbiter's words) and, before play, its formation;
// as a spectator, the server's public view. No DOM here: `receive` takes a frame and says
// what to send back and what happened, for the view to show.
import { ARMY, Game, NO_PIECE, NUM_RANKS, NUM_SQUARES, Tracker, rankCode } from "../pkg/salpakan.js";
import { Formation } from "../formation.js";

const other = (side) => (side === "white" ? "black" : "white");

// The rank number of a code as the server writes it ("5G"): the engine's codes, looked up.
const RANK_OF = new Map(Array.from({ length: NUM_RANKS }, (_, r) => [rankCode(r), r]));

export class Followed {
  // `seat`: {token, side, invite, opponent} of this browser's seat, or null for a spectator.
  constructor(id, seat) {
    this.id = id;
    this.token = seat?.token ?? null;
    this.side = seat?.side ?? null; // null: a spectator
    this.invite = seat?.invite ?? null;
    this.opponent = seat?.opponent ?? "human";
    this.lastV = 0;
    this.boardV = 0;
    this.phase = "setup"; // "setup", "playing", "over", "aborted", "expired"
    this.setupLeft = null; // the setup time left at `setupAt`, while it runs
    this.setupAt = 0;
    this.aborted = null; // {reason, side}, once aborted
    this.names = { white: null, black: null }; // the players' names (null: anonymous)
    this.bots = { white: false, black: false }; // which seat a bot plays
    this.rated = false;
    this.unrated = null;
    this.commitments = null; // {white, black}: the formation commitments `start` published
    this.challenge = null; // the last ply's challenge: {square, side, outcome}
    this.rematchOffers = {}; // side → true while its rematch offer stands
    this.rematchGame = null;
    this.rules = { setup_rows: 3, move_limit: 0 };
    this.status = { state: "ongoing", winner: null, reason: null };
    this.clock = null;
    this.clockAt = 0;
    this.presence = {};
    this.drawOffer = null;
    this.tracker = null;
    this.formation = null; // the seat's, while it arranges it
    this.submitted = false;
    this.publicCells = null; // a spectator's board
    this.sideToMove = null;
    this.revealed = null; // every piece with its rank, after the end
    this.record = null;
    this.selected = null;
    this.last = null;
    this.pending = null; // a move sent and not yet seen played: {move, ply}
  }

  free() {
    this.tracker?.free();
    this.tracker = null;
  }

  // Takes one frame. Returns {send: [messages], news: [what happened, for the view]}.
  receive(frame) {
    const out = { send: [], news: [] };
    if (frame.v !== undefined && frame.t !== "state") {
      if (frame.v <= this.lastV) return out; // already followed
      this.lastV = frame.v;
    }
    switch (frame.t) {
      case "state": this.onState(frame, out); break;
      case "ready": if (frame.side === this.side) this.submitted = true; break;
      case "start": this.onStart(frame, out); break;
      case "ply": this.onPly(frame, out); break;
      case "draw-offer":
        this.drawOffer = frame.side;
        out.news.push({ t: "draw-offer", side: frame.side });
        break;
      case "over": this.onOver(frame, out); break;
      case "aborted": this.onAborted(frame, out); break;
      case "rematch-offer":
        this.rematchOffers[frame.side] = true;
        out.news.push({ t: "rematch-offer", side: frame.side });
        break;
      case "rematch-made": this.rematchGame = frame.game; break;
      case "rematch":
        out.news.push({ t: "rematch", seat: { token: frame.token, side: frame.side, invite: null, opponent: this.opponent } });
        out.news.at(-1).game = frame.game;
        break;
      case "presence":
        this.presence[frame.side] = frame.connected;
        // The opponent arrived in the setup: the setup time may run now (a fresh state says).
        if (this.phase === "setup" && this.side && this.setupLeft === null && frame.connected) {
          out.send.push({ t: "hello", v: Number.MAX_SAFE_INTEGER });
        }
        break;
      case "error": out.news.push({ t: "refused", code: frame.code, message: frame.message }); break;
      default: break;
    }
    return out;
  }

  onState(frame, out) {
    this.rules = frame.rules ?? this.rules;
    this.status = frame.status;
    this.setClock(frame.clock);
    this.presence = frame.presence ?? {};
    this.drawOffer = frame.draw_offer ?? null;
    this.setupLeft = frame.setup_left_ms ?? null;
    this.names = frame.names ?? this.names;
    this.bots = frame.bots ?? this.bots;
    // The opponent is the bot when the server says so (a pool's bot too), whatever the seat
    // was kept as.
    if (this.side && this.bots[other(this.side)]) this.opponent = "bot";
    this.rated = Boolean(frame.rated);
    // Why a game asked rated is not (docs/SERVER.md, "One network"): said before the
    // first move, and again in `over`.
    this.unrated = frame.unrated ?? null;
    this.commitments = frame.commitments ?? this.commitments;
    this.setupAt = performance.now();
    if (frame.phase === "aborted") {
      this.phase = "aborted";
      this.aborted ??= { reason: null, side: null };
      if (this.clock) this.clock.running = null;
      return;
    }
    if (frame.phase === "setup") {
      this.phase = "setup";
      if (this.side) {
        this.formation ??= new Formation(this.side, this.rules.setup_rows);
        if (frame.view) {
          this.submitted = true;
          this.formation.adopt(frame.view.cells.map((c) => (c ? RANK_OF.get(c.rank) : NO_PIECE)));
        }
      }
      if (frame.v > this.lastV) out.send.push({ t: "hello", v: this.lastV });
      return;
    }
    if (!this.side) {
      this.publicCells = frame.view.cells;
      this.sideToMove = frame.view.side_to_move;
      this.boardV = frame.v;
      if (this.phase === "setup") this.phase = frame.phase;
    }
    if ((this.side && !this.tracker) || (!this.side && this.lastV === 0 && frame.v > 0)) {
      // A page that lost its memory (a reload), or a spectator arriving: every event again.
      this.lastV = 0;
      out.news.push({ t: "clear-moves" });
      out.send.push({ t: "hello", v: 0 });
      return;
    }
    if (frame.v > this.lastV) out.send.push({ t: "hello", v: this.lastV });
    // A move sent before the connection dropped: sent again, answered once.
    if (this.pending && this.tracker && this.tracker.ply === this.pending.ply) {
      out.send.push({ t: "move", move: this.pending.move, ply: this.pending.ply });
    }
  }

  onStart(frame, out) {
    this.phase = "playing";
    this.commitments = frame.commitments ?? null;
    this.setupLeft = null;
    this.setClock(frame.clock);
    if (this.side) {
      const own = frame.view.cells.map((c) => (c && c.side === this.side ? RANK_OF.get(c.rank) : NO_PIECE));
      const enemy = [];
      frame.view.cells.forEach((c, i) => { if (c && c.side !== this.side) enemy.push(i); });
      this.tracker?.free();
      this.tracker = new Tracker(this.side, own, enemy, frame.first, this.rules.setup_rows, this.rules.move_limit);
    } else {
      this.publicCells = frame.view.cells;
      this.sideToMove = frame.first;
    }
    out.news.push({ t: "start", first: frame.first });
  }

  onPly(frame, out) {
    this.phase = frame.status.state === "ongoing" ? "playing" : "over";
    this.status = frame.status;
    this.setClock(frame.clock);
    this.tracker?.observe(frame);
    if (this.drawOffer && this.drawOffer !== frame.side) this.drawOffer = null;
    if (this.pending && frame.side === this.side && frame.ply === this.pending.ply + 1) this.pending = null;
    this.last = frame.move.split("-");
    this.challenge = frame.challenge ? { square: this.last[1], side: frame.side, outcome: frame.outcome } : null;
    this.selected = null;
    this.sideToMove = other(frame.side);
    out.news.push({ t: "ply", ply: frame.ply, side: frame.side, move: frame.move, outcome: frame.outcome });
    // A spectator's board comes from the server's public view: asked for after each ply.
    if (!this.side && frame.v > this.boardV) out.send.push({ t: "hello", v: Number.MAX_SAFE_INTEGER });
  }

  onOver(frame, out) {
    this.phase = "over";
    this.status = frame.status;
    this.drawOffer = null;
    this.record = frame.record;
    if (this.clock) this.clock.running = null;
    if (this.tracker && this.tracker.status.state === "ongoing") this.tracker.observeEnd(frame.status);
    const game = Game.fromRecord(frame.record);
    this.revealed = Array.from({ length: NUM_SQUARES }, (_, i) => game.pieceAt(i) ?? null);
    game.free();
    this.unrated = frame.unrated ?? null;
    out.news.push({ t: "over", status: frame.status, record: frame.record, unrated: this.unrated });
  }

  onAborted(frame, out) {
    this.phase = "aborted";
    this.aborted = { reason: frame.reason, side: frame.side };
    this.drawOffer = null;
    this.setupLeft = null;
    this.selected = null;
    if (this.clock) this.clock.running = null;
    out.news.push({ t: "aborted", reason: frame.reason, side: frame.side });
  }

  // The setup time left now (milliseconds), counted down locally from the server's reading;
  // null while it does not run.
  setupLeftNow() {
    if (this.setupLeft === null || this.phase !== "setup") return null;
    return Math.max(0, this.setupLeft - (performance.now() - this.setupAt));
  }

  // Each side's eliminated pieces as this page may know them: [side, ranks or null, count]:
  // a seat knows its own by rank and the enemy's by count, a spectator both by count, and
  // after the end everyone knows every rank.
  eliminated() {
    if (this.phase === "setup" || this.phase === "expired") return [];
    const army = ARMY.length;
    const lost = (alive) => {
      const left = [...ARMY];
      for (const rank of alive) left.splice(left.indexOf(rank), 1);
      return left;
    };
    return ["white", "black"].map((side) => {
      if (this.revealed) {
        const ranks = lost(this.revealed.filter((p) => p && p.side === side).map((p) => p.rank));
        return [side, ranks, ranks.length];
      }
      if (this.side && this.tracker) {
        if (side === this.side) {
          const ranks = lost([...this.tracker.ownCells()].filter((r) => r !== NO_PIECE));
          return [side, ranks, ranks.length];
        }
        return [side, null, army - this.tracker.enemySquares().length];
      }
      const count = this.publicCells ? this.publicCells.filter((c) => c && c.side === side).length : army;
      return [side, null, army - count];
    });
  }

  // Whether this seat may still abort: before the first ply.
  abortable() {
    if (!this.side) return false;
    if (this.phase === "setup") return true;
    return this.phase === "playing" && (this.tracker?.ply ?? 0) === 0;
  }

  expire() {
    this.phase = "expired";
    this.selected = null;
  }

  setClock(clock) {
    this.clock = clock ? { ...clock } : null;
    this.clockAt = performance.now();
  }

  // Each side's time now, counted down locally between the server's readings.
  clockNow() {
    if (!this.clock) return null;
    const out = { white: this.clock.white_ms, black: this.clock.black_ms };
    if (this.clock.running && this.phase === "playing") {
      const side = this.clock.running;
      out[side] = Math.max(0, out[side] - (performance.now() - this.clockAt));
    }
    return out;
  }

  // The side to move as this page knows it.
  toMove() {
    return this.side ? this.tracker?.sideToMove : this.sideToMove;
  }

  // Whether this seat is arranging its formation (not yet sent).
  arranging() {
    return this.phase === "setup" && Boolean(this.side) && !this.submitted && this.formation !== null;
  }

  // The board's cells now (NUM_SQUARES × null or {owner, rank?}).
  cells() {
    const cells = new Array(NUM_SQUARES).fill(null);
    if (this.revealed) {
      this.revealed.forEach((p, i) => {
        if (!p) return;
        const owner = this.side ? (p.side === this.side ? "own" : "enemy") : p.side;
        cells[i] = { owner, rank: p.rank };
      });
    } else if (this.side && this.tracker) {
      this.tracker.ownCells().forEach((rank, i) => { if (rank !== NO_PIECE) cells[i] = { owner: "own", rank }; });
      for (const i of this.tracker.enemySquares()) cells[i] = { owner: "enemy" };
    } else if (this.side && this.formation) {
      this.formation.boardCells(cells);
    } else if (!this.side && this.publicCells) {
      this.publicCells.forEach((c, i) => { if (c) cells[i] = { owner: c.side }; });
    }
    return cells;
  }

  // The legal targets of the selected piece (square names).
  targets() {
    const targets = new Set();
    if (this.tracker && this.selected && this.phase === "playing") {
      for (const move of this.tracker.legalMovesFrom(this.selected)) targets.add(move.split("-")[1]);
    }
    return targets;
  }

  // A pick of square `name` (index `index`): rearranges the formation while arranging, or
  // selects a piece and then a target while playing. Returns the move to send, if any.
  pick(name, index) {
    if (!this.side) return null;
    if (this.phase === "setup") {
      if (this.arranging()) this.formation.pick(name, index);
      return null;
    }
    const tracker = this.tracker;
    if (this.phase !== "playing" || !tracker || tracker.sideToMove !== this.side || this.pending) return null;
    if (this.selected && this.selected !== name) {
      const move = `${this.selected}-${name}`;
      if (tracker.legalMovesFrom(this.selected).includes(move)) {
        this.pending = { move, ply: tracker.ply };
        this.selected = null;
        return { t: "move", move, ply: this.pending.ply };
      }
    }
    const own = tracker.ownCells()[index] !== NO_PIECE;
    this.selected = own && tracker.legalMovesFrom(name).length > 0 && this.selected !== name ? name : null;
    return null;
  }

  // The selected square to draw: the formation's pick while arranging, else the piece's.
  selection() {
    return this.phase === "setup" ? this.formation?.selected ?? null : this.selected;
  }
}
