"""OpenSpiel's Python ISMCTSBot on `python_salpakan`, against Random or against our Ismcts at
equal time per move.

    pip install ./python[openspiel]
    python examples/openspiel_match.py --opponent random --games 200
    python examples/openspiel_match.py --opponent ismcts --games 400 --sims 100

OpenSpiel's bot searches with `--sims` simulations a move, each evaluated by one uniformly
random playout to the end (the engine's `Game.playout`, the same rollout OpenSpiel's
`RandomRolloutEvaluator` makes, in Rust rather than Python). Against `ismcts`, our search's
budget is calibrated first so that both take the same mean time a move, and both means are
printed. Colours alternate, and each pair of games deals the same armies (chance is seeded
per pair). Prints W/D/L from OpenSpiel's bot's side, its score with a 95% interval (normal
approximation over games), and the time each side took a move.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import salpakan
from salpakan import evaluation
from salpakan import openspiel  # registers python_salpakan

SIDES = ("white", "black")


class PlayoutEvaluator(mcts.Evaluator):
    """One uniformly random playout to the end (or to the ply limit) per evaluation."""

    def __init__(self, rng: np.random.RandomState, max_plies: int) -> None:
        self.rng = rng
        self.max_plies = max_plies

    def evaluate(self, state):
        game = state.salpakan_game
        status, _ = game.playout(int(self.rng.randint(2**62)), max(0, self.max_plies - game.ply))
        if status.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if status.winner == "white" else [-1.0, 1.0]

    def prior(self, state):
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def deal(game, seed: int):
    """The game dealt by chance with ``seed``."""
    return openspiel.deal(game, np.random.default_rng(seed))


class Timed:
    """A player with its thinking time counted."""

    def __init__(self, name, choose):
        self.name = name
        self.choose = choose
        self.seconds = 0.0
        self.moves = 0

    def __call__(self, state):
        started = time.perf_counter()
        action = self.choose(state)
        self.seconds += time.perf_counter() - started
        self.moves += 1
        return action

    def ms_per_move(self) -> float:
        return 1000 * self.seconds / max(1, self.moves)


def calibrate(game, openspiel_bot, seed: int, positions: int = 12) -> float:
    """OpenSpiel's bot's mean seconds a move over some mid-game positions."""
    rng = np.random.default_rng(seed)
    total = 0.0
    for i in range(positions):
        state = openspiel.play_randomly(deal(game, seed + i), rng, int(rng.integers(10, 80)))
        if state.is_terminal():
            continue
        started = time.perf_counter()
        openspiel_bot.step(state)
        total += time.perf_counter() - started
    return total / positions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", choices=["random", "ismcts"], default="random")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--sims", type=int, default=100, help="OpenSpiel ISMCTS simulations a move")
    parser.add_argument("--max-plies", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    game = pyspiel.load_game("python_salpakan", {"max_plies": args.max_plies})
    rng = np.random.RandomState(args.seed)
    openspiel_bot = ismcts.ISMCTSBot(
        game, PlayoutEvaluator(rng, args.max_plies), uct_c=2.0, max_simulations=args.sims, random_state=rng
    )
    theirs = Timed(f"OpenSpiel ISMCTSBot ({args.sims} simulations)", openspiel_bot.step)
    if args.opponent == "random":
        other = Timed("Random", lambda state: int(rng.choice(state.legal_actions())))
    else:
        seconds = calibrate(game, openspiel_bot, args.seed + 10_000)
        probe = salpakan.Ismcts(args.seed, 20_000)
        state = deal(game, args.seed + 20_000)
        for _ in range(30):
            state.apply_action(int(rng.choice(state.legal_actions())))
        started = time.perf_counter()
        for _ in range(5):
            probe.choose_in(state.salpakan_game, state.salpakan_game.side_to_move)
        per_iteration = (time.perf_counter() - started) / 5 / 20_000
        budget = max(100, int(seconds / per_iteration))
        searcher = {"bot": salpakan.Ismcts(args.seed, budget), "budget": budget}

        def choose(state):
            g = state.salpakan_game
            return searcher["bot"].choose_in(g, g.side_to_move).action

        other = Timed("salpakan Ismcts", choose)
    wins = draws = losses = 0
    plies = 0
    for i in range(args.games):
        state = deal(game, args.seed * 1_000_003 + i // 2)  # each pair deals the same armies
        seat = i % 2  # OpenSpiel's bot plays White in even games
        while not state.is_terminal():
            player = theirs if state.current_player() == seat else other
            state.apply_action(int(player(state)))
        plies += state.salpakan_game.ply
        result = state.returns()[seat]
        wins += result > 0
        draws += result == 0
        losses += result < 0
        if args.opponent == "ismcts" and i % 2 == 1 and other.moves and theirs.moves:
            # Keep the mean times equal: rescale our budget by the ratio so far.
            ratio = theirs.ms_per_move() / max(1e-6, other.ms_per_move())
            searcher["budget"] = max(100, int(searcher["budget"] * min(2.0, max(0.5, ratio))))
            searcher["bot"] = salpakan.Ismcts(args.seed + i, searcher["budget"])
        if (i + 1) % 20 == 0:
            print(f"{i + 1} games: {wins}-{draws}-{losses}", flush=True)
    n = args.games
    mean, low, high = evaluation.score(wins, draws, losses)
    print(f"{theirs.name} vs {other.name}, {n} games (colours alternate, {plies / n:.0f} plies a game):")
    print(f"  W/D/L {wins}/{draws}/{losses}, score {100 * mean:.1f}% (95%: {100 * low:.1f} to {100 * high:.1f})")
    print(f"  time a move: {theirs.ms_per_move():.1f} ms (OpenSpiel) and {other.ms_per_move():.1f} ms ({other.name})")
    if args.opponent == "ismcts":
        print(f"  our budget at the end: {searcher['budget']} iterations a move")
    print("  " + evaluation.verdict("OpenSpiel ISMCTSBot", other.name, wins, draws, losses))


if __name__ == "__main__":
    main()
