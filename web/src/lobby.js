// The lobby (docs/SERVER.md, "Players, the lobby and pairing"): this browser's player (a name
// and its key, kept in the browser), the live list of open seeks, creating a seek, quick
// pairing, and the player socket that says when this player was paired. Being paired hands the
// new seat to `onSeat`, which takes the page straight to the game's setup.

const PLAYER_KEY = "salpakan-player";

// The clock of a choice "M+S" (or "none"), as the server takes it.
export function clockOf(choice) {
  const match = /^(\d+)\+(\d+)$/.exec(choice ?? "");
  return match ? { initial_ms: Number(match[1]) * 60000, increment_ms: Number(match[2]) * 1000 } : null;
}

// A clock as players say it: "5+3", or "untimed".
export function clockText(clock) {
  if (!clock) return "untimed";
  return `${Math.round(clock.initial_ms / 60000)}+${Math.round(clock.increment_ms / 1000)}`;
}

// This browser's player: {name, key}, or null.
export function storedPlayer() {
  try {
    const held = JSON.parse(localStorage.getItem(PLAYER_KEY) ?? "null");
    return held?.name && held?.key ? held : null;
  } catch {
    return null;
  }
}

// A request to the server, as this browser's player when there is one.
export async function api(method, path, body) {
  const headers = {};
  const player = storedPlayer();
  if (player) headers.Authorization = `Bearer ${player.key}`;
  const reply = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await reply.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { ok: reply.ok, status: reply.status, body: json };
}

// The server bots' ratings, as this server holds them now, in the bot select (an option's
// value is the bot's word, its player `bot-` and the word): a player picks a bot by a rating
// it can compare with its own. An option whose profile does not come keeps the rating the
// bot started from (docs/SERVER.md); a provisional rating is marked with "?".
export async function showBotRatings(select) {
  await Promise.all(
    [...select.options].map(async (option) => {
      const reply = await api("GET", `/api/players/bot-${encodeURIComponent(option.value)}`);
      if (!reply.ok || typeof reply.body?.rating !== "number") return;
      const name = option.textContent.split(" · ")[0];
      option.textContent = `${name} · ${reply.body.rating}${reply.body.provisional ? "?" : ""}`;
    }),
  );
}

// Whether the page is served by the arbiter server (its API answers), or alone (`npm start`).
export async function serverPresent() {
  try {
    const reply = await fetch("/api/health");
    if (!reply.ok) return false;
    const body = await reply.json();
    return body.ok === true;
  } catch {
    return false;
  }
}

function socketUrl(path) {
  const protocol = location.protocol === "https:" ? "wss:" : "ws:";
  return `${protocol}//${location.host}${path}`;
}

// A socket that reconnects with a growing pause until closed; `hello` is its first frame.
class KeptSocket {
  constructor(path, onFrame, hello = null) {
    this.path = path;
    this.onFrame = onFrame;
    this.hello = hello;
    this.retry = 500;
    this.stopped = false;
    this.connect();
  }

  connect() {
    const socket = new WebSocket(socketUrl(this.path));
    this.socket = socket;
    socket.onopen = () => {
      this.retry = 500;
      if (this.hello) socket.send(JSON.stringify(this.hello));
    };
    socket.onmessage = (event) => {
      if (!this.stopped) this.onFrame(JSON.parse(event.data));
    };
    socket.onclose = (event) => {
      // A refused key is not retried.
      if (this.stopped || event.code === 4401) return;
      setTimeout(() => {
        if (!this.stopped) this.connect();
      }, this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }

  close() {
    this.stopped = true;
    this.socket?.close();
  }
}

// The lobby panel. `ui`: its elements; `onSeat(seat)` follows a new seat ({game, side, token,
// opponent}).
export function lobbyPanel(ui, onSeat) {
  let playerSocket = null;
  let lobbySocket = null;

  function showPlayer() {
    const player = storedPlayer();
    ui.root.dataset.player = player ? "named" : "anonymous";
    ui.who.textContent = player ? `Playing as ${player.name}` : "Playing anonymously: pick a name to meet strangers and be counted.";
    ui.key.textContent = player?.key ?? "";
    ui.keyBox.hidden = !player;
    for (const button of [ui.seek, ui.quickPair]) button.disabled = !player;
    if (player) {
      api("GET", `/api/players/${encodeURIComponent(player.name)}`).then((reply) => {
        if (reply.ok) ui.who.textContent = `Playing as ${player.name} (${reply.body.rating}${reply.body.provisional ? "?" : ""}, ${reply.body.title})`;
      });
    }
  }

  function listen() {
    playerSocket?.close();
    const player = storedPlayer();
    if (!player) return;
    playerSocket = new KeptSocket("/api/players/socket", (frame) => {
      if (frame.t === "paired") {
        ui.status("Paired: arrange your pieces.");
        onSeat({ game: frame.game, side: frame.side, token: frame.token, opponent: "human" });
      }
    }, { t: "auth", key: player.key });
  }

  function showSeeks(frame) {
    ui.playing.textContent = `${frame.playing} ${frame.playing === 1 ? "game" : "games"} in play`;
    const mine = storedPlayer()?.name?.toLowerCase();
    const items = frame.seeks.map((seek) => {
      const item = document.createElement("li");
      item.dataset.seek = seek.seek;
      item.dataset.name = seek.name;
      const own = seek.name.toLowerCase() === mine;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "seek-entry";
      button.disabled = own;
      const rating = `${seek.rating}${seek.provisional ? "?" : ""}`;
      button.textContent = `${seek.name} (${rating}) · ${clockText(seek.clock)} · ${seek.rated ? "rated" : "casual"}${own ? " · yours" : ""}`;
      button.addEventListener("click", () => accept(seek.seek));
      item.appendChild(button);
      if (own) {
        const withdraw = document.createElement("button");
        withdraw.type = "button";
        withdraw.className = "withdraw";
        withdraw.textContent = "Withdraw";
        withdraw.addEventListener("click", () => api("DELETE", `/api/seeks/${seek.seek}`));
        item.appendChild(withdraw);
      }
      return item;
    });
    if (items.length === 0) {
      const empty = document.createElement("li");
      empty.className = "empty";
      empty.textContent = "No open seeks: create one, or use quick pairing.";
      items.push(empty);
    }
    ui.list.replaceChildren(...items);
  }

  async function accept(sid) {
    if (!storedPlayer()) {
      ui.status("Pick a name first: only players can accept a seek.");
      return;
    }
    const reply = await api("POST", `/api/seeks/${sid}/accept`);
    if (!reply.ok) {
      ui.status(reply.status === 404 ? "That seek was taken or withdrawn." : reply.body?.message ?? "Refused.");
      return;
    }
    onSeat({ game: reply.body.game, side: reply.body.side, token: reply.body.token, opponent: "human" });
  }

  async function register() {
    const name = ui.name.value.trim();
    const reply = await api("POST", "/api/players", { name });
    if (!reply.ok) {
      const why = { "bad-name": "A name is 3 to 20 letters, digits, _ or -.", "name-taken": "That name is taken." };
      ui.status(why[reply.body?.error] ?? reply.body?.message ?? "Refused.");
      return;
    }
    localStorage.setItem(PLAYER_KEY, JSON.stringify({ name: reply.body.name, key: reply.body.key }));
    ui.status(`Welcome, ${reply.body.name}. Your key is kept in this browser: copy it to play as ${reply.body.name} elsewhere.`);
    showPlayer();
    listen();
  }

  async function useKey() {
    const key = ui.keyInput.value.trim();
    const name = ui.keyName.value.trim();
    if (!key || !name) return;
    localStorage.setItem(PLAYER_KEY, JSON.stringify({ name, key }));
    showPlayer();
    listen();
  }

  ui.register.addEventListener("click", register);
  ui.name.addEventListener("keydown", (event) => {
    if (event.key === "Enter") register();
  });
  ui.useKey.addEventListener("click", useKey);
  ui.seek.addEventListener("click", async () => {
    const reply = await api("POST", "/api/seeks", { clock: clockOf(ui.clock.value), rated: ui.rated.checked });
    ui.status(reply.ok ? "Your seek is open: it stays in the lobby while this page is open." : reply.body?.message ?? "Refused.");
  });
  ui.quickPair.addEventListener("click", async () => {
    const reply = await api("POST", "/api/pool", { clock: clockOf(ui.clock.value), rated: ui.rated.checked });
    ui.status(reply.ok ? `Looking for an opponent (${reply.body.pool})… a server bot steps in if nobody comes.` : reply.body?.message ?? "Refused.");
  });

  return {
    start() {
      showPlayer();
      listen();
      lobbySocket ??= new KeptSocket("/api/lobby/socket", (frame) => {
        if (frame.t === "lobby") showSeeks(frame);
      });
    },
    player: storedPlayer,
  };
}
