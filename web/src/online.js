// Games through the arbiter server (docs/SERVER.md): a seat against a friend or the server's
// bot, or a spectator. The browser never receives an enemy rank before the end. This is the
// online mode's view: the connection (online/connection.js) brings frames, the followed game
// (online/seat.js) keeps what this page may know, and this draws it and takes the clicks.
import { addEnd, addMove, announce, clearMoves, drawBoard, noteOnBoard, showEliminated } from "./board.js";
import { api, clockOf } from "./lobby.js";
import { GAME_EXPIRED, GameSocket } from "./online/connection.js";
import { Followed } from "./online/seat.js";
import { SIDE_NAMES, abortText, challengeText, eliminationText, endText } from "./words.js";

const seatKey = (id) => `salpakan-seat:${id}`;
const other = (side) => (side === "white" ? "black" : "white");

export function onlineMode(ui) {
  let g = null; // the game followed now
  let connection = null;

  // Who each side is, in words: "You", the opponent's name (or "Your opponent", "The bot"),
  // and for a spectator the players' names or the colours.
  function names() {
    const named = (side, fallback) => g.names?.[side] ?? fallback;
    if (!g.side) return { white: named("white", "White"), black: named("black", "Black") };
    const enemy = other(g.side);
    const them = named(enemy, g.opponent === "human" ? "Your opponent" : "The bot");
    return g.side === "white" ? { white: "You", black: them } : { white: them, black: "You" };
  }

  // The players' names and ratings above (the opponent) and below (you) the board.
  const ratings = new Map();
  function showPlayers() {
    const bottom = g.side ?? "white";
    const top = other(bottom);
    for (const [id, side] of [["player-top", top], ["player-bottom", bottom]]) {
      const bar = document.getElementById(id);
      const name = g.names?.[side] ?? null;
      bar.hidden = false;
      bar.dataset.side = side;
      const who = side === g.side ? `You${name ? ` (${name})` : ""}` : name ?? (g.opponent === "human" || !g.side ? "Anonymous" : "The bot");
      const rating = name && ratings.get(name.toLowerCase());
      bar.replaceChildren(
        Object.assign(document.createElement("span"), { textContent: `${SIDE_NAMES[side]}: ${who}` }),
        Object.assign(document.createElement("span"), { className: "rating", textContent: rating ?? (g.rated ? "rated" : "") }),
      );
      if (name && !ratings.has(name.toLowerCase())) {
        ratings.set(name.toLowerCase(), "");
        api("GET", `/api/players/${encodeURIComponent(name)}`).then((reply) => {
          if (!reply.ok) return;
          ratings.set(name.toLowerCase(), `${reply.body.rating}${reply.body.provisional ? "?" : ""} · ${reply.body.title}`);
          if (g) showPlayers();
        });
      }
    }
    const youPlay = document.getElementById("you-play");
    youPlay.hidden = !g.side;
    youPlay.textContent = g.side ? `You play ${SIDE_NAMES[g.side]}${g.rated ? " (rated)" : ""}.` : "";
  }

  function send(message) {
    return connection?.send(message) ?? false;
  }

  function showLinks() {
    const base = `${location.origin}${location.pathname}`;
    ui.watchLink.href = `${base}?watch=${g.id}`;
    ui.inviteLink.hidden = ui.copyInvite.hidden = !g.invite;
    if (g.invite) ui.inviteLink.href = `${base}?join=${g.id}&invite=${g.invite}`;
  }

  // Shows what a frame changed.
  function show(news) {
    const who = names();
    switch (news.t) {
      case "clear-moves": clearMoves(); break;
      case "start":
        announce(`The game starts: ${who[news.first]} ${who[news.first] === "You" ? "move" : "moves"} first.`);
        break;
      case "ply": {
        addMove(news.ply, news.side, news.move, news.outcome);
        const what = news.outcome ? challengeText(who[news.side], news.outcome) : "";
        ui.hint.textContent = what;
        announce(`${who[news.side]}: ${news.move}.${what ? ` ${what}` : ""}`);
        break;
      }
      case "rematch-offer":
        ui.hint.textContent = news.side === g.side
          ? "You asked for a rematch: waiting for your opponent (the offer stands 5 minutes)."
          : `${who[news.side]} ${news.side === g.side ? "ask" : "asks"} for a rematch: press Rematch to play again.`;
        announce(ui.hint.textContent);
        break;
      case "rematch":
        // Straight to the rematch's setup, in this seat's new colour.
        setTimeout(() => seated(news.game, news.seat), 0);
        break;
      case "draw-offer":
        announce(`${who[news.side]} ${news.side === g.side ? "offer" : "offers"} a draw.`);
        break;
      case "over":
        ui.offerRecord(news.record);
        ui.offerReplay(g.id);
        if (!["flag-captured", "flag-reached-end"].includes(news.status.reason)) addEnd(endText(news.status, who));
        announce(endText(news.status, who));
        break;
      case "aborted":
        announce(abortText(news, who));
        break;
      case "refused": ui.hint.textContent = `Refused: ${news.message}`; break;
      default: break;
    }
  }

  function follow(id, seat) {
    leave();
    const followed = new Followed(id, seat);
    g = followed;
    clearMoves();
    ui.enterOnline(Boolean(seat));
    showLinks();
    ui.setStatus("waiting", "Connecting…");
    connection = new GameSocket(id, followed.token, {
      frame(frame) {
        if (g !== followed) return;
        const { send: replies, news } = followed.receive(frame);
        if (frame.t === "state") ui.setPresenceSelf(true);
        news.forEach(show);
        replies.forEach(send);
        render();
      },
      closed(event) {
        if (g !== followed || event.code !== GAME_EXPIRED) return true;
        // The game never started and the server deleted it: nothing to reconnect to.
        followed.expire();
        localStorage.removeItem(seatKey(id));
        render();
        return false;
      },
      lost() {
        if (g === followed) ui.setPresenceSelf(false);
      },
    });
    render();
  }

  // Stops following the current game (another mode takes the page).
  function leave() {
    connection?.close();
    connection = null;
    g?.free();
    g = null;
  }

  function seated(id, seat) {
    localStorage.setItem(seatKey(id), JSON.stringify(seat));
    history.replaceState(null, "", `?game=${id}`);
    follow(id, seat);
  }

  const routes = {
    // Creates a game (`opponent` "human" or a bot's name) and takes its first seat (as this
    // browser's player, if it has one).
    async create({ opponent, clock }) {
      const reply = await api("POST", "/api/games", { side: "random", opponent, clock: clockOf(clock) });
      if (!reply.ok) throw new Error(reply.body?.message ?? "the server refused the game");
      const created = reply.body;
      seated(created.game, { token: created.token, side: created.side, invite: created.invite, opponent });
    },
    // Follows a seat this player was given (a pairing, an accepted seek).
    seat({ game, seat }) {
      seated(game, seat);
    },
    // Takes the seat an invite opens (or the one this browser already holds).
    async join({ id, invite }) {
      const held = localStorage.getItem(seatKey(id));
      if (held) {
        const seat = JSON.parse(held);
        seated(id, seat);
        if (seat.invite) {
          // This browser made the game: the invite is for somebody else.
          ui.hint.textContent = "This browser already holds the other seat of this game (you created it). To take the second seat, open the invite link in another browser or a private window.";
        }
        return;
      }
      const reply = await api("POST", `/api/games/${id}/join`, { invite });
      if (!reply.ok) {
        const taken = reply.status === 409;
        ui.setStatus("over", taken ? "This game already has two players: you can watch it." : "No such game or invite.");
        history.replaceState(null, "", `?watch=${id}`);
        if (taken) follow(id, null);
        return;
      }
      seated(id, { token: reply.body.token, side: reply.body.side, invite: null, opponent: "human" });
    },
    // Resumes this browser's seat in game `id`, or watches it.
    resume({ id }) {
      const held = localStorage.getItem(seatKey(id));
      follow(id, held ? JSON.parse(held) : null);
    },
    watch({ id }) {
      follow(id, null);
    },
  };

  function turnOf() {
    if (g.phase === "over") return ["over", endText(g.status, names())];
    if (g.phase === "aborted") return ["over", abortText(g.aborted ?? {}, names())];
    if (g.phase === "expired") return ["over", "This game expired before it started: create a new one."];
    if (g.phase === "setup") {
      if (!g.side) return ["waiting", "The players are arranging their pieces."];
      if (g.arranging()) return ["setup", "Arrange your pieces (swap two by picking them), then press Start."];
      const friendAway = g.presence[other(g.side)] === false && g.opponent === "human";
      return ["waiting", friendAway ? "Waiting for your friend to join and arrange their pieces." : "Waiting for the other formation."];
    }
    const toMove = g.toMove();
    if (!g.side) return [toMove, `${SIDE_NAMES[toMove]} to move.`];
    if (toMove === g.side) return ["you", "Your move: pick one of your pieces, then a square."];
    return g.opponent === "human" ? ["opponent", "Your opponent is thinking…"] : ["bot", "The bot is thinking…"];
  }

  function tick() {
    ui.showClocks(g?.clockNow() ?? null, g?.clock?.running ?? null);
    ui.showSetupTime(g?.setupLeftNow() ?? null);
  }

  function render() {
    if (!g || !ui.active("online")) return;
    const [turn, text] = turnOf();
    ui.setStatus(turn, text);
    drawBoard({
      cells: g.cells(),
      selected: g.selection(),
      targets: g.targets(),
      last: g.last,
      challenge: g.challenge?.square ?? null,
      zone: g.arranging() ? g.formation.zone : null,
      flip: g.side === "black",
      ownSide: g.side ?? "white",
    }, (name, index) => {
      const move = g?.pick(name, index);
      if (move) send(move);
      render();
    });
    const playing = g.phase === "playing" && Boolean(g.side);
    ui.showSetupControls(g.phase === "setup" && Boolean(g.side), g.arranging());
    // The invite matters until play starts; the spectator link stays.
    ui.inviteLink.hidden = ui.copyInvite.hidden = !g.invite || g.phase !== "setup";
    ui.buttons.resign.disabled = !playing;
    ui.buttons.abort.hidden = !g.abortable();
    ui.buttons.rematch.hidden = !(g.side && g.phase === "over");
    ui.buttons.rematch.disabled = Boolean(g.rematchOffers[g.side]) && !g.rematchGame;
    showPlayers();
    showEliminated(g.eliminated());
    noteOnBoard(g.challenge && g.phase === "playing" ? eliminationText(g.challenge.side, g.challenge.outcome, names()) : null);
    ui.buttons.offerDraw.disabled = !playing || g.drawOffer === g.side || g.opponent !== "human";
    const offer = g.drawOffer;
    ui.showDrawOffer(offer, offer && offer !== g.side ? `${names()[offer]} offers a draw: press Offer draw to accept, or move to decline.` : "Your draw offer stands.");
    // The links are shown while following a game; an expired one has none to share and
    // nobody to wait for.
    ui.links.hidden = g.phase === "expired";
    const opponent = g.side && g.phase !== "expired" ? other(g.side) : null;
    ui.showPresence(opponent ? g.presence[opponent] !== false : null, g.phase === "setup");
    tick();
  }

  return {
    // Follows a game: `how` is {create: {opponent, clock}}, {join: {id, invite}},
    // {resume: {id}} or {watch: {id}}.
    async enter(how) {
      const [route, args] = Object.entries(how)[0];
      await routes[route](args);
    },
    leave,
    reroll() {
      if (!g?.arranging()) return;
      g.formation.reroll();
      render();
    },
    begin() {
      if (!g?.arranging()) return;
      g.formation.selected = null;
      send({ t: "setup", cells: [...g.formation.cells] });
    },
    resign() {
      send({ t: "resign" });
    },
    rematch() {
      send({ t: "rematch" });
    },
    abort() {
      if (g?.abortable()) send({ t: "abort" });
    },
    offerDraw() {
      send({ t: "draw" });
    },
    render,
    tick,
  };
}
