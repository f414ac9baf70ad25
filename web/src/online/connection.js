// The online mode's connection to the arbiter server (docs/SERVER.md): the HTTP requests that
// make and join games, and a game socket that reconnects by itself with a growing pause.
// Nothing here knows the game; frames go to the handler as parsed JSON.

// The close code of a game deleted because it never started (docs/SERVER.md, "Expiry").
export const GAME_EXPIRED = 4410;

async function post(path, body) {
  const reply = await fetch(path, { method: "POST", body: JSON.stringify(body) });
  return { ok: reply.ok, status: reply.status, body: await reply.json() };
}

// Creates a game against `opponent` ("human" or a bot's name) with the clock `clockChoice`
// ("none" or "M+S"): the creator's seat, {game, side, token, invite}.
export async function createGame(opponent, clockChoice) {
  const body = { side: "random", opponent };
  const match = /^(\d+)\+(\d+)$/.exec(clockChoice);
  if (match) body.clock = { initial_ms: Number(match[1]) * 60000, increment_ms: Number(match[2]) * 1000 };
  const reply = await post("/api/games", body);
  if (!reply.ok) throw new Error(reply.body.message ?? "the server refused the game");
  return reply.body;
}

// Takes the seat an invite opens: {ok, status, body} (a 409 means the seat is taken).
export function joinGame(id, invite) {
  return post(`/api/games/${id}/join`, { invite });
}

// A game's socket, as a seat (with its token) or a spectator. `handlers`: `frame(message)`,
// `open()`, `closed(event)` (return false to stop reconnecting), `lost()` (it will retry).
export class GameSocket {
  constructor(id, token, handlers) {
    this.id = id;
    this.token = token;
    this.handlers = handlers;
    this.retry = 500;
    this.stopped = false;
    this.socket = null;
    this.connect();
  }

  connect() {
    const protocol = location.protocol === "https:" ? "wss:" : "ws:";
    const query = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    const socket = new WebSocket(`${protocol}//${location.host}/api/games/${this.id}/socket${query}`);
    this.socket = socket;
    socket.onmessage = (event) => {
      if (!this.stopped) this.handlers.frame(JSON.parse(event.data));
    };
    socket.onopen = () => {
      this.retry = 500;
      this.handlers.open?.();
    };
    socket.onclose = (event) => {
      if (this.stopped) return;
      if (this.handlers.closed?.(event) === false) {
        this.stopped = true;
        return;
      }
      this.handlers.lost?.();
      setTimeout(() => {
        if (!this.stopped) this.connect();
      }, this.retry);
      this.retry = Math.min(this.retry * 2, 4000);
    };
  }

  // Sends `message` if the socket is open; whether it was sent.
  send(message) {
    if (this.socket?.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  close() {
    this.stopped = true;
    this.socket?.close();
  }
}
