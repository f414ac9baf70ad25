// A side's formation while it is being arranged, shared by both modes: drawn at random from a
// secret seed (the engine's Setup.random without a seed takes 64 bits of
// crypto.getRandomValues: a formation an opponent cannot work out), then rearranged by
// picking two squares of the setup zone to swap. The zone comes from the engine.
import { NO_PIECE, Setup, setupZone, squareIndex } from "./pkg/salpakan.js";

export class Formation {
  constructor(side, rows = 3) {
    this.side = side;
    this.zone = new Set(setupZone(side, rows));
    this.rows = rows;
    this.selected = null; // a square name
    this.reroll();
  }

  // A new random formation, from a fresh secret seed.
  reroll() {
    const setup = Setup.random(this.side, undefined, this.rows);
    this.cells = setup.cells();
    setup.free();
    this.selected = null;
  }

  // Takes formation `cells` as they are (the server's copy of an accepted formation).
  adopt(cells) {
    this.cells = Uint8Array.from(cells);
    this.selected = null;
  }

  inZone(index) {
    return this.zone.has(index);
  }

  // A pick of square `name` (index `index`): the first picks a piece, the second swaps it with
  // what stands on the square picked (a piece or an empty square of the zone). Returns
  // "picked", "swapped" or null when the pick does nothing.
  pick(name, index) {
    if (!this.inZone(index)) return null;
    if (this.selected === null) {
      if (this.cells[index] === NO_PIECE) return null;
      this.selected = name;
      return "picked";
    }
    const from = squareIndex(this.selected);
    [this.cells[from], this.cells[index]] = [this.cells[index], this.cells[from]];
    this.selected = null;
    return "swapped";
  }

  // The board's cells: own pieces with their ranks (`NUM_SQUARES` entries, null when empty).
  boardCells(into) {
    this.cells.forEach((rank, i) => {
      if (rank !== NO_PIECE) into[i] = { owner: "own", rank };
    });
    return into;
  }
}
