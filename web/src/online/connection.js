// The online mode's connection to the arbiter server (docs/SERVER.md): a game socket that
// reconnects by itself with a growing pause (the HTTP requests are lobby.js's `api`).
// Nothing here knows the game; frames go to the handler as parsed JSON.

// The close code of a game deleted because it never started (docs/SERVER.md, "Expiry").
export const GAME_EXPIRED = 4410;

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
