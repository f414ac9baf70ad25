// The profile screen (`?player=NAME`; "My games" opens this browser's player's): a player's
// rating and counts, and its finished games, newest first, each linked to its replay
// (docs/SERVER.md, "Finished games and ratings"). Everything here is public: it is read with
// no key. On one's own profile, what one shares of one's finished games for the dataset
// export (`GET`/`PUT /api/sharing`, with the key), and one's tokens (`./tokens.js`).
import { api } from "../connection.js";
import { storedPlayer } from "../player.js";
import { botName, deltaText, endText, personText, t } from "../words.js";
import { standingPanel } from "./standing.js";
import { tokensPanel } from "./tokens.js";

const $ = (id) => document.getElementById(id);
const PAGE = 20;

// A finished game's line, as `me` (a name, or none) reads it: who played whom, the result,
// the plies, when, and for a rated game `me`'s rating change.
export function gameLine(game, me) {
  const people = {
    white: game.names.white ? { name: botName(game.names.white) } : { name: t("who.anonymous") },
    black: game.names.black ? { name: botName(game.names.black) } : { name: t("who.anonymous") },
  };
  const mine = me ? ["white", "black"].find((side) => game.names[side]?.toLowerCase() === me.toLowerCase()) : null;
  const result = !game.status.winner ? "draw" : game.status.winner === mine ? "won" : mine ? "lost" : `${game.status.winner}-won`;
  const text = t("game-line", {
    white: personText(people.white),
    black: personText(people.black),
    end: endText(game.status, people).replace(/\.$/, ""),
    plies: t("game-line.plies", { count: game.plies }),
    kind: game.rated ? t("lobby.rated-word") : game.unrated ? t("game-line.unrated") : t("lobby.casual"),
    when: new Date(game.ended_ms).toLocaleString(document.documentElement.lang),
  });
  const change = mine ? game.ratings?.[mine] : null;
  const delta = change ? change.after - change.before : null;
  return { result, text: delta === null ? text : text + t("game-line.change", { delta: deltaText(delta) }), delta };
}

export function profileScreen() {
  let shown = 0; // which showing this is: a page of games from an old one is dropped
  const tokens = tokensPanel();
  const standing = standingPanel();

  // One's own choices: share one's finished games (and one's name with them), or not.
  async function showSharing(showing) {
    const reply = await api("GET", "/api/sharing");
    if (!reply.ok || showing !== shown) return;
    const [games, names] = [$("share-games"), $("share-names")];
    games.checked = reply.body.games;
    names.checked = reply.body.names;
    names.disabled = !games.checked;
    const save = async () => {
      names.disabled = !games.checked;
      const saved = await api("PUT", "/api/sharing", { games: games.checked, names: games.checked && names.checked });
      if (saved.ok) {
        games.checked = saved.body.games;
        names.checked = saved.body.names;
      }
    };
    games.onchange = save;
    names.onchange = save;
    $("sharing").hidden = false;
  }

  async function show(name) {
    const showing = ++shown;
    const profile = $("profile");
    const list = $("my-games");
    const more = $("more-games");
    list.replaceChildren();
    more.hidden = true;
    profile.replaceChildren();
    const reply = await api("GET", `/api/players/${encodeURIComponent(name)}`);
    if (showing !== shown) return;
    if (!reply.ok) {
      profile.textContent = reply.status === 404 ? t("profile.no-player", { name }) : t("unreachable");
      return;
    }
    const p = reply.body;
    profile.dataset.name = p.name;
    profile.dataset.rating = String(p.rating);
    const rating = { title: p.title, rating: p.rating, rd: p.rd };
    const ratingKey = p.bot ? "profile.rating-bot" : p.provisional ? "profile.rating-provisional" : "profile.rating";
    const history = document.createElement("ol");
    history.className = "rating-history";
    for (const change of p.history ?? []) {
      const item = document.createElement("li");
      item.dataset.game = change.game;
      item.dataset.delta = String(change.after - change.before);
      item.appendChild(Object.assign(document.createElement("a"), {
        href: `?replay=${change.game}`,
        textContent: t("profile.change", { delta: deltaText(change.after - change.before), rating: change.after }),
      }));
      history.appendChild(item);
    }
    profile.replaceChildren(
      Object.assign(document.createElement("h2"), { textContent: t(p.bot ? "profile.heading-bot" : "profile.heading", { name: p.bot ? botName(p.name) : p.name }) }),
      Object.assign(document.createElement("p"), { className: "rating", textContent: t(ratingKey, rating) }),
      Object.assign(document.createElement("p"), {
        textContent: t("profile.counts", { count: p.games, won: p.won, lost: p.lost, drawn: p.drawn }),
      }),
      ...(history.children.length ? [Object.assign(document.createElement("h3"), { textContent: t("profile.history") }), history] : []),
    );
    const me = storedPlayer()?.name ?? p.name;
    if (storedPlayer()?.name.toLowerCase() === p.name.toLowerCase()) {
      showSharing(showing);
      tokens.show();
      standing.show();
    }
    let before = null;
    async function page() {
      const query = before ? `?before=${before}` : "";
      const games = await api("GET", `/api/players/${encodeURIComponent(p.name)}/games${query}`);
      if (!games.ok || showing !== shown) return;
      for (const game of games.body.games) {
        const item = document.createElement("li");
        item.dataset.game = game.game;
        const line = gameLine(game, me);
        item.dataset.result = line.result;
        if (line.delta !== null) item.dataset.delta = String(line.delta);
        item.appendChild(Object.assign(document.createElement("a"), { href: `?replay=${game.game}`, textContent: line.text }));
        list.appendChild(item);
        before = game.game;
      }
      more.hidden = games.body.games.length < PAGE;
      if (list.children.length === 0) {
        list.appendChild(Object.assign(document.createElement("li"), { className: "empty", textContent: t("profile.no-games") }));
      }
    }
    more.onclick = page;
    await page();
  }

  return {
    enter(params) {
      return show(params.get("player"));
    },
    leave() {
      shown++;
      $("sharing").hidden = true;
      tokens.hide();
      standing.hide();
      $("profile").replaceChildren();
      $("my-games").replaceChildren();
    },
  };
}
