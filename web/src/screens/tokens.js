// One's own tokens, on one's own profile: each a key that may do only what its scopes name
// (docs/SERVER.md, "Tokens"), for a bot's bridge, a script or another device. Made with the
// key (`POST /api/tokens`), the new token is shown once; listed without their secrets
// (`GET /api/tokens`); each revoked with a button (`DELETE /api/tokens/{id}`).
import { api } from "../connection.js";
import { refusalText, t } from "../words.js";

const $ = (id) => document.getElementById(id);
const SCOPES = ["bot:play", "challenge", "read"];

export function tokensPanel() {
  let shown = 0;

  function entry(token, refresh) {
    const item = document.createElement("li");
    item.dataset.token = token.id;
    const when = new Date(token.created_ms).toLocaleDateString(document.documentElement.lang);
    const words = token.scopes.map((scope) => t(`tokens.scope.${scope}`)).join(", ");
    const label = token.label ?? t("tokens.unlabelled");
    item.appendChild(Object.assign(document.createElement("span"), {
      textContent: t("tokens.entry", { label, scopes: words, when }),
    }));
    const revoke = Object.assign(document.createElement("button"), {
      type: "button",
      className: "revoke",
      textContent: t("tokens.revoke"),
    });
    revoke.setAttribute("aria-label", t("tokens.revoke-named", { label }));
    revoke.onclick = async () => {
      revoke.disabled = true;
      const reply = await api("DELETE", `/api/tokens/${encodeURIComponent(token.id)}`);
      $("tokens-status").textContent = reply.ok ? t("tokens.revoked", { label }) : refusalText(reply.body?.error, reply.body?.message);
      await refresh();
    };
    item.appendChild(revoke);
    return item;
  }

  async function refresh(showing = shown) {
    const reply = await api("GET", "/api/tokens");
    if (!reply.ok || showing !== shown) return;
    const list = $("token-list");
    list.replaceChildren(...reply.body.tokens.map((token) => entry(token, () => refresh(showing))));
    if (!reply.body.tokens.length) {
      list.appendChild(Object.assign(document.createElement("li"), { className: "empty", textContent: t("tokens.none") }));
    }
  }

  async function mint() {
    const scopes = SCOPES.filter((scope) => $(`token-scope-${scope.replace(":", "-")}`).checked);
    const label = $("token-label").value.trim();
    const body = label ? { scopes, label } : { scopes };
    const reply = await api("POST", "/api/tokens", body);
    const made = $("token-made");
    if (!reply.ok) {
      made.hidden = true;
      $("tokens-status").textContent = scopes.length ? refusalText(reply.body?.error, reply.body?.message) : t("tokens.no-scope");
      return;
    }
    $("token-secret").value = reply.body.token;
    made.hidden = false;
    $("tokens-status").textContent = t("tokens.made");
    $("token-label").value = "";
    await refresh();
  }

  // A one-time code for another device: shown with when it lapses.
  async function link() {
    const reply = await api("POST", "/api/link");
    if (!reply.ok) {
      $("tokens-status").textContent = refusalText(reply.body?.error, reply.body?.message);
      return;
    }
    $("link-code-shown").textContent = reply.body.code;
    $("link-shown").hidden = false;
    const until = new Date(reply.body.expires_ms).toLocaleTimeString(document.documentElement.lang);
    $("tokens-status").textContent = t("tokens.link-until", { until });
  }

  return {
    async show() {
      const showing = ++shown;
      $("token-made").hidden = true;
      $("token-secret").value = "";
      $("tokens-status").textContent = "";
      $("token-mint").onclick = mint;
      $("link-device").onclick = link;
      $("link-shown").hidden = true;
      $("tokens").hidden = false;
      await refresh(showing);
    },
    hide() {
      shown++;
      $("tokens").hidden = true;
      $("token-secret").value = "";
      $("link-shown").hidden = true;
      $("token-list").replaceChildren();
    },
  };
}
