// The seats this browser holds, by game: each a token and its side (and the invite of a
// game this browser created), kept so that a reload, or the game's link, resumes the seat.

const seatKey = (id) => `salpakan-seat:${id}`;

// The seat this browser holds in game `id`, or null.
export function heldSeat(id) {
  try {
    return JSON.parse(localStorage.getItem(seatKey(id)) ?? "null");
  } catch {
    return null;
  }
}

// Keeps `seat` ({token, side, invite, opponent}) for game `id`, with when it was first kept.
export function keepSeat(id, seat) {
  const kept = heldSeat(id)?.kept_ms ?? Date.now();
  localStorage.setItem(seatKey(id), JSON.stringify({ ...seat, kept_ms: kept }));
}

// The ids of every game this browser holds a seat in, the newest first.
export function heldGames() {
  const held = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key?.startsWith(seatKey(""))) continue;
    const id = key.slice(seatKey("").length);
    held.push({ id, kept: heldSeat(id)?.kept_ms ?? 0 });
  }
  return held.sort((a, b) => b.kept - a.kept).map((g) => g.id);
}

// Forgets the seat of game `id` (it expired).
export function dropSeat(id) {
  localStorage.removeItem(seatKey(id));
}
