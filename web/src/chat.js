// A game's chat (docs/SERVER.md, "Chat"): the seats' room for a seat, the spectators' room for
// a spectator. Every line is drawn in #chat alone, as text, after who said it, in a speech
// mark of its own: never in the status, the moves or the board's note, so that nothing typed
// can pass for the arbiter's words. Preset phrases are said in the reader's language; free
// lines as typed. A line may be muted (its speaker, for this reader) or reported.
import { api } from "./connection.js";
import { botName, refusalText, sideName, t } from "./words.js";

const $ = (id) => document.getElementById(id);

// The preset phrases, as the server names them (server/src/chat.rs), in the order offered.
export const PHRASES = [
  "hello", "good-luck", "have-fun", "your-move", "nice-challenge", "well-played", "thinking",
  "big-piece", "come-and-take", "spy-waiting", "flag-safe", "oops", "thanks", "gg",
];

// Who said `line`, as this reader names them.
function speaker(line, mySide) {
  if (line.side) {
    if (line.side === mySide) return t("chat.you");
    const name = line.name ? (line.bot ? botName(line.name) : line.name) : null;
    return name ? t("chat.side-named", { side: sideName(line.side), name }) : sideName(line.side);
  }
  return line.name ?? t("who.anonymous");
}

// The chat panel of the game followed: one for the page, bound to each game in turn.
class ChatPanel {
  constructor() {
    this.send = () => false;
    this.side = null;
    this.settings = null;
    this.lines = [];
    const phrases = $("chat-phrases");
    for (const phrase of PHRASES) {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.phrase = phrase;
      button.addEventListener("click", () => this.say({ t: "say", phrase }));
      phrases.append(button);
    }
    $("chat-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const text = $("chat-text").value.trim();
      if (text && this.say({ t: "say", text })) $("chat-text").value = "";
    });
    $("chat-mode").addEventListener("change", (event) => {
      this.send({ t: "chat-mode", mode: event.target.value });
    });
    $("chat-lines").addEventListener("click", (event) => {
      const button = event.target.closest("button");
      const item = event.target.closest("[data-chat]");
      if (!button || !item) return;
      if (button.dataset.act === "mute") this.send({ t: "mute", who: item.dataset.from });
      if (button.dataset.act === "report") {
        this.send({ t: "report", room: item.dataset.room, n: Number(item.dataset.chat) });
      }
    });
    $("chat-muted").addEventListener("click", (event) => {
      const who = event.target.closest("button")?.dataset.who;
      if (who) this.send({ t: "unmute", who });
    });
  }

  // Follows a game's socket: `send` sends a frame on it; `side` is the seat's (null for a
  // spectator).
  bind(send, side) {
    this.send = send;
    this.side = side;
    this.settings = null;
    this.lines = [];
    $("chat-lines").replaceChildren();
    $("chat-note").textContent = "";
    this.render();
  }

  say(message) {
    const sent = this.send(message);
    if (!sent) $("chat-note").textContent = t("chat.offline");
    return sent;
  }

  // A frame of the chat's (`chat`, `chat-settings`, `reported`, or a chat refusal): whether
  // it was one.
  receive(frame) {
    switch (frame.t) {
      case "chat":
        if (this.lines.some((l) => l.room === frame.room && l.n === frame.n)) return true;
        this.lines.push(frame);
        $("chat-lines").append(this.item(frame));
        $("chat-lines").lastElementChild.scrollIntoView?.({ block: "nearest" });
        return true;
      case "chat-settings":
        this.settings = frame;
        this.render();
        return true;
      case "reported":
        $("chat-note").textContent = t("chat.reported");
        return true;
      case "error":
        if (!String(frame.code).startsWith("chat-") && !["bad-key", "not-found"].includes(frame.code)) return false;
        $("chat-note").textContent = refusalText(frame.code, frame.message);
        return true;
      default:
        return false;
    }
  }

  // The game ended: a seat sees what the spectators said (the server gives the spectators'
  // room to anyone once the game is over).
  async afterEnd(id, token) {
    const query = token ? `?token=${encodeURIComponent(token)}` : "";
    const reply = await api("GET", `/api/games/${id}/chat${query}`);
    if (!reply.ok || this.side === null) return;
    for (const line of reply.body.spectators) this.receive({ t: "chat", ...line });
  }

  // A fresh `state`: its chat settings, and the lines that follow it are the room's so far.
  restart(settings) {
    this.lines = [];
    $("chat-lines").replaceChildren();
    this.settings = settings ?? null;
    this.render();
  }

  item(line) {
    const item = document.createElement("li");
    item.className = "chat-line";
    item.dataset.chat = String(line.n);
    item.dataset.room = line.room;
    item.dataset.from = line.side ?? (line.name ?? "").toLowerCase();
    item.dataset.bot = String(Boolean(line.bot));
    const who = Object.assign(document.createElement("span"), { className: "chat-who", textContent: speaker(line, this.side) });
    const text = line.phrase ? t(`chat.phrase.${line.phrase}`) : line.text;
    const said = Object.assign(document.createElement("span"), { className: "chat-text", textContent: text });
    item.append(who, said);
    const own = line.side ? line.side === this.side : line.name && line.name === this.settings?.name;
    if (!own && !line.bot) {
      for (const act of ["mute", "report"]) {
        const button = Object.assign(document.createElement("button"), { type: "button", className: `chat-${act}` });
        button.dataset.act = act;
        button.textContent = t(`chat.${act}`);
        item.append(button);
      }
    }
    return item;
  }

  // The controls as the settings allow: phrases unless chat is off; free lines when both
  // seats allow them (a seat), or once named (a spectator).
  render() {
    const s = this.settings;
    const mode = s?.mode ?? "presets";
    const off = mode === "off";
    const seat = Boolean(this.side);
    const freeOk = seat ? s?.seats?.white === "free" && s?.seats?.black === "free" : Boolean(s?.name);
    $("chat-room").textContent = t(seat ? "chat.room.players" : "chat.room.spectators");
    $("chat-mode").value = mode;
    $("chat-mode").querySelector('option[value="free"]').hidden = !seat;
    for (const button of $("chat-phrases").querySelectorAll("button")) {
      button.textContent = t(`chat.phrase.${button.dataset.phrase}`);
      button.disabled = off || (!seat && !s?.name);
    }
    $("chat-text").disabled = off || !freeOk;
    $("chat-send").disabled = off || !freeOk;
    $("chat-text").placeholder = off
      ? t("chat.is-off")
      : freeOk
        ? t("chat.placeholder")
        : t(seat ? "chat.free-needs-both" : "chat.name-to-talk");
    $("chat-lines").hidden = off;
    const muted = s?.muted ?? [];
    $("chat-muted").replaceChildren(...muted.map((who) => {
      const button = Object.assign(document.createElement("button"), { type: "button", textContent: t("chat.unmute", { who }) });
      button.dataset.who = who;
      return button;
    }));
  }

  // The words changed: every line and control again in the new language.
  refresh() {
    const lines = this.lines;
    $("chat-lines").replaceChildren(...lines.map((line) => this.item(line)));
    this.render();
  }
}

let panel = null;

// The page's chat panel (made on first use).
export function chatPanel() {
  panel ??= new ChatPanel();
  return panel;
}
