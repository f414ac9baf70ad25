// The page: a screen for each moment, chosen by the address (router.js): the lobby (`/`),
// a game (`?play=here` against the bot in this browser; `?game=ID`, `?join=ID&invite=CODE`
// or `?watch=ID` through the arbiter server), a finished game's replay (`?replay=ID`), a
// profile (`?player=NAME`), the leaderboard (`?leaderboard`) and the tournaments
// (`?tournaments`, `?tournament=ID`). Served without the server
// (`npm start`), every address is the game against the bot here. And, on the lobby and the
// game screens, the arbiter for a physical board.
import { serverPresent } from "./connection.js";
import { storedPlayer } from "./player.js";
import { Router } from "./router.js";
import { gameScreen } from "./screens/game.js";
import { deskScreen } from "./screens/desk.js";
import { leaderboardScreen } from "./screens/leaderboard.js";
import { lobbyScreen } from "./screens/lobby.js";
import { profileScreen } from "./screens/profile.js";
import { replayScreen } from "./screens/replay.js";
import { tournamentScreen, tournamentsScreen } from "./screens/tournaments.js";
import { fillChoices, LANGUAGES, preferredLanguage, setLanguage, translate } from "./words.js";
import "./arbiter.js";

// The page's language: as picked on this device, or as the browser asks; the ranks' names in
// Filipino only if picked.
const LANGUAGE_KEY = "salpakan-language";
const RANKS_KEY = "salpakan-filipino-ranks";
function useLanguage() {
  const stored = localStorage.getItem(LANGUAGE_KEY);
  const lang = LANGUAGES.includes(stored) ? stored : preferredLanguage(navigator.languages);
  const filipinoRanks = localStorage.getItem(RANKS_KEY) === "true";
  setLanguage(lang, { filipinoRanks });
  document.getElementById("lang-choice").value = lang;
  document.getElementById("filipino-ranks").checked = filipinoRanks;
  document.getElementById("filipino-ranks-label").hidden = lang !== "fil";
  translate();
  document.dispatchEvent(new Event("salpakan-language"));
}
fillChoices();
useLanguage();
// A language picked: kept on this device, every word of the page in it at once (from the
// first moment: the picker answers before the server does).
let router = null;
document.getElementById("lang-choice").addEventListener("change", (event) => {
  localStorage.setItem(LANGUAGE_KEY, event.target.value);
  fillChoices();
useLanguage();
  router?.refresh();
});
document.getElementById("filipino-ranks").addEventListener("change", (event) => {
  localStorage.setItem(RANKS_KEY, String(event.target.checked));
  fillChoices();
useLanguage();
  router?.refresh();
});
const online = await serverPresent();
document.body.dataset.server = online ? "present" : "none";

// The screen an address shows.
function pick(params) {
  if (!online) return "game";
  if (params.get("replay")) return "replay";
  if (params.get("player")) return "profile";
  if (params.has("leaderboard")) return "leaderboard";
  if (params.has("desk")) return "desk";
  if (params.get("tournament")) return "tournament";
  if (params.has("tournaments")) return "tournaments";
  if (params.get("join") || params.get("game") || params.get("watch") || params.get("play")) return "game";
  return "lobby";
}

const screens = {};
router = new Router(screens, pick);
const lobby = lobbyScreen(router);
Object.assign(screens, {
  lobby,
  game: gameScreen(router),
  replay: replayScreen(),
  profile: profileScreen(),
  leaderboard: leaderboardScreen(),
  desk: deskScreen(),
  tournaments: tournamentsScreen(router),
  tournament: tournamentScreen(router),
});
screens.tournaments.bind();
screens.tournament.bind();
lobby.startPlayer(online);

// "My games": this browser's player's profile.
document.getElementById("open-my-games").addEventListener("click", (event) => {
  event.preventDefault();
  const player = storedPlayer();
  if (player) router.go(`?player=${encodeURIComponent(player.name)}`);
});

// Installed, and offline after one visit: the service worker keeps the page's own files
// (sw.js). A newer page takes over an open one by reloading it, so that no old page goes on
// talking to a newer server.
if ("serviceWorker" in navigator && location.protocol !== "file:") {
  const controlled = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (controlled) location.reload();
  });
  navigator.serviceWorker.register("sw.js").catch(() => {});
}

await router.show();
