// The game screen, setup and play and the end: against the bot in this browser (`?play=here`,
// or the first screen when no server serves the page), or through the arbiter server as a
// seat (`?game=ID`, `?join=ID&invite=CODE`) or a spectator (`?watch=ID`). Both modes have one
// shape: enter(how), leave(), reroll(), begin(), resign(), offerDraw(), render() and tick();
// this screen sends the shared controls to the mode in use, and leaving it clears everything
// a game left on the page.
import { clearMoves, noteOnBoard, showEliminated } from "../board.js";
import { offlineMode } from "../offline.js";
import { onlineMode } from "../online.js";
import { t } from "../words.js";

const $ = (id) => document.getElementById(id);

function formatMs(ms) {
  const total = Math.ceil(ms / 1000);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

export function gameScreen(router) {
  const status = $("status");
  let mode = null;

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
    },
    active: (which) => mode === which,
    // The address of the game in use changed (a seat taken, a rematch): the same screen.
    rename: (search) => router.rename(search),
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
      if (setup) presence.textContent = t(connected ? "presence.here" : "presence.not-yet");
      else presence.textContent = t(connected ? "presence.connected" : "presence.disconnected");
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
        shown.textContent = t("setup-time", { time: formatMs(ms) });
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
  const current = () => (mode ? modes[mode] : null);

  // Everything a game leaves on the page, gone: the next game (or screen) starts clean.
  function clear() {
    clearMoves();
    ui.links.hidden = true;
    ui.showClocks(null, null);
    ui.showSetupTime(null);
    ui.buttons.abort.hidden = true;
    ui.buttons.rematch.hidden = true;
    for (const id of ["player-top", "player-bottom", "you-play", "eliminated-white", "eliminated-black"]) {
      $(id).hidden = true;
    }
    showEliminated([]);
    noteOnBoard(null);
    ui.showPresence(null);
    ui.showDrawOffer(null, "");
    ui.buttons.offerDraw.disabled = true;
    ui.hideRecord();
    ui.hint.textContent = "";
    disarmResign();
  }

  function goOffline() {
    mode = "offline";
    document.body.dataset.mode = "offline";
    modes.offline.enter();
  }

  // Follows a game through the server (`how` as the online mode's enter takes it).
  async function goOnline(how) {
    try {
      await modes.online.enter(how);
    } catch (error) {
      ui.hint.textContent = t("hint.unreachable", { error: error.message });
    }
  }

  // Resign is pressed twice: once to arm it, once (within 4 seconds) to resign.
  let resignArmed = 0;
  function disarmResign() {
    resignArmed = 0;
    ui.buttons.resign.textContent = t("button.resign");
  }
  $("resign").addEventListener("click", () => {
    if (resignArmed && Date.now() - resignArmed < 4000) {
      disarmResign();
      current()?.resign();
      return;
    }
    resignArmed = Date.now();
    ui.buttons.resign.textContent = t("button.confirm-resign");
    ui.hint.textContent = t("hint.confirm-resign");
    setTimeout(() => {
      if (resignArmed && Date.now() - resignArmed >= 4000) disarmResign();
    }, 4100);
  });
  $("reroll").addEventListener("click", () => current()?.reroll());
  $("start").addEventListener("click", () => current()?.begin());
  $("abort").addEventListener("click", () => current()?.abort?.());
  $("rematch").addEventListener("click", () => current()?.rematch?.());
  $("offer-draw").addEventListener("click", () => current()?.offerDraw());
  $("beliefs").addEventListener("change", () => current()?.render());
  $("copy-invite").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(ui.inviteLink.href);
      ui.hint.textContent = t("hint.invite-copied");
    } catch {
      ui.hint.textContent = t("hint.invite-copy");
    }
  });
  setInterval(() => current()?.tick(), 200);

  return {
    async enter(params) {
      clear();
      if (params.get("join")) await goOnline({ join: { id: params.get("join"), invite: params.get("invite") ?? "" } });
      else if (params.get("game")) await goOnline({ resume: { id: params.get("game") } });
      else if (params.get("watch")) await goOnline({ watch: { id: params.get("watch") } });
      else goOffline();
    },
    leave() {
      modes.online.leave();
      modes.offline.leave();
      mode = null;
      clear();
    },
  };
}
