// The games in play anyone may watch (docs/SERVER.md, "Live games"), on the lobby screen:
// the live list's socket sends the whole list, then what changed; each game links to its
// watch screen (`?watch=ID`), the featured game first.
import { KeptSocket } from "./connection.js";
import { botName, clockTime, t } from "./words.js";

const $ = (id) => document.getElementById(id);

// The list's order, as the server's: the higher mean rating first (1500 for an anonymous
// seat), then the longer game, then the id.
export function rankOrder(a, b) {
  const mean = (e) => ((e.ratings.white ?? 1500) + (e.ratings.black ?? 1500)) / 2;
  return mean(b) - mean(a) || b.ply - a.ply || (a.game < b.game ? -1 : a.game > b.game ? 1 : 0);
}

function side(entry, which) {
  const name = entry.names[which];
  if (!name) return t("live.anonymous");
  const shown = entry.bots[which] ? botName(name) : name;
  const rating = entry.ratings[which];
  return rating === null || rating === undefined ? shown : `${shown} (${rating})`;
}

export class LiveGames {
  constructor(watch) {
    this.watch = watch; // takes the page to a game's watch screen
    this.games = new Map();
    this.featured = null;
    this.v = 0;
    this.socket = null;
  }

  start() {
    this.socket ??= new KeptSocket("/api/live/socket", {
      frame: (frame) => this.receive(frame),
    });
  }

  stop() {
    this.socket?.close();
    this.socket = null;
  }

  receive(frame) {
    if (frame.t === "live") {
      this.games = new Map(frame.games.map((e) => [e.game, e]));
    } else if (frame.t === "live-delta") {
      for (const gone of frame.gone) this.games.delete(gone);
      for (const entry of frame.changed) this.games.set(entry.game, entry);
      for (const moved of frame.moved) {
        const entry = this.games.get(moved.game);
        if (entry) this.games.set(moved.game, { ...entry, ply: moved.ply, clock: moved.clock, last: moved.last });
      }
    } else {
      return;
    }
    this.v = frame.v;
    this.featured = frame.featured;
    this.render();
  }

  render() {
    const list = [...this.games.values()].sort(rankOrder);
    const featured = list.findIndex((e) => e.game === this.featured);
    if (featured > 0) list.unshift(...list.splice(featured, 1));
    $("live-empty").hidden = list.length > 0;
    $("live-games").replaceChildren(...list.map((entry) => {
      const item = document.createElement("li");
      item.dataset.game = entry.game;
      item.dataset.featured = String(entry.game === this.featured);
      const link = document.createElement("a");
      link.href = `?watch=${entry.game}`;
      let text = t("live.line", { white: side(entry, "white"), black: side(entry, "black"), ply: entry.ply });
      if (entry.clock) text += t("live.clock", { white: clockTime(entry.clock.white_ms), black: clockTime(entry.clock.black_ms) });
      if (entry.last) text += t("live.last", { outcome: t(`live.outcome.${entry.last.outcome}`) });
      if (entry.game === this.featured) text = `${t("live.featured")}: ${text}`;
      link.textContent = text;
      link.addEventListener("click", (event) => {
        event.preventDefault();
        this.watch(entry.game);
      });
      item.append(link);
      return item;
    }));
  }
}
