// On one's own profile: what moderators did to this player and why (`GET /api/moderation`),
// each with a way to appeal it once (`POST /api/moderation/{id}/appeal`). Hidden when there is
// nothing to tell.
import { api } from "../connection.js";
import { refusalText, t } from "../words.js";

const $ = (id) => document.getElementById(id);

export function standingPanel() {
  let shown = 0;

  function entry(told, refresh) {
    const item = document.createElement("li");
    item.dataset.action = told.action;
    const when = new Date(told.at_ms).toLocaleString(document.documentElement.lang);
    const until = told.until_ms ? t("standing.until", { until: new Date(told.until_ms).toLocaleString(document.documentElement.lang) }) : "";
    item.appendChild(Object.assign(document.createElement("p"), {
      textContent: t("standing.entry", { when, action: t(`desk.action.${told.action}`), reason: told.reason }) + until,
    }));
    if (told.appeal) {
      item.appendChild(Object.assign(document.createElement("p"), { className: "small", textContent: t("standing.appealed", { appeal: told.appeal }) }));
      return item;
    }
    const text = Object.assign(document.createElement("textarea"), { maxLength: 500, rows: 2, className: "appeal-text" });
    text.setAttribute("aria-label", t("standing.appeal-label"));
    const send = Object.assign(document.createElement("button"), { type: "button", className: "appeal", textContent: t("standing.appeal") });
    send.onclick = async () => {
      const reply = await api("POST", `/api/moderation/${encodeURIComponent(told.id)}/appeal`, { text: text.value });
      $("standing-status").textContent = reply.ok ? t("standing.appeal-sent") : refusalText(reply.body?.error, reply.body?.message);
      if (reply.ok) await refresh();
    };
    item.append(text, send);
    return item;
  }

  async function refresh(showing = shown) {
    const reply = await api("GET", "/api/moderation");
    if (!reply.ok || showing !== shown) return;
    const actions = reply.body.actions;
    $("standing").hidden = actions.length === 0;
    $("standing-list").replaceChildren(...actions.map((told) => entry(told, () => refresh(showing))));
  }

  return {
    show() {
      $("standing-status").textContent = "";
      return refresh(++shown);
    },
    hide() {
      shown++;
      $("standing").hidden = true;
      $("standing-list").replaceChildren();
    },
  };
}
