// The leaderboard screen (`?leaderboard`): the players whose ratings are settled, highest
// first, each linked to its profile, with the rule of who is listed; and the server's bots
// apart, each with its rating on this server.
import { api } from "../connection.js";
import { botName, ratingText, t } from "../words.js";

const $ = (id) => document.getElementById(id);

// The server's bots, as the lobby offers them.
const BOTS = [
  ...Array.from({ length: 8 }, (_, i) => `bot-level-${i + 1}`),
  "bot-ismcts",
  "bot-greedy",
  "bot-random",
];

const link = (name, text) => Object.assign(document.createElement("a"), { href: `?player=${encodeURIComponent(name)}`, textContent: text });

export function leaderboardScreen() {
  let shown = 0;

  async function showBots(showing) {
    const replies = await Promise.all(BOTS.map((name) => api("GET", `/api/players/${name}`)));
    if (showing !== shown) return;
    const items = replies.filter((reply) => reply.ok).map(({ body: p }) => {
      const item = document.createElement("li");
      item.dataset.name = p.name;
      item.dataset.bot = "true";
      item.dataset.rating = String(p.rating);
      const line = t("leaderboard.bot-line", {
        rating: ratingText(p.rating, p.provisional),
        rd: p.rd,
        games: t("leaderboard.games", { count: p.games }),
      });
      item.append(link(p.name, botName(p.name)), line);
      return item;
    });
    $("leaderboard-bots").replaceChildren(...items);
  }

  return {
    async enter() {
      const showing = ++shown;
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
      $("leaderboard").replaceChildren();
      $("leaderboard-bots").replaceChildren();
      document.querySelector("#leaderboard-section .empty")?.remove();
    },
  };
}
