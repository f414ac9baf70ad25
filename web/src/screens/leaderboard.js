// The leaderboard screen (`?leaderboard`): the players whose ratings are settled, highest
// first, each linked to its profile, with the rule of who is listed; and the bots' leaderboard
// apart (`GET /api/bots`: the server's levels and every bot account, online or not, with its
// owner's words), each linked to its results, an online bot account with a button that
// challenges it (its answer comes on the player socket: `paired` opens the game, a decline is
// said here).
import { api } from "../connection.js";
import { storedPlayer } from "../player.js";
import { botName, t } from "../words.js";

const $ = (id) => document.getElementById(id);

const link = (name, text) => Object.assign(document.createElement("a"), { href: `?player=${encodeURIComponent(name)}`, textContent: text });

// A clock choice's settings (`5+3`: minutes and seconds of increment), or null.
function clockOf(choice) {
  const match = /^(\d+)\+(\d+)$/.exec(choice);
  return match ? { initial_ms: Number(match[1]) * 60000, increment_ms: Number(match[2]) * 1000 } : null;
}

export function leaderboardScreen() {
  let shown = 0;

  async function challenge(name) {
    const body = { to: name, rated: $("challenge-rated").checked, clock: clockOf($("challenge-clock").value) };
    const reply = await api("POST", "/api/challenges", body);
    $("challenge-status").textContent = reply.ok ? t("leaderboard.challenge-sent", { name }) : reply.body?.message ?? t("unreachable");
  }

  // A challenge of this player's ended without a game (a game opens the game's screen).
  function gone({ detail: frame }) {
    if (frame.reason === "accepted") return;
    $("challenge-status").textContent = t(`leaderboard.challenge-${frame.reason}`, { reason: frame.decline ?? "" });
  }

  async function showBots(showing) {
    const reply = await api("GET", "/api/bots");
    if (showing !== shown || !reply.ok) return;
    const named = storedPlayer();
    const items = reply.body.bots.map((bot) => {
      const item = document.createElement("li");
      item.dataset.name = bot.name;
      item.dataset.bot = "true";
      item.dataset.online = String(bot.online);
      item.dataset.rating = String(bot.rating);
      const line = t("leaderboard.bot-line", { rating: bot.rating, rd: bot.rd, games: t("leaderboard.games", { count: bot.games }) });
      const state = t(bot.server ? "leaderboard.reference" : bot.online ? "leaderboard.online" : "leaderboard.offline");
      item.append(link(bot.name, bot.server ? botName(bot.name) : bot.name), line, ` · ${state}`);
      if (bot.description && !bot.server) {
        item.append(Object.assign(document.createElement("span"), { className: "small description", textContent: ` — ${bot.description}` }));
      }
      if (!bot.server && bot.online && named && named.name.toLowerCase() !== bot.name.toLowerCase()) {
        const button = Object.assign(document.createElement("button"), { type: "button", textContent: t("leaderboard.challenge") });
        button.addEventListener("click", () => challenge(bot.name));
        item.append(" ", button);
      }
      return item;
    });
    $("leaderboard-bots").replaceChildren(...items);
  }

  return {
    async enter() {
      const showing = ++shown;
      document.addEventListener("salpakan:challenge-gone", gone);
      $("challenge-status").textContent = "";
      document.querySelector("#leaderboard-section .challenge-controls").hidden = !storedPlayer();
      const board = $("leaderboard");
      board.replaceChildren();
      const bots = showBots(showing);
      const reply = await api("GET", "/api/leaderboard");
      if (showing !== shown) return;
      if (!reply.ok) {
        board.replaceChildren(Object.assign(document.createElement("li"), { textContent: t("unreachable") }));
        return;
      }
      const items = reply.body.players.filter((p) => !p.bot).map((p) => {
        const item = document.createElement("li");
        item.dataset.name = p.name;
        item.dataset.rating = String(p.rating);
        const games = t("leaderboard.games", { count: p.games });
        item.append(link(p.name, p.name), t("leaderboard.line", { rating: p.rating, rd: p.rd, title: p.title, games }));
        return item;
      });
      if (items.length === 0) {
        // Not a numbered entry: the list's own words.
        board.after(Object.assign(document.createElement("p"), { className: "empty", textContent: t("leaderboard.empty") }));
      }
      board.replaceChildren(...items);
      await bots;
    },
    leave() {
      shown++;
      document.removeEventListener("salpakan:challenge-gone", gone);
      $("leaderboard").replaceChildren();
      $("leaderboard-bots").replaceChildren();
      document.querySelector("#leaderboard-section .empty")?.remove();
    },
  };
}
