// The game screen, setup and play and the end: against the bot in this browser (`?play=here`,
// or the first screen when no server serves the page), or through the arbiter server as a
// seat (`?game=ID`, `?join=ID&invite=CODE`) or a spectator (`?watch=ID`). Both modes have one
// shape: enter(how), leave(), reroll(), begin(), resign(), offerDraw(), render() and tick();
// this screen sends the shared controls to the mode in use, and leaving it clears everything
// a game left on the page.
import { clearMoves, noteOnBoard, showEliminated } from "../board.js";
import { chatPanel } from "../chat.js";
import { offlineMode } from "../offline.js";
import { onlineMode } from "../online.js";
import { storedPlayer } from "../player.js";
import { formationCells, recordShows, saveFormation, savedFormations } from "../saved.js";
import { hideVerdict } from "../verify.js";
import { clockTime, deltaText, t } from "../words.js";

const $ = (id) => document.getElementById(id);

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
    // Which moment of a game the page is at: `setup`, `game` or `over` (the body's
    // `data-screen`, for styles and for outside checks).
    setPhase(phase) {
      router.phase(phase);
    },
    // After a rated game, this player's rating change (`delta`) to `after`.
    showRatingChange(delta, after) {
      const shown = $("rating-change");
      shown.hidden = false;
      shown.dataset.delta = String(delta);
      shown.textContent = t("rating-change", { delta: deltaText(delta), rating: after });
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
    // The formation's buttons: shown during the setup phase only, enabled while arranging;
    // the saved formations while arranging.
    showSetupControls(shown, enabled) {
      for (const button of [ui.buttons.reroll, ui.buttons.start]) {
        button.hidden = !shown;
        button.disabled = !enabled;
      }
      const box = $("formations");
      if (box.hidden === (shown && enabled)) {
        box.hidden = !(shown && enabled);
        if (!box.hidden) listFormations();
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
        shown.textContent = t("setup-time", { time: clockTime(ms) });
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
        clock.querySelector(".time").textContent = clockTime(ms[side]);
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
    for (const id of ["player-top", "player-bottom", "you-play", "rules-shown", "eliminated-white", "eliminated-black"]) {
      $(id).hidden = true;
    }
    showEliminated([]);
    noteOnBoard(null);
    ui.showPresence(null);
    ui.showDrawOffer(null, "");
    ui.buttons.offerDraw.disabled = true;
    ui.hideRecord();
    ui.hint.textContent = "";
    $("formations").hidden = true;
    note("");
    const change = $("rating-change");
    change.hidden = true;
    delete change.dataset.delta;
    hideVerdict();
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

  // Saved formations (saved.js): on this device only, used while arranging.
  const note = (text) => {
    $("formation-note").textContent = text;
  };
  function listFormations(selected) {
    const choice = $("formation-choice");
    const options = savedFormations().map((f) => Object.assign(document.createElement("option"), { value: f.name, textContent: f.name }));
    choice.replaceChildren(...options);
    if (selected) choice.value = selected;
    $("formation-use").disabled = options.length === 0;
  }
  // Warns if formation `saved` was seen in one of this player's listed finished games (read
  // as anyone reads them: no key).
  async function warnIfSeen(saved) {
    const me = storedPlayer()?.name;
    if (!me || document.body.dataset.server !== "present") return;
    try {
      const list = await (await fetch(`/api/players/${encodeURIComponent(me)}/games?limit=20`)).json();
      for (const game of list.games ?? []) {
        const side = ["white", "black"].find((s) => game.names[s]?.toLowerCase() === me.toLowerCase());
        const cells = side && formationCells(saved, side, saved.rows);
        if (!cells) continue;
        const record = await (await fetch(`/api/games/${game.game}/record`)).text();
        if (recordShows(record, side, cells)) {
          note(t("formations.seen", { when: new Date(game.ended_ms).toLocaleDateString(document.documentElement.lang) }));
          return;
        }
      }
    } catch {
      // The check is advice: without the server there is nothing to warn of.
    }
  }
  $("formation-save").addEventListener("click", () => {
    const now = current()?.arrangement?.();
    const name = $("formation-name").value.trim();
    if (!now || !name) return;
    saveFormation(name, now.side, now.rows, now.cells);
    listFormations(name);
    note(t("formations.saved-as", { name }));
    warnIfSeen(savedFormations().find((f) => f.name === name));
  });
  $("formation-use").addEventListener("click", () => {
    const now = current()?.arrangement?.();
    const saved = savedFormations().find((f) => f.name === $("formation-choice").value);
    if (!now || !saved) return;
    const cells = formationCells(saved, now.side, now.rows);
    if (!cells) {
      note(t("formations.other-zone", { name: saved.name }));
      return;
    }
    current().adopt(cells);
    note(t("formations.used", { name: saved.name }));
    warnIfSeen(saved);
  });

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
    // The words changed: the game goes on, drawn again.
    refresh() {
      disarmResign();
      current()?.render();
      if (document.body.dataset.server === "present") chatPanel().refresh();
    },
  };
}
