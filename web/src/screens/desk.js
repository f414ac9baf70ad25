// The moderators' desk (`?desk`, docs/SERVER.md, "The moderators' desk"): the queue of
// reported lines no action answered yet, each with its actions and a reason, and the log.
// Only a moderator's key opens it; anyone else reads why not.
import { api } from "../connection.js";
import { refusalText, t } from "../words.js";

const $ = (id) => document.getElementById(id);

// The actions a line's row offers, and what each sends besides the player and the reason.
const ACTIONS = [
  ["dismiss", {}],
  ["warn", {}],
  ["timeout", { hours: 24 }],
  ["mute", {}],
  ["close", {}],
];

export function deskScreen() {
  let shown = 0;

  function status(text) {
    $("desk-status").textContent = text;
  }

  function reportRow(group, refresh) {
    const item = document.createElement("li");
    item.dataset.game = group.game;
    item.dataset.n = String(group.line.n);
    const who = group.line.name ?? t("who.anonymous");
    const said = group.line.text ?? group.line.phrase;
    item.appendChild(Object.assign(document.createElement("p"), {
      textContent: t("desk.line", { who, said, count: group.reports }),
    }));
    item.appendChild(Object.assign(document.createElement("a"), {
      href: `?replay=${group.game}`,
      textContent: t("desk.game"),
    }));
    const reason = Object.assign(document.createElement("input"), { type: "text", maxLength: 500, className: "desk-reason" });
    reason.setAttribute("aria-label", t("desk.reason"));
    reason.placeholder = t("desk.reason");
    item.appendChild(reason);
    for (const [action, extra] of ACTIONS) {
      if (!group.line.name && action !== "dismiss") continue;
      const button = Object.assign(document.createElement("button"), { type: "button", textContent: t(`desk.action.${action}`) });
      button.dataset.action = action;
      button.onclick = async () => {
        const body = {
          player: group.line.name ?? "",
          action,
          reason: reason.value,
          line: { game: group.game, room: group.line.room, n: group.line.n },
          ...extra,
        };
        const reply = await api("POST", "/api/mod/actions", body);
        status(reply.ok ? t("desk.done", { action: t(`desk.action.${action}`), who }) : refusalText(reply.body?.error, reply.body?.message));
        if (reply.ok) await refresh();
      };
      item.appendChild(button);
    }
    return item;
  }

  async function refresh(showing = shown) {
    const [queue, log] = [await api("GET", "/api/mod/reports"), await api("GET", "/api/mod/log?limit=50")];
    if (showing !== shown) return;
    if (!queue.ok) {
      $("desk-body").hidden = true;
      status(refusalText(queue.body?.error, queue.body?.message));
      return;
    }
    $("desk-body").hidden = false;
    const list = $("desk-queue");
    list.replaceChildren(...queue.body.reports.map((group) => reportRow(group, () => refresh(showing))));
    if (!queue.body.reports.length) list.appendChild(Object.assign(document.createElement("li"), { className: "empty", textContent: t("desk.empty") }));
    const entries = log.ok ? log.body.actions : [];
    $("desk-log").replaceChildren(...entries.map((entry) => {
      const item = document.createElement("li");
      item.dataset.action = entry.action;
      const when = new Date(entry.at_ms).toLocaleString(document.documentElement.lang);
      const text = t("desk.entry", { when, moderator: entry.moderator, action: t(`desk.action.${entry.action}`), player: entry.player, reason: entry.reason });
      item.textContent = entry.appeal ? `${text} ${t("desk.appealed", { appeal: entry.appeal })}` : text;
      return item;
    }));
  }

  return {
    enter() {
      const showing = ++shown;
      status("");
      return refresh(showing);
    },
    leave() {
      shown++;
      $("desk-queue").replaceChildren();
      $("desk-log").replaceChildren();
    },
  };
}
