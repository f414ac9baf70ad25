// The page: against the bot in this browser (no server needed), or through the arbiter
// server against a friend or the server's bot, or watching a game; and the arbiter for a
// physical board. The address says which: `?join=ID&invite=CODE`, `?game=ID` (this browser's
// seat), `?watch=ID`; none: the offline game.
import { offlineMode } from "./offline.js";
import { createGame, joinGame, leave, onlineMode, resumeGame, tickClocks, watchGame } from "./online.js";
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
    ui.download.hidden = true;
    ui.hint.textContent = "";
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

const offline = offlineMode(ui);
const online = onlineMode(ui);
const current = () => (mode === "online" ? online : offline);

function goOffline() {
  leave();
  mode = "offline";
  document.body.dataset.mode = "offline";
  ui.links.hidden = true;
  ui.showClocks(null, null);
  ui.showPresence(null);
  ui.showDrawOffer(null, "");
  ui.buttons.offerDraw.disabled = true;
  history.replaceState(null, "", location.pathname);
  offline.start();
}

async function online_(action) {
  try {
    await action();
  } catch (error) {
    ui.hint.textContent = `The server could not be reached (${error.message}). The game against the bot in this browser still works.`;
  }
}

$("reroll").addEventListener("click", () => current().reroll());
$("start").addEventListener("click", () => current().begin());
$("resign").addEventListener("click", () => current().resign());
$("offer-draw").addEventListener("click", () => online.offerDraw());
$("new-game").addEventListener("click", goOffline);
$("beliefs").addEventListener("change", () => offline.render());
$("play-friend").addEventListener("click", () => online_(() => createGame("human", $("clock-choice").value)));
$("play-bot").addEventListener("click", () => online_(() => createGame($("bot-choice").value, $("clock-choice").value)));
$("copy-invite").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText(ui.inviteLink.href);
    ui.hint.textContent = "Invite link copied: send it to your friend.";
  } catch {
    ui.hint.textContent = "Copy the invite link above and send it to your friend.";
  }
});
setInterval(() => { if (mode === "online") tickClocks(); }, 200);

const params = new URLSearchParams(location.search);
if (params.get("join")) await online_(() => joinGame(params.get("join"), params.get("invite") ?? ""));
else if (params.get("game")) resumeGame(params.get("game"));
else if (params.get("watch")) watchGame(params.get("watch"));
else goOffline();
