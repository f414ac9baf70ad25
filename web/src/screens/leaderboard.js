// The leaderboard screen (`?leaderboard`): the players whose ratings are settled, highest
// first, each linked to its profile.
import { api } from "../connection.js";
import { t } from "../words.js";

const $ = (id) => document.getElementById(id);

export function leaderboardScreen() {
  return {
    async enter() {
      const board = $("leaderboard");
      board.replaceChildren();
      const reply = await api("GET", "/api/leaderboard");
      if (!reply.ok) {
        board.replaceChildren(Object.assign(document.createElement("li"), { textContent: t("unreachable") }));
        return;
      }
      const items = reply.body.players.map((p) => {
        const item = document.createElement("li");
        item.dataset.name = p.name;
        item.dataset.rating = String(p.rating);
        const link = Object.assign(document.createElement("a"), {
          href: `?player=${encodeURIComponent(p.name)}`,
          textContent: p.bot ? t("leaderboard.bot", { name: p.name }) : p.name,
        });
        const games = t("leaderboard.games", { count: p.games });
        item.append(link, t("leaderboard.line", { rating: p.rating, rd: p.rd, title: p.title, games }));
        return item;
      });
      if (items.length === 0) {
        // Not a numbered entry: the list's own words.
        board.parentElement.querySelector(".empty")?.remove();
        board.after(Object.assign(document.createElement("p"), { className: "empty", textContent: t("leaderboard.empty") }));
      }
      board.replaceChildren(...items);
    },
    leave() {
      $("leaderboard").replaceChildren();
      document.querySelector("#leaderboard-section .empty")?.remove();
    },
  };
}
