// The bot thinks here, off the page's thread: it gets the game record, the side to play and
// (the first time) its seed, 64 secret bits, and budget; it rebuilds the game in its own
// WebAssembly instance and answers with the move its player chooses from that side's
// information only.
import { Game, Ismcts } from "./pkg/salpakan.js";

let player = null;

self.onmessage = (event) => {
  const { record, side, seed, budget } = event.data;
  try {
    player ??= new Ismcts(seed, budget);
    const game = Game.fromRecord(record);
    const move = player.choose(game, side);
    game.free();
    self.postMessage({ move });
  } catch (error) {
    self.postMessage({ error: String(error?.message ?? error) });
  }
};
self.postMessage({ ready: true });
