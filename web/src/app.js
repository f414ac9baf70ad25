// The page: against the bot in this browser (no server needed), or through the arbiter
// server against a friend or the server's bot, or watching a game; and the arbiter for a
// physical board. The address says which: `?join=ID&invite=CODE`, `?game=ID` (this browser's
// seat), `?watch=ID`, and after the game `?replay=ID` (a finished game, ply by ply, as each
// side knew it), `?player=NAME` (a profile and its games), `?leaderboard`; none: the offline
// game.
// Both modes have one shape: enter(how), leave(), reroll(), begin(), resign(), offerDraw(),
// render() and tick(); this page sends the shared controls to the mode in use.
import { showLeaderboard, showPlayer } from "./history.js";
import { lobbyPanel, serverPresent, showBotRatings, storedPlayer } from "./lobby.js";
import { offlineMode } from "./offline.js";
import { onlineMode } from "./online.js";
import { showReplay } from "./replay.js";
import "./arbiter.js";

const $ = (id) => document.getElementById(id);
const status = $("status");
let mode = "offline";

function formatMs(ms) {
  const total = Math.ceil(ms / 1000);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

const ui = {
  hint: $("hint"),
  download: $("download"),
  beliefs: $("beliefs"),
  links: $("links"),
  inviteLink: $("invite-link"),
  watchLink: $("watch-link"),
  copyInvite: $("copy-invite"),
  buttons: {
    reroll: $("reroll"),
    start: $("start"),
    resign: $("resign"),
    abort: $("abort"),
    rematch: $("rematch"),
    offerDraw: $("offer-draw"),
    newGame: $("new-game"),
  },
  active: (which) => mode === which,
  setStatus(turn, text) {
    status.dataset.turn = turn;
    status.textContent = text;
  },
  enterOnline(seat) {
    mode = "online";
    document.body.dataset.mode = seat ? "seat" : "spectator";
    ui.hideRecord();
    ui.hint.textContent = "";
  },
  // The game record to download, once a game is over.
  offerRecord(text) {
    if (ui.download.href.startsWith("blob:")) URL.revokeObjectURL(ui.download.href);
    ui.download.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    ui.download.hidden = false;
  },
  hideRecord() {
    ui.download.hidden = true;
    $("replay-link").hidden = true;
  },
  // The finished game's replay (a link anyone can open).
  offerReplay(id) {
    const link = $("replay-link");
    link.href = `?replay=${id}`;
    link.hidden = false;
  },
  // The formation's buttons: shown during the setup phase only, enabled while arranging.
  showSetupControls(shown, enabled) {
    for (const button of [ui.buttons.reroll, ui.buttons.start]) {
      button.hidden = !shown;
      button.disabled = !enabled;
    }
  },
  setPresenceSelf(connected) {
    document.body.dataset.connected = String(connected);
  },
  showPresence(connected, setup = false) {
    const presence = $("presence");
    presence.hidden = connected === null;
    presence.dataset.connected = String(Boolean(connected));
    if (setup) presence.textContent = connected ? "Opponent here" : "Opponent not here yet";
    else presence.textContent = connected ? "Opponent connected" : "Opponent disconnected";
  },
  showDrawOffer(by, text) {
    const offer = $("draw-offer");
    offer.hidden = !by;
    if (by) offer.dataset.by = by;
    else delete offer.dataset.by;
    offer.textContent = by ? text : "";
  },
  // The setup time left (a countdown), or nothing while it does not run.
  showSetupTime(ms) {
    const shown = $("setup-time");
    shown.hidden = ms === null;
    if (ms === null) delete shown.dataset.ms;
    else {
      shown.dataset.ms = String(Math.round(ms));
      shown.textContent = `Setup time left ${formatMs(ms)}`;
    }
  },
  showClocks(ms, running) {
    $("clocks").hidden = !ms;
    for (const side of ["white", "black"]) {
      const clock = $(`clock-${side}`);
      if (!ms) {
        delete clock.dataset.ms;
        continue;
      }
      clock.dataset.ms = String(Math.round(ms[side]));
      clock.querySelector(".time").textContent = formatMs(ms[side]);
      clock.classList.toggle("running", running === side);
    }
  },
};

const modes = { offline: offlineMode(ui), online: onlineMode(ui) };
const current = () => modes[mode];

function goOffline() {
  modes.online.leave();
  mode = "offline";
  document.body.dataset.mode = "offline";
  ui.links.hidden = true;
  ui.showClocks(null, null);
  ui.showSetupTime(null);
  ui.buttons.abort.hidden = true;
  ui.buttons.rematch.hidden = true;
  for (const id of ["player-top", "player-bottom", "you-play", "board-note", "eliminated-white", "eliminated-black"]) {
    $(id).hidden = true;
  }
  ui.showPresence(null);
  ui.showDrawOffer(null, "");
  ui.buttons.offerDraw.disabled = true;
  history.replaceState(null, "", location.pathname);
  modes.offline.enter();
}

// Follows a game through the server (`how` as the online mode's enter takes it).
async function goOnline(how) {
  try {
    await modes.online.enter(how);
    // The bot here stops thinking once a game through the server has the page.
    if (mode === "online") modes.offline.leave();
  } catch (error) {
    ui.hint.textContent = `The server could not be reached (${error.message}). The game against the bot in this browser still works.`;
  }
}

$("reroll").addEventListener("click", () => current().reroll());
$("start").addEventListener("click", () => current().begin());
// Resign is pressed twice: once to arm it, once (within 4 seconds) to resign.
let resignArmed = 0;
function disarmResign() {
  resignArmed = 0;
  ui.buttons.resign.textContent = "Resign";
}
$("resign").addEventListener("click", () => {
  if (resignArmed && Date.now() - resignArmed < 4000) {
    disarmResign();
    current().resign();
    return;
  }
  resignArmed = Date.now();
  ui.buttons.resign.textContent = "Confirm resign";
  ui.hint.textContent = "Press Confirm resign to resign the game.";
  setTimeout(() => {
    if (resignArmed && Date.now() - resignArmed >= 4000) disarmResign();
  }, 4100);
});
$("abort").addEventListener("click", () => current().abort?.());
$("rematch").addEventListener("click", () => current().rematch?.());
$("copy-key").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText($("player-key").textContent);
    $("lobby-status").textContent = "Key copied.";
  } catch {
    $("lobby-status").textContent = "Select the key above and copy it.";
  }
});
$("offer-draw").addEventListener("click", () => current().offerDraw());
$("new-game").addEventListener("click", goOffline);
$("beliefs").addEventListener("change", () => current().render());
$("play-friend").addEventListener("click", () => goOnline({ create: { opponent: "human", clock: $("clock-choice").value } }));
$("play-bot").addEventListener("click", () => goOnline({ create: { opponent: $("bot-choice").value, clock: $("clock-choice").value } }));
$("copy-invite").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText(ui.inviteLink.href);
    ui.hint.textContent = "Invite link copied: send it to your friend.";
  } catch {
    ui.hint.textContent = "Copy the invite link above and send it to your friend.";
  }
});
setInterval(() => current().tick(), 200);

// Served without the arbiter server (`npm start`), the page offers only what works alone.
const online = await serverPresent();
document.body.dataset.server = online ? "present" : "none";
const lobby = lobbyPanel(
  {
    root: $("lobby-panel"),
    who: $("player-who"),
    name: $("player-name"),
    register: $("register"),
    key: $("player-key"),
    keyBox: $("key-box"),
    keyName: $("key-name"),
    keyInput: $("key-input"),
    useKey: $("use-key"),
    clock: $("clock-choice"),
    rated: $("rated"),
    seek: $("seek"),
    quickPair: $("quick-pair"),
    list: $("lobby"),
    playing: $("lobby-playing"),
    status: (text) => {
      $("lobby-status").textContent = text;
    },
  },
  (seat) => goOnline({ seat: { game: seat.game, seat: { token: seat.token, side: seat.side, invite: null, opponent: seat.opponent } } }),
);
if (online) {
  lobby.start();
  showBotRatings($("bot-choice"));
}
// "My games": this browser's player's profile.
$("open-my-games").addEventListener("click", (event) => {
  const player = storedPlayer();
  event.preventDefault();
  if (player) location.search = `?player=${encodeURIComponent(player.name)}`;
});

const params = new URLSearchParams(location.search);
if (online && params.get("replay")) await showReplay(params.get("replay"));
else if (online && params.get("player")) await showPlayer(params.get("player"), storedPlayer()?.name);
else if (online && params.has("leaderboard")) await showLeaderboard();
else if (params.get("join")) await goOnline({ join: { id: params.get("join"), invite: params.get("invite") ?? "" } });
else if (params.get("game")) await goOnline({ resume: { id: params.get("game") } });
else if (params.get("watch")) await goOnline({ watch: { id: params.get("watch") } });
else goOffline();
