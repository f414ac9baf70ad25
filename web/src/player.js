// This browser's player: a name and its key, kept in the browser's storage (the key is the
// only proof of the name: docs/SERVER.md, "Players, the lobby and pairing").

const PLAYER_KEY = "salpakan-player";

// This browser's player: {name, key}, or null.
export function storedPlayer() {
  try {
    const held = JSON.parse(localStorage.getItem(PLAYER_KEY) ?? "null");
    return held?.name && held?.key ? held : null;
  } catch {
    return null;
  }
}

// Keeps `name` and its `key` as this browser's player.
export function keepPlayer(name, key) {
  localStorage.setItem(PLAYER_KEY, JSON.stringify({ name, key }));
}

// Forgets everything this browser keeps that acts for a player: its key and every seat's
// token ("forget this device").
export function forgetDevice() {
  for (const key of Object.keys(localStorage)) {
    if (key === PLAYER_KEY || key.startsWith("salpakan-seat:")) localStorage.removeItem(key);
  }
}
