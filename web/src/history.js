// After the game (docs/SERVER.md, "Finished games and ratings"): a player's profile with its
// finished games (`?player=NAME`; "My games" opens this browser's player's), and the
// leaderboard (`?leaderboard`). Every finished game links to its replay (`?replay=ID`), which
// needs no account. Everything here is public: it is read with no key.
import { api } from "./lobby.js";
import { endText, SIDE_NAMES } from "./words.js";

const $ = (id) => document.getElementById(id);

// A finished game's line: who played whom, the result, the plies and when.
function gameLine(game, me) {
  const names = { white: game.names.white ?? "Anonymous", black: game.names.black ?? "Anonymous" };
  const mine = me ? ["white", "black"].find((side) => names[side].toLowerCase() === me.toLowerCase()) : null;
  const result = !game.status.winner ? "draw" : game.status.winner === mine ? "won" : mine ? "lost" : `${SIDE_NAMES[game.status.winner]} won`;
  const when = new Date(game.ended_ms).toLocaleString();
  return {
    result,
    text: `${names.white} (White) vs ${names.black} (Black) · ${endText(game.status, names).replace(/\.$/, "")} · ${game.plies} plies · ${game.rated ? "rated" : "casual"} · ${when}`,
  };
}

// Shows player `name`: the profile and its games, newest first, 20 at a time.
export async function showPlayer(name, me) {
  document.body.dataset.mode = "history";
  $("history").hidden = false;
  $("profile-section").hidden = false;
  const reply = await api("GET", `/api/players/${encodeURIComponent(name)}`);
  const profile = $("profile");
  if (!reply.ok) {
    profile.textContent = reply.status === 404 ? `No player is named ${name}.` : "The server could not be reached.";
    return;
  }
  const p = reply.body;
  profile.dataset.name = p.name;
  profile.dataset.rating = String(p.rating);
  profile.replaceChildren(
    Object.assign(document.createElement("h2"), { textContent: `${p.name}${p.bot ? " (a server bot)" : ""}` }),
    Object.assign(document.createElement("p"), {
      className: "rating",
      textContent: `${p.title} · rating ${p.rating}${p.provisional ? "?" : ""} (RD ${p.rd}${p.provisional ? ", provisional" : ""})`,
    }),
    Object.assign(document.createElement("p"), {
      textContent: `${p.games} finished ${p.games === 1 ? "game" : "games"}: ${p.won} won, ${p.lost} lost, ${p.drawn} drawn`,
    }),
  );
  const list = $("my-games");
  const more = $("more-games");
  list.replaceChildren();
  let before = null;
  async function page() {
    const query = before ? `?before=${before}` : "";
    const games = await api("GET", `/api/players/${encodeURIComponent(p.name)}/games${query}`);
    if (!games.ok) return;
    for (const game of games.body.games) {
      const item = document.createElement("li");
      item.dataset.game = game.game;
      const line = gameLine(game, me ?? p.name);
      item.dataset.result = line.result;
      const link = Object.assign(document.createElement("a"), { href: `?replay=${game.game}`, textContent: line.text });
      item.appendChild(link);
      list.appendChild(item);
      before = game.game;
    }
    more.hidden = games.body.games.length < 20;
    if (list.children.length === 0) {
      list.appendChild(Object.assign(document.createElement("li"), { className: "empty", textContent: "No finished games yet." }));
    }
  }
  more.onclick = page;
  await page();
}

// Shows the leaderboard: the players whose ratings are settled, highest first.
export async function showLeaderboard() {
  document.body.dataset.mode = "history";
  $("history").hidden = false;
  $("leaderboard-section").hidden = false;
  const reply = await api("GET", "/api/leaderboard");
  const board = $("leaderboard");
  if (!reply.ok) {
    board.replaceChildren(Object.assign(document.createElement("li"), { textContent: "The server could not be reached." }));
    return;
  }
  const items = reply.body.players.map((p) => {
    const item = document.createElement("li");
    item.dataset.name = p.name;
    item.dataset.rating = String(p.rating);
    const link = Object.assign(document.createElement("a"), {
      href: `?player=${encodeURIComponent(p.name)}`,
      textContent: `${p.name}${p.bot ? " (bot)" : ""}`,
    });
    item.append(link, ` · ${p.rating} (RD ${p.rd}) · ${p.title} · ${p.games} games`);
    return item;
  });
  if (items.length === 0) {
    items.push(Object.assign(document.createElement("li"), {
      className: "empty",
      textContent: "Nobody is settled yet: a rating joins the leaderboard once its RD is 110 or less (a dozen or so rated games).",
    }));
  }
  board.replaceChildren(...items);
}
