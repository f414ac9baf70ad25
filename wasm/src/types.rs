//! The TypeScript declarations of the objects the module returns and takes, written once
//! here and emitted into the package's `.d.ts` by wasm-bindgen (each function names them in
//! `unchecked_return_type` / `unchecked_param_type`).

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** A side as the package writes it. */
export type Side = "white" | "black";
/** A side as the package reads it: its word (any case), "w"/"b", or 0 (White) / 1 (Black). */
export type SideInput = Side | "w" | "b" | "White" | "Black" | 0 | 1;
/** A seed: a non-negative integer, or a BigInt below 2n ** 64n (64 bits). A seed is a key:
 * anyone who knows it knows what it made. */
export type SeedInput = number | bigint;
/** 72 cells by square (a rank number 0..15, or NO_PIECE, 255, for an empty square), in an
 * array or a typed array. */
export type CellsInput = readonly number[] | Uint8Array | Int8Array | Uint16Array | Int16Array | Uint32Array | Int32Array | Float32Array | Float64Array;
/** A square by name ("e4") or index ((row - 1) * 9 + file: a1 = 0 … i8 = 71). */
export type SquareInput = string | number;
/** A move by its notation ("e3-e4") or its two squares. */
export type MoveInput = string | { from: SquareInput; to: SquareInput };
/** The arbiter's announcement of a challenge, from the attacker's side. */
export type Outcome = "win" | "lose" | "tie";
/** Why a game ended. */
export type Reason = "flag-captured" | "flag-reached-end" | "resignation" | "time" | "abandoned" | "agreement" | "move-limit";
/** A game's status. */
export interface Status {
  state: "ongoing" | "won" | "drawn";
  /** The winner when `state` is "won", else null. */
  winner: Side | null;
  /** Why it ended, null while it goes on. */
  reason: Reason | null;
}
/** What a move did, as the arbiter announces it: never a rank. */
export interface Report {
  /** The move in notation. */
  move: string;
  challenge: boolean;
  /** The attacker's outcome for a challenge, null for a plain move. */
  outcome: Outcome | null;
  /** The status after the move. */
  status: Status;
}
/** A ply as a seat receives it from an arbiter elsewhere (a `Report`, or a server's `ply`
 * event): what `Tracker.observe` takes. */
export interface ReportInput {
  move: MoveInput;
  outcome: Outcome | null;
  status: Status;
}
/** A rank's two-letter code. */
export type RankCode = "FL" | "PV" | "SG" | "2L" | "1L" | "CP" | "MJ" | "LC" | "CO" | "1G" | "2G" | "3G" | "4G" | "5G" | "SP";
/** One of the viewing side's own pieces: its rank number (0 Flag … 14 Spy), code and name. */
export interface OwnCell { owner: "own"; rank: number; code: RankCode; name: string }
/** An enemy piece: where it stands, never its rank. */
export interface EnemyCell { owner: "enemy" }
/** A square of a view: null when empty. */
export type ViewCell = OwnCell | EnemyCell | null;
/** The game as one side sees it. */
export interface View {
  side: Side;
  sideToMove: Side;
  /** 72 cells, indexed by square. */
  cells: ViewCell[];
  /** The board drawn as that side sees it. */
  text: string;
}
/** The game as a spectator sees it: each piece's side, no rank. */
export interface PublicView {
  sideToMove: Side;
  ply: number;
  status: Status;
  /** 72 cells, indexed by square: the side whose piece stands there, or null. */
  cells: (Side | null)[];
  /** The view text with every piece hidden (`XX` White, `xx` Black). */
  text: string;
}
/** A challenge's odds as the attacker saw them just before it attacked (`Replay.odds`). */
export interface Odds {
  attacker: Side;
  /** The attacking piece's rank number (the attacker knows it). */
  rank: number;
  win: number;
  tie: number;
  lose: number;
  /** What happened. */
  outcome: Outcome;
}
/** A side's luck over a game (`Replay.luck`): a win scores 1, a tie 0.5, a loss 0. */
export interface Luck { challenges: number; score: number; expected: number; luck: number }
/** A piece with its rank, as the arbiter knows it (for the final board). */
export interface Piece { side: Side; rank: number; code: RankCode; name: string }
/** The kind of an error, the crate's `ErrorKind`: the same for the C ABI and Python. */
export type ErrorKind = "argument" | "setup" | "illegal-move" | "game-over" | "text" | "observe" | "commitment";
/** What every function of the package throws: an `Error` with the engine's message. */
export interface SalpakanError extends Error { name: "SalpakanError"; kind: ErrorKind }
"#;
