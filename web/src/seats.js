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

// Keeps `seat` ({token, side, invite, opponent}) for game `id`.
export function keepSeat(id, seat) {
  localStorage.setItem(seatKey(id), JSON.stringify(seat));
}

// Forgets the seat of game `id` (it expired).
export function dropSeat(id) {
  localStorage.removeItem(seatKey(id));
}
