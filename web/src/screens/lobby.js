// The lobby screen (docs/SERVER.md, "Players, the lobby and pairing"): this browser's player
// (a name and its key, kept in the browser), the live list of open seeks, creating a seek,
// quick pairing, a game with a friend or a server bot. The player socket, which says when
// this player was paired, stays open on every screen (a seek lives only while it is open);
// the lobby's own socket only while the lobby is shown. A new seat goes to its game's screen.
import { BAD_KEY, KeptSocket, api } from "../connection.js";
import { keepPlayer, storedPlayer } from "../player.js";
import { keepSeat } from "../seats.js";
import { ratingText, t } from "../words.js";

const $ = (id) => document.getElementById(id);

// The clock of a choice "M+S" (or "none"), as the server takes it.
export function clockOf(choice) {
  const match = /^(\d+)\+(\d+)$/.exec(choice ?? "");
  return match ? { initial_ms: Number(match[1]) * 60000, increment_ms: Number(match[2]) * 1000 } : null;
}

// A clock as players say it: "5+3", or "untimed".
export function clockText(clock) {
  if (!clock) return t("lobby.untimed");
  return `${Math.round(clock.initial_ms / 60000)}+${Math.round(clock.increment_ms / 1000)}`;
}

// The lobby screen; `router` takes the page to a new seat's game.
export function lobbyScreen(router) {
  let playerSocket = null;
  let lobbySocket = null;
  const status = (text) => {
    $("lobby-status").textContent = text;
  };

  // Takes seat `seat` ({game, side, token, invite, opponent}) to its game's screen.
  function toSeat(seat) {
    keepSeat(seat.game, { token: seat.token, side: seat.side, invite: seat.invite ?? null, opponent: seat.opponent });
    router.go(`?game=${seat.game}`);
  }

  function showPlayer() {
    const player = storedPlayer();
    const named = player ? "named" : "anonymous";
    $("lobby-panel").dataset.player = named;
    document.body.dataset.player = named;
    $("player-who").textContent = player ? t("lobby.as", { name: player.name }) : t("lobby.anonymous");
    $("player-key").textContent = player?.key ?? "";
    $("key-box").hidden = !player;
    for (const button of [$("seek"), $("quick-pair")]) button.disabled = !player;
    if (player) {
      api("GET", `/api/players/${encodeURIComponent(player.name)}`).then((reply) => {
        if (!reply.ok) return;
        const rating = ratingText(reply.body.rating, reply.body.provisional);
        $("player-who").textContent = t("lobby.as-rated", { name: player.name, rating, title: reply.body.title });
      });
    }
  }

  // The player socket of this browser's player, open on every screen.
  function listen() {
    playerSocket?.close();
    const player = storedPlayer();
    if (!player) return;
    playerSocket = new KeptSocket("/api/players/socket", {
      frame(frame) {
        if (frame.t !== "paired") return;
        status(t("lobby.paired"));
        toSeat({ game: frame.game, side: frame.side, token: frame.token, opponent: "human" });
      },
    }, { hello: { t: "auth", key: player.key }, finalCodes: [BAD_KEY] });
  }

  function showSeeks(frame) {
    $("lobby-playing").textContent = t("lobby.playing", { count: frame.playing });
    const mine = storedPlayer()?.name?.toLowerCase();
    const items = frame.seeks.map((seek) => {
      const item = document.createElement("li");
      item.dataset.seek = seek.seek;
      item.dataset.name = seek.name;
      const own = seek.name.toLowerCase() === mine;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "seek-entry";
      button.disabled = own;
      const values = {
        name: seek.name,
        rating: ratingText(seek.rating, seek.provisional),
        clock: clockText(seek.clock),
        kind: seek.rated ? t("lobby.rated-word") : t("lobby.casual"),
      };
      button.textContent = t(own ? "lobby.seek-line-yours" : "lobby.seek-line", values);
      button.addEventListener("click", () => accept(seek.seek));
      item.appendChild(button);
      if (own) {
        const withdraw = document.createElement("button");
        withdraw.type = "button";
        withdraw.className = "withdraw";
        withdraw.textContent = t("lobby.withdraw");
        withdraw.addEventListener("click", () => api("DELETE", `/api/seeks/${seek.seek}`));
        item.appendChild(withdraw);
      }
      return item;
    });
    if (items.length === 0) {
      const empty = document.createElement("li");
      empty.className = "empty";
      empty.textContent = t("lobby.no-seeks");
      items.push(empty);
    }
    $("lobby").replaceChildren(...items);
  }

  async function accept(sid) {
    if (!storedPlayer()) {
      status(t("lobby.name-first"));
      return;
    }
    const reply = await api("POST", `/api/seeks/${sid}/accept`);
    if (!reply.ok) {
      status(reply.status === 404 ? t("lobby.seek-gone") : reply.body?.message ?? t("lobby.refused"));
      return;
    }
    toSeat({ game: reply.body.game, side: reply.body.side, token: reply.body.token, opponent: "human" });
  }

  async function register() {
    const name = $("player-name").value.trim();
    const reply = await api("POST", "/api/players", { name });
    if (!reply.ok) {
      const why = { "bad-name": t("lobby.bad-name"), "name-taken": t("lobby.name-taken") };
      status(why[reply.body?.error] ?? reply.body?.message ?? t("lobby.refused"));
      return;
    }
    keepPlayer(reply.body.name, reply.body.key);
    status(t("lobby.welcome", { name: reply.body.name }));
    showPlayer();
    listen();
  }

  function useKey() {
    const key = $("key-input").value.trim();
    const name = $("key-name").value.trim();
    if (!key || !name) return;
    keepPlayer(name, key);
    showPlayer();
    listen();
  }

  // A game against a friend (`opponent` "human") or a server bot, this browser's seat first.
  async function create(opponent) {
    const reply = await api("POST", "/api/games", { side: "random", opponent, clock: clockOf($("clock-choice").value) });
    if (!reply.ok) {
      status(t("hint.unreachable", { error: reply.body?.message ?? reply.status }));
      return;
    }
    toSeat({ ...reply.body, opponent });
  }

  // The server bots' ratings, as this server holds them now, in the bot select: a player
  // picks a bot by a rating it can compare with its own ("?" while provisional).
  function showBotRatings() {
    for (const option of $("bot-choice").options) {
      const bot = option.dataset.level ? t("lobby.level", { level: option.dataset.level }) : t(`lobby.bot.${option.value}`);
      option.textContent = bot;
      api("GET", `/api/players/bot-${encodeURIComponent(option.value)}`).then((reply) => {
        if (!reply.ok || typeof reply.body?.rating !== "number") return;
        option.textContent = t("lobby.bot-rating", { bot, rating: ratingText(reply.body.rating, reply.body.provisional) });
      });
    }
  }

  $("register").addEventListener("click", register);
  $("player-name").addEventListener("keydown", (event) => {
    if (event.key === "Enter") register();
  });
  $("use-key").addEventListener("click", useKey);
  $("copy-key").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("player-key").textContent);
      status(t("lobby.key-copied"));
    } catch {
      status(t("lobby.key-copy"));
    }
  });
  $("seek").addEventListener("click", async () => {
    const reply = await api("POST", "/api/seeks", { clock: clockOf($("clock-choice").value), rated: $("rated").checked });
    status(reply.ok ? t("lobby.seek-open") : reply.body?.message ?? t("lobby.refused"));
  });
  $("quick-pair").addEventListener("click", async () => {
    const reply = await api("POST", "/api/pool", { clock: clockOf($("clock-choice").value), rated: $("rated").checked });
    status(reply.ok ? t("lobby.looking", { pool: reply.body.pool }) : reply.body?.message ?? t("lobby.refused"));
  });
  $("play-friend").addEventListener("click", () => create("human"));
  $("play-bot").addEventListener("click", () => create($("bot-choice").value));
  $("new-game").addEventListener("click", () => router.go("?play=here"));

  return {
    // Starts what lives on every screen: this browser's player and its socket.
    startPlayer(server) {
      showPlayer();
      if (server) listen();
    },
    enter() {
      showPlayer();
      showBotRatings();
      lobbySocket ??= new KeptSocket("/api/lobby/socket", {
        frame(frame) {
          if (frame.t === "lobby") showSeeks(frame);
        },
      });
    },
    leave() {
      lobbySocket?.close();
      lobbySocket = null;
    },
  };
}
