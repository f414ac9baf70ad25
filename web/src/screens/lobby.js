// The lobby screen (docs/SERVER.md, "Players, the lobby and pairing"): this browser's player
// (a name and its key, kept in the browser), the live list of open seeks, creating a seek,
// quick pairing, a game with a friend or a server bot, and the games in play to watch. The player socket, which says when
// this player was paired, stays open on every screen (a seek lives only while it is open);
// the lobby's own socket only while the lobby is shown. A new seat goes to its game's screen.
import { BAD_KEY, KeptSocket, api } from "../connection.js";
import { LiveGames } from "../live.js";
import { forgetDevice, keepPlayer, storedPlayer } from "../player.js";
import { dropSeat, heldGames, heldSeat, keepSeat } from "../seats.js";
import { botName, ratingText, refusalText, sideName, t } from "../words.js";

const $ = (id) => document.getElementById(id);

// The clock of a choice "M+S" (or "none"), as the server takes it.
export function clockOf(choice) {
  const match = /^(\d+)\+(\d+)$/.exec(choice ?? "");
  return match ? { initial_ms: Number(match[1]) * 60000, increment_ms: Number(match[2]) * 1000 } : null;
}

// The house rules chosen: the setup zone's rows, and the move limit (the server's unless one
// is chosen).
function rulesChosen() {
  const limit = $("limit-choice").value;
  return { setup_rows: Number($("rows-choice").value), ...(limit ? { move_limit: Number(limit) } : {}) };
}

// A seek's rules where they are not the usual ones: " · 4 rows", " · limit 100".
function rulesText(rules, usualLimit) {
  let text = rules?.setup_rows && rules.setup_rows !== 3 ? t("rules.rows", { rows: rules.setup_rows }) : "";
  if (rules && rules.move_limit !== usualLimit) text += t("rules.limit", { limit: rules.move_limit });
  return text;
}

// A clock as players say it: "5+3", or "untimed".
export function clockText(clock) {
  if (!clock) return t("lobby.untimed");
  return `${Math.round(clock.initial_ms / 60000)}+${Math.round(clock.increment_ms / 1000)}`;
}

// How many of this browser's games the lobby looks up (the newest kept first).
const YOUR_GAMES_SHOWN = 8;

// The move limit of a server as shipped (docs/SERVER.md): a seek's limit is shown only when
// another.
const USUAL_LIMIT = 200;

// The lobby screen; `router` takes the page to a new seat's game.
export function lobbyScreen(router) {
  let playerSocket = null;
  // Whether the arbiter server answered when the page loaded (its player is shown only then).
  let serverUp = false;
  let lobbySocket = null;
  // The games in play anyone may watch, while the lobby is shown.
  const live = new LiveGames((id) => router.go(`?watch=${id}`));
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
    if (player && serverUp) {
      api("GET", `/api/players/${encodeURIComponent(player.name)}`).then((reply) => {
        if (!reply.ok) return;
        const rating = ratingText(reply.body.rating, reply.body.provisional);
        $("player-who").textContent = t("lobby.as-rated", { name: player.name, rating, title: reply.body.title });
      }, () => {});
    }
  }

  // The player socket of this browser's player, open on every screen.
  function listen() {
    playerSocket?.close();
    const player = storedPlayer();
    if (!player) return;
    playerSocket = new KeptSocket("/api/players/socket", {
      frame(frame) {
        if (frame.t === "tournament-game") {
          // A tournament's round: the seat is kept, taken from the tournament's screen.
          keepSeat(frame.game, { token: frame.token, side: frame.side, opponent: "human" });
          status(t("lobby.tournament-game", { round: frame.round }));
          return;
        }
        if (frame.t === "challenge-gone") {
          // Told to the screen that made the challenge (the bots' leaderboard).
          document.dispatchEvent(new CustomEvent("salpakan:challenge-gone", { detail: frame }));
          return;
        }
        if (frame.t !== "paired") return;
        stopWaiting();
        status(t("lobby.paired"));
        toSeat({ game: frame.game, side: frame.side, token: frame.token, opponent: "human" });
      },
    }, { hello: { t: "auth", key: player.key }, finalCodes: [BAD_KEY] });
  }

  // This browser's games still in play (from the seats it keeps), each a link back to its
  // seat; a seat whose game is gone is forgotten, one whose game ended is left out.
  async function showYourGames() {
    $("your-games").dataset.looked = "false";
    const items = [];
    for (const id of heldGames().slice(0, YOUR_GAMES_SHOWN)) {
      const seat = heldSeat(id);
      let reply;
      try {
        reply = await api("GET", `/api/games/${encodeURIComponent(id)}`);
      } catch {
        return;
      }
      if (reply.status === 404) dropSeat(id);
      if (!reply.ok || !seat?.side || !["setup", "playing"].includes(reply.body.phase)) continue;
      const game = reply.body;
      const them = seat.side === "white" ? "black" : "white";
      const opponent = game.bots?.[them] ? botName(game.names?.[them] ?? "") : game.names?.[them] ?? t("lobby.your-game-someone");
      const toMove = game.ply % 2 === 0 ? game.first : game.first === "white" ? "black" : "white";
      const state = game.phase === "setup" ? t("lobby.your-game-setup") : t(toMove === seat.side ? "lobby.your-game-you" : "lobby.your-game-them", { ply: game.ply + 1 });
      const item = document.createElement("li");
      item.dataset.game = id;
      const link = Object.assign(document.createElement("a"), { href: `?game=${encodeURIComponent(id)}` });
      link.textContent = t("lobby.your-game-line", { side: sideName(seat.side), opponent, state });
      item.appendChild(link);
      items.push(item);
    }
    if (router.current !== self) return;
    $("your-games").replaceChildren(...items);
    $("your-games").dataset.looked = "true";
    $("your-games-box").hidden = items.length === 0;
  }

  let lastFrame = null;
  function showSeeks(frame) {
    lastFrame = frame;
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
        rules: rulesText(seek.rules, USUAL_LIMIT),
      };
      item.dataset.rows = String(seek.rules?.setup_rows ?? 3);
      item.dataset.moveLimit = String(seek.rules?.move_limit ?? "");
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
      status(reply.status === 404 ? t("lobby.seek-gone") : refusalText(reply.body?.error, reply.body?.message));
      return;
    }
    toSeat({ game: reply.body.game, side: reply.body.side, token: reply.body.token, opponent: "human" });
  }

  async function register() {
    const name = $("player-name").value.trim();
    const reply = await api("POST", "/api/players", { name });
    if (!reply.ok) {
      const why = { "bad-name": t("lobby.bad-name"), "name-taken": t("lobby.name-taken") };
      status(why[reply.body?.error] ?? refusalText(reply.body?.error, reply.body?.message));
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

  // This browser linked to a player by a code its other device made (`POST /api/link/redeem`):
  // the device's own token is kept as the key.
  async function redeemCode() {
    const code = $("link-code").value.trim();
    if (!code) return;
    const reply = await api("POST", "/api/link/redeem", { code, label: navigator.platform || null });
    if (!reply.ok) {
      status(reply.status === 404 ? t("lobby.bad-code") : refusalText(reply.body?.error, reply.body?.message));
      return;
    }
    keepPlayer(reply.body.name, reply.body.key);
    $("link-code").value = "";
    status(t("lobby.welcome", { name: reply.body.name }));
    showPlayer();
    listen();
  }

  // A game against a friend (`opponent` "human") or a server bot, this browser's seat first.
  async function create(opponent) {
    const reply = await api("POST", "/api/games", { side: "random", opponent, clock: clockOf($("clock-choice").value), rules: rulesChosen() });
    if (!reply.ok) {
      status(t("hint.unreachable", { error: reply.body ? refusalText(reply.body.error, reply.body.message) : reply.status }));
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
  $("redeem-code").addEventListener("click", redeemCode);
  $("forget-device").addEventListener("click", () => {
    playerSocket?.close();
    playerSocket = null;
    forgetDevice();
    showPlayer();
    status(t("lobby.forgotten"));
  });
  $("copy-key").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("player-key").textContent);
      status(t("lobby.key-copied"));
    } catch {
      status(t("lobby.key-copy"));
    }
  });
  $("seek").addEventListener("click", async () => {
    const reply = await api("POST", "/api/seeks", { clock: clockOf($("clock-choice").value), rated: $("rated").checked, rules: rulesChosen() });
    status(reply.ok ? t("lobby.seek-open") : refusalText(reply.body?.error, reply.body?.message));
  });
  // Quick pairing: while this player waits, a countdown to the server's bot and a Cancel.
  let waiting = null; // {pool, until (ms, performance.now), timer}
  function stopWaiting() {
    if (waiting) clearInterval(waiting.timer);
    waiting = null;
    $("pool-wait").hidden = true;
  }
  function showWaiting() {
    if (!waiting) return;
    const left = waiting.until === null ? null : Math.max(0, waiting.until - performance.now());
    const pool = waiting.pool;
    let text;
    if (left === null) text = t("lobby.pool-wait-nobot", { pool });
    else if (left > 0) text = t("lobby.pool-wait", { pool, time: `0:${String(Math.ceil(left / 1000)).padStart(2, "0")}` });
    else text = t("lobby.pool-wait-bot", { pool });
    $("pool-text").textContent = text;
    $("pool-wait").dataset.left = left === null ? "" : String(Math.ceil(left / 1000));
  }
  $("quick-pair").addEventListener("click", async () => {
    const reply = await api("POST", "/api/pool", { clock: clockOf($("clock-choice").value), rated: $("rated").checked });
    if (!reply.ok) {
      status(refusalText(reply.body?.error, reply.body?.message));
      return;
    }
    stopWaiting();
    const after = reply.body.bot_after_ms;
    waiting = { pool: reply.body.pool, until: typeof after === "number" ? performance.now() + after : null, timer: setInterval(showWaiting, 250) };
    status("");
    $("pool-wait").hidden = false;
    showWaiting();
  });
  $("pool-cancel").addEventListener("click", async () => {
    stopWaiting();
    await api("DELETE", "/api/pool");
    status(t("lobby.pool-cancelled"));
  });
  $("play-friend").addEventListener("click", () => create("human"));
  $("play-bot").addEventListener("click", () => create($("bot-choice").value));
  $("new-game").addEventListener("click", () => router.go("?play=here"));

  const self = {
    // Starts what lives on every screen: this browser's player and its socket.
    startPlayer(server) {
      serverUp = server;
      showPlayer();
      if (server) listen();
    },
    enter() {
      showPlayer();
      showBotRatings();
      showYourGames();
      // The whole lobby first, then what changed (seeks added and gone, and the order).
      lobbySocket ??= new KeptSocket("/api/lobby/socket?deltas=1", {
        frame(frame) {
          if (frame.t === "lobby") showSeeks(frame);
          if (frame.t === "lobby-delta" && lastFrame) {
            const bySid = new Map(lastFrame.seeks.map((seek) => [seek.seek, seek]));
            for (const seek of frame.added) bySid.set(seek.seek, seek);
            const seeks = frame.order.map((sid) => bySid.get(sid)).filter(Boolean);
            showSeeks({ seeks, playing: frame.playing });
          }
        },
      });
      if (serverUp) live.start();
    },
    leave() {
      lobbySocket?.close();
      lobbySocket = null;
      live.stop();
    },
    // The words changed: drawn again, the sockets kept.
    refresh() {
      showPlayer();
      showBotRatings();
      if (lastFrame) showSeeks(lastFrame);
      live.render();
      showWaiting();
      showYourGames();
    },
  };
  return self;
}
