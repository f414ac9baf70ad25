// Games through the arbiter server (docs/SERVER.md): a seat against a friend or the server's
// bot, or a spectator. The browser never receives an enemy rank before the end. This is the
// online mode's view: the connection (online/connection.js) brings frames, the followed game
// (online/seat.js) keeps what this page may know, and this draws it and takes the clicks.
import { addMove, announce, clearMoves, drawBoard } from "./board.js";
import { GAME_EXPIRED, GameSocket, createGame, joinGame } from "./online/connection.js";
import { Followed } from "./online/seat.js";
import { SIDE_NAMES, abortText, challengeText, endText } from "./words.js";

const seatKey = (id) => `salpakan-seat:${id}`;
const other = (side) => (side === "white" ? "black" : "white");

export function onlineMode(ui) {
  let g = null; // the game followed now
  let connection = null;

  function names() {
    if (!g.side) return { white: "White", black: "Black" };
    const them = g.opponent === "human" ? "Your opponent" : "The bot";
    return g.side === "white" ? { white: "You", black: them } : { white: them, black: "You" };
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
      case "draw-offer":
        announce(`${who[news.side]} ${news.side === g.side ? "offer" : "offers"} a draw.`);
        break;
      case "over":
        ui.offerRecord(news.record);
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
    // Creates a game (`opponent` "human" or a bot's name) and takes its first seat.
    async create({ opponent, clock }) {
      const created = await createGame(opponent, clock);
      seated(created.game, { token: created.token, side: created.side, invite: created.invite, opponent });
    },
    // Takes the seat an invite opens (or the one this browser already holds).
    async join({ id, invite }) {
      const held = localStorage.getItem(seatKey(id));
      if (held) {
        seated(id, JSON.parse(held));
        return;
      }
      const reply = await joinGame(id, invite);
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
      zone: g.arranging() ? g.formation.zone : null,
      flip: g.side === "black",
      ownColour: g.side ? null : "white",
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
