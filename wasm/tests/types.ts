// The package's TypeScript declarations, checked by `tsc --strict` (scripts/test-npm): the
// objects it returns have their real shapes, not `any`. Every `@ts-expect-error` below must
// be an error, which it is only if the type is precise.
import {
  ARMY,
  Game,
  Greedy,
  Ismcts,
  NO_PIECE,
  NUM_SQUARES,
  Random,
  Setup,
  Tracker,
  capturesFlag,
  challenge,
  rankCode,
  setupZone,
  type RankCode,
  type EnemyCell,
  type ErrorKind,
  type Outcome,
  type PublicView,
  type Report,
  type SalpakanError,
  type Side,
  type Status,
  type View,
  type ViewCell,
} from "salpakan";

const game: Game = new Game(3);
const status: Status = game.status;
const state: "ongoing" | "won" | "drawn" = status.state;
const winner: Side | null = status.winner;
const toMove: Side = game.sideToMove;
const report: Report = game.play(game.legalMoves()[0]);
const outcome: Outcome | null = report.outcome;
const view: View = game.view(toMove);
const cells: ViewCell[] = view.cells;
const history: Report[] = game.history();
const shown: Outcome = challenge(14, 13);
const players = [new Random(1), new Greedy(2), new Ismcts(3, 100)];
const move: string = players[0].choose(game, game.sideToMove);
const budget: number = new Ismcts(4).budget + Ismcts.defaultBudget();

// @ts-expect-error: a state is a word, not a number
const wrongState: number = game.status.state;
// @ts-expect-error: a report's outcome is one of three words
const wrongOutcome: "draw" = report.outcome;
// @ts-expect-error: there is no red side
game.view("red");
const enemy: EnemyCell = { owner: "enemy" };
// @ts-expect-error: an enemy cell never holds a rank
const leaked: number = enemy.rank;

const seat = new Tracker("white", new Array(72).fill(255), [], "white");
const seatStatus: Status = seat.status;
const seatMoves: string[] = seat.legalMovesFrom("e3");
seat.observe({ move: "e3-e4", outcome: null, status: { state: "ongoing", winner: null, reason: null } });
// @ts-expect-error: an observed outcome is one of the arbiter's three words
seat.observe({ move: "e3-e4", outcome: "draw", status: seatStatus });
console.log(seatMoves.length);

try {
  game.play("a1-a9");
} catch (e) {
  const kind: ErrorKind = (e as SalpakanError).kind;
  console.log(kind);
}
const ended = new Game(5);
const timeLoss: Status = ended.loseOnTime("black");
const left: Status = new Game(6).abandon(1);
const bothLeft: Status = new Game(7).abandonByBoth();
console.log(timeLoss.reason, left.reason, bothLeft.reason);
const spectator: PublicView = ended.publicView();
const firstCell: Side | null = spectator.cells[0];
// @ts-expect-error: a spectator's cell holds no rank
console.log(spectator.cells[0].rank, firstCell, spectator.text);
ended.free();
console.log(state, winner, outcome, cells.length, history.length, shown, move, budget, wrongState, wrongOutcome, leaked);
game.free();

// Formations and the vocabulary.
const formation: Setup = Setup.random("white");
const keyed: Setup = Setup.random("black", 2n ** 63n, 3);
const formationCells: Uint8Array = formation.cells();
const fromTyped: Game = Game.fromCells(formationCells, keyed.cells(), "black");
const fromArray: Setup = Setup.fromCells("white", [...formationCells]);
const code: RankCode = rankCode(ARMY[0]);
const sizes: number = NUM_SQUARES + NO_PIECE;
const zone: Uint8Array = setupZone("white", 3);
const fell: boolean = capturesFlag(0, 1);
// @ts-expect-error: ARMY is read-only
ARMY.push(1);
// @ts-expect-error: a seed is a number or a bigint, not a string
Setup.random("white", "7");
// @ts-expect-error: cells are numbers
Setup.fromCells("white", ["FL"]);
