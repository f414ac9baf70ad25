// Games through the arbiter server (docs/SERVER.md): a seat against a friend or the server's
// bot, or a spectator. The browser never receives an enemy rank before the end. This is the
// online mode's view: the connection (connection.js) brings frames, the followed game
// (online/seat.js) keeps what this page may know, and this draws it and takes the clicks.
import { addEnd, addMove, announce, clearMoves, drawBoard, noteOnBoard, showEliminated } from "./board.js";
import { GAME_EXPIRED, KeptSocket, api } from "./connection.js";
import { chatPanel } from "./chat.js";
import { Followed } from "./online/seat.js";
import { showVerdict } from "./verify.js";
import { storedPlayer } from "./player.js";
import { dropSeat, heldSeat, keepSeat } from "./seats.js";
import { abortText, botName, challengeText, eliminationText, endText, other, personText, ratingText, refusalText, sideName, t } from "./words.js";

export function onlineMode(ui) {
  let g = null; // the game followed now
  let connection = null;

  // Who each side is: you, the opponent by name (or as your opponent, or the bot), and for a
  // spectator the players by name or their colours.
  function people() {
    const named = (side, fallback) => {
      const name = g.names?.[side];
      if (!name) return fallback;
      return g.bots[side] ? { name: botName(name), bot: true } : { name };
    };
    if (!g.side) return { white: named("white", { side: "white" }), black: named("black", { side: "black" }) };
    const them = named(other(g.side), g.opponent === "human" ? { opponent: true } : { bot: true });
    return g.side === "white" ? { white: { you: true }, black: them } : { white: them, black: { you: true } };
  }

  // The players' names and ratings above (the opponent) and below (you) the board; a bot is
  // marked as one, with its level, and no title.
  const ratings = new Map();
  function showPlayers() {
    const bottom = g.side ?? "white";
    const top = other(bottom);
    for (const [id, side] of [["player-top", top], ["player-bottom", bottom]]) {
      const bar = document.getElementById(id);
      const name = g.names?.[side] ?? null;
      bar.hidden = false;
      bar.dataset.side = side;
      let who;
      if (side === g.side) who = name ? t("bar.you-named", { name }) : t("bar.you");
      else who = name ?? (g.opponent === "human" || !g.side ? t("who.anonymous") : t("who.bot"));
      const bot = Boolean(g.bots?.[side]);
      bar.dataset.bot = String(bot);
      if (bot && name) who = botName(name);
      const rating = name && ratings.get(name.toLowerCase());
      bar.replaceChildren(
        Object.assign(document.createElement("span"), { textContent: t("bar.side", { side: sideName(side), who }) }),
        ...(bot ? [Object.assign(document.createElement("span"), { className: "bot-mark", textContent: t("bar.bot") })] : []),
        Object.assign(document.createElement("span"), { className: "rating", textContent: rating ?? (g.rated ? t("bar.rated") : "") }),
      );
      if (name && !ratings.has(name.toLowerCase())) {
        ratings.set(name.toLowerCase(), "");
        api("GET", `/api/players/${encodeURIComponent(name)}`).then((reply) => {
          if (!reply.ok) return;
          const shown = ratingText(reply.body.rating, reply.body.provisional);
          ratings.set(name.toLowerCase(), reply.body.bot ? shown : `${shown} · ${reply.body.title}`);
          if (g) showPlayers();
        });
      }
    }
    const rules = document.getElementById("rules-shown");
    rules.hidden = false;
    rules.textContent = g.rules.move_limit
      ? t("rules.shown", { rows: g.rules.setup_rows, limit: g.rules.move_limit })
      : t("rules.shown-nolimit", { rows: g.rules.setup_rows });
    const youPlay = document.getElementById("you-play");
    youPlay.hidden = !g.side;
    const played = g.unrated ? "you-play.unrated" : g.rated ? "you-play.rated" : "you-play";
    youPlay.textContent = g.side ? t(played, { side: sideName(g.side), why: g.unrated ? t(`unrated.${g.unrated}`) : "" }) : "";
    youPlay.dataset.unrated = g.unrated ?? "";
  }

  // After a rated game, this seat's rating change, as the server's history has it (the
  // game's entry in the player's games).
  async function showRatingChange(followed) {
    const name = followed.names?.[followed.side];
    if (!name) return;
    for (let tries = 0; tries < 5 && g === followed; tries++) {
      const reply = await api("GET", `/api/players/${encodeURIComponent(name)}/games?limit=5`);
      const entry = reply.ok ? reply.body.games.find((game) => game.game === followed.id) : null;
      const change = entry?.ratings?.[followed.side];
      if (change) {
        if (g === followed) ui.showRatingChange(change.after - change.before, change.after);
        return;
      }
      // Not rated after all (ended before each side's second ply), or not listed yet.
      if (entry) return;
      await new Promise((done) => setTimeout(done, 300));
    }
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
    const who = people();
    switch (news.t) {
      case "clear-moves": clearMoves(); break;
      case "start": {
        const first = who[news.first];
        announce(first.you ? t("announce.start.you") : t("announce.start.them", { who: personText(first) }));
        break;
      }
      case "ply": {
        addMove(news.ply, news.side, news.move, news.outcome);
        const what = news.outcome ? challengeText(who[news.side], news.outcome) : "";
        ui.hint.textContent = what;
        const mover = personText(who[news.side]);
        announce(what ? t("announce.move-and", { who: mover, move: news.move, what }) : t("announce.move", { who: mover, move: news.move }));
        break;
      }
      case "rematch-offer":
        ui.hint.textContent = news.side === g.side
          ? t("hint.rematch-asked")
          : t("hint.rematch-offered", { who: personText(who[news.side]) });
        announce(ui.hint.textContent);
        break;
      case "rematch":
        // Straight to the rematch's setup, in this seat's new colour.
        setTimeout(() => seated(news.game, news.seat), 0);
        break;
      case "draw-offer":
        announce(news.side === g.side ? t("announce.draw.you") : t("announce.draw.them", { who: personText(who[news.side]) }));
        break;
      case "over":
        // The status says the end; nothing said during the game (a resignation's "confirm")
        // stays.
        ui.hint.textContent = "";
        ui.offerRecord(news.record);
        ui.offerReplay(g.id);
        showVerdict(news.record, g.commitments);
        if (g.side) chatPanel().afterEnd(g.id, g.token);
        if (g.rated && g.side) showRatingChange(g);
        if (!["flag-captured", "flag-reached-end"].includes(news.status.reason)) addEnd(endText(news.status, who));
        announce(endText(news.status, who));
        // A game asked rated and played unrated says why at its end too.
        if (news.unrated) {
          showPlayers();
          announce(t("unrated.end", { why: t(`unrated.${news.unrated}`) }));
        }
        break;
      case "aborted":
        announce(abortText(news, who));
        break;
      case "refused": ui.hint.textContent = t("hint.refused", { message: refusalText(news.code, news.message) }); break;
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
    ui.setStatus("waiting", t("status.connecting"));
    const query = followed.token ? `?token=${encodeURIComponent(followed.token)}` : "";
    const chat = chatPanel();
    chat.bind(send, followed.side ?? null);
    connection = new KeptSocket(`/api/games/${id}/socket${query}`, {
      frame(frame) {
        if (g !== followed) return;
        if (frame.t === "state") {
          // The lines that follow a fresh state are the room's so far; a spectator with a
          // name talks as its player.
          chat.restart(frame.chat);
          const player = storedPlayer();
          if (!followed.side && player) send({ t: "auth", key: player.key });
          if (followed.side && frame.phase === "over") chat.afterEnd(id, followed.token);
        }
        if (chat.receive(frame)) return;
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
        dropSeat(id);
        render();
        return false;
      },
      lost() {
        if (g === followed) ui.setPresenceSelf(false);
      },
    }, { longest: 4000 });
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
    keepSeat(id, seat);
    ui.rename(`?game=${id}`);
    follow(id, seat);
  }

  const routes = {
    // Takes the seat an invite opens (or the one this browser already holds).
    async join({ id, invite }) {
      const held = heldSeat(id);
      if (held) {
        seated(id, held);
        // This browser made the game: the invite is for somebody else.
        if (held.invite) ui.hint.textContent = t("hint.own-invite");
        return;
      }
      const reply = await api("POST", `/api/games/${id}/join`, { invite });
      if (!reply.ok) {
        const taken = reply.status === 409;
        ui.setStatus("over", taken ? t("status.seat-taken") : t("status.no-game"));
        ui.rename(`?watch=${id}`);
        if (taken) follow(id, null);
        return;
      }
      seated(id, { token: reply.body.token, side: reply.body.side, invite: null, opponent: "human" });
    },
    // Resumes this browser's seat in game `id`, or watches it.
    resume({ id }) {
      follow(id, heldSeat(id));
    },
    watch({ id }) {
      follow(id, null);
    },
  };

  function turnOf() {
    if (g.phase === "over") return ["over", endText(g.status, people())];
    if (g.phase === "aborted") return ["over", abortText(g.aborted ?? {}, people())];
    if (g.phase === "expired") return ["over", t("status.expired")];
    if (g.phase === "setup") {
      if (!g.side) return ["waiting", t("status.players-arranging")];
      if (g.arranging()) return ["setup", t("status.arrange-swap")];
      const friendAway = g.presence[other(g.side)] === false && g.opponent === "human";
      return ["waiting", friendAway ? t("status.waiting-friend") : t("status.waiting-formation")];
    }
    const toMove = g.toMove();
    if (!g.side) return [toMove, t("status.to-move", { side: sideName(toMove) })];
    if (toMove === g.side) return ["you", t("status.your-move")];
    return g.opponent === "human" ? ["opponent", t("status.opponent-thinking")] : ["bot", t("status.bot-thinking")];
  }

  function tick() {
    ui.showClocks(g?.clockNow() ?? null, g?.clock?.running ?? null);
    ui.showSetupTime(g?.setupLeftNow() ?? null);
  }

  function render() {
    if (!g || !ui.active("online")) return;
    ui.setPhase(g.phase === "setup" ? "setup" : g.phase === "playing" ? "game" : "over");
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
    noteOnBoard(g.challenge && g.phase === "playing" ? eliminationText(g.challenge.side, g.challenge.outcome, people()) : null);
    ui.buttons.offerDraw.disabled = !playing || g.drawOffer === g.side || g.opponent !== "human";
    const offer = g.drawOffer;
    ui.showDrawOffer(offer, offer && offer !== g.side ? t("draw.offered", { who: personText(people()[offer]) }) : t("draw.yours"));
    // The links are shown while following a game; an expired one has none to share and
    // nobody to wait for.
    ui.links.hidden = g.phase === "expired";
    // A bot is always there: nothing to say of its presence.
    const opponent = g.side && g.phase !== "expired" && !g.bots[other(g.side)] ? other(g.side) : null;
    ui.showPresence(opponent ? g.presence[opponent] !== false : null, g.phase === "setup");
    tick();
  }

  return {
    // Follows a game: `how` is {join: {id, invite}}, {resume: {id}} or {watch: {id}}.
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
    // The formation this seat arranges: {side, rows, cells}, or null when not arranging.
    arrangement() {
      return g?.arranging() ? { side: g.side, rows: g.rules.setup_rows, cells: g.formation.cells } : null;
    },
    // Puts formation `cells` on the board (a saved one); nothing is sent until Start.
    adopt(cells) {
      if (!g?.arranging()) return;
      g.formation.adopt(cells);
      render();
    },
    render,
    tick,
  };
}
