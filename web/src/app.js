// The page: a screen for each moment, chosen by the address (router.js): the lobby (`/`),
// a game (`?play=here` against the bot in this browser; `?game=ID`, `?join=ID&invite=CODE`
// or `?watch=ID` through the arbiter server), a finished game's replay (`?replay=ID`), a
// profile (`?player=NAME`) and the leaderboard (`?leaderboard`). Served without the server
// (`npm start`), every address is the game against the bot here. And, on the lobby and the
// game screens, the arbiter for a physical board.
import { serverPresent } from "./connection.js";
import { storedPlayer } from "./player.js";
import { Router } from "./router.js";
import { gameScreen } from "./screens/game.js";
import { leaderboardScreen } from "./screens/leaderboard.js";
import { lobbyScreen } from "./screens/lobby.js";
import { profileScreen } from "./screens/profile.js";
import { replayScreen } from "./screens/replay.js";
import { translate } from "./words.js";
import "./arbiter.js";

translate();
const online = await serverPresent();
document.body.dataset.server = online ? "present" : "none";

// The screen an address shows.
function pick(params) {
  if (!online) return "game";
  if (params.get("replay")) return "replay";
  if (params.get("player")) return "profile";
  if (params.has("leaderboard")) return "leaderboard";
  if (params.get("join") || params.get("game") || params.get("watch") || params.get("play")) return "game";
  return "lobby";
}

const screens = {};
const router = new Router(screens, pick);
const lobby = lobbyScreen(router);
Object.assign(screens, {
  lobby,
  game: gameScreen(router),
  replay: replayScreen(),
  profile: profileScreen(),
  leaderboard: leaderboardScreen(),
});
lobby.startPlayer(online);

// "My games": this browser's player's profile.
document.getElementById("open-my-games").addEventListener("click", (event) => {
  event.preventDefault();
  const player = storedPlayer();
  if (player) router.go(`?player=${encodeURIComponent(player.name)}`);
});

await router.show();
