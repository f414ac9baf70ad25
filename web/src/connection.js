// The page's one connection layer to the arbiter server (docs/SERVER.md): `api` for HTTP
// (as this browser's player when it has one), and `KeptSocket`, the one socket every kind of
// socket uses (a game's seat or spectator, the lobby's, the player's): it reconnects by
// itself with a growing pause, sends its first frame on every connection, and stops on a
// close code that says retrying cannot help.
import { storedPlayer } from "./player.js";

// The close code of a game deleted because it never started (docs/SERVER.md, "Expiry").
export const GAME_EXPIRED = 4410;
// The close code of a player socket whose key was refused.
export const BAD_KEY = 4401;

// A request to the server, as this browser's player when there is one: {ok, status, body}.
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

// A socket at `path` that reconnects with a growing pause until closed. `handlers`:
// `frame(message)` for each frame (parsed), `open()`, `closed(event)` (return false to stop
// reconnecting), `lost()` (it will retry). `options`: `hello`, the frame sent first on every
// connection; `finalCodes`, the close codes that end it (no retry); `longest`, the longest
// pause between tries in milliseconds.
export class KeptSocket {
  constructor(path, handlers, { hello = null, finalCodes = [], longest = 8000 } = {}) {
    this.path = path;
    this.handlers = handlers;
    this.hello = hello;
    this.finalCodes = finalCodes;
    this.longest = longest;
    this.retry = 500;
    this.stopped = false;
    this.socket = null;
    this.connect();
  }

  connect() {
    const socket = new WebSocket(socketUrl(this.path));
    this.socket = socket;
    socket.onopen = () => {
      this.retry = 500;
      if (this.hello) socket.send(JSON.stringify(this.hello));
      this.handlers.open?.();
    };
    socket.onmessage = (event) => {
      if (!this.stopped) this.handlers.frame(JSON.parse(event.data));
    };
    socket.onclose = (event) => {
      if (this.stopped) return;
      if (this.finalCodes.includes(event.code) || this.handlers.closed?.(event) === false) {
        this.stopped = true;
        return;
      }
      this.handlers.lost?.();
      setTimeout(() => {
        if (!this.stopped) this.connect();
      }, this.retry);
      this.retry = Math.min(this.retry * 2, this.longest);
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
