"""The OpenSpiel game (`salpakan.openspiel`, the extra `salpakan[openspiel]`): OpenSpiel's own
checks, its RL environment, resampling from an information state, and its Python ISMCTS."""

import os

import numpy as np
import pytest

if os.environ.get("SALPAKAN_REQUIRE_OPENSPIEL"):
    import pyspiel  # scripts/test-python installs the extra: a missing module fails here
else:
    pyspiel = pytest.importorskip("pyspiel")

import salpakan
import salpakan.openspiel  # registers the game

SIDES = ("white", "black")


def dealt(game, seed):
    """A state after the deal, chance played with `seed`."""
    rng = np.random.default_rng(seed)
    return salpakan.openspiel.deal(game, rng), rng


def test_the_game_is_registered_with_its_fixed_names():
    game = pyspiel.load_game("python_salpakan", {"max_plies": 300})
    kind = game.get_type()
    assert kind.short_name == "python_salpakan"
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_distinct_actions() == 288
    assert game.num_players() == 2
    assert pyspiel.load_game("python_salpakan").max_game_length() == 1000


def test_openspiels_random_simulation_test_passes():
    game = pyspiel.load_game("python_salpakan", {"max_plies": 200})
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_the_deal_is_chance_and_play_is_the_engines():
    game = pyspiel.load_game("python_salpakan", {"max_plies": 150})
    state = game.new_initial_state()
    assert state.salpakan_game is None
    chance_nodes = 0
    rng = np.random.default_rng(3)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        state.apply_action(int(rng.choice([a for a, _ in outcomes])))
        chance_nodes += 1
    assert chance_nodes == 43
    engine = state.salpakan_game
    assert isinstance(engine, salpakan.Game)
    while not state.is_terminal():
        player = state.current_player()
        assert SIDES[player] == engine.side_to_move
        assert state.legal_actions() == [int(a) for a in engine.legal_actions()]
        tensor = np.asarray(state.observation_tensor(player), np.float32)
        assert np.array_equal(tensor, engine.observation(SIDES[player]).reshape(-1))
        assert state.observation_string(player) == engine.view(SIDES[player]).to_text()
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert state.returns()[0] == -state.returns()[1]
    if engine.status.ongoing:
        assert engine.ply == 150 and state.returns() == [0.0, 0.0]


def test_an_rl_environment_episode_runs_to_the_end():
    from open_spiel.python import rl_environment

    game = pyspiel.load_game("python_salpakan", {"max_plies": 120})
    env = rl_environment.Environment(game, seed=4)
    step = env.reset()
    rng = np.random.default_rng(4)
    steps = 0
    while not step.last():
        player = step.observations["current_player"]
        legal = step.observations["legal_actions"][player]
        step = env.step([int(rng.choice(legal))])
        steps += 1
    assert 0 < steps <= 120
    assert sum(step.rewards) == 0


def test_resampling_keeps_the_information_state_and_changes_enemy_ranks():
    game = pyspiel.load_game("python_salpakan")
    changed = 0
    for seed in range(6):
        state, rng = dealt(game, seed)
        salpakan.openspiel.play_randomly(state, rng, int(rng.integers(0, 60)))
        if state.is_terminal():
            continue
        for player in (0, 1):
            sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
            twin = state.resample_from_infostate(player, sampler)
            assert twin.information_state_string(player) == state.information_state_string(player)
            assert twin.legal_actions() == state.legal_actions()
            enemy = SIDES[1 - player]
            if twin.salpakan_game.setup(enemy).cells() != state.salpakan_game.setup(enemy).cells():
                changed += 1
            own = SIDES[player]
            assert twin.salpakan_game.setup(own).cells() == state.salpakan_game.setup(own).cells()
    assert changed > 0, "a resample drew other enemy ranks"


def test_openspiels_python_ismcts_bot_finishes_games():
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_salpakan", {"max_plies": 60})
    rng = np.random.RandomState(5)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rng)
    for seed in range(2):
        state, _ = dealt(game, seed)
        while not state.is_terminal():
            if state.current_player() == 0:
                action = bot.step(state)
            else:
                action = int(rng.choice(state.legal_actions()))
            assert action in state.legal_actions()
            state.apply_action(action)
        assert state.returns()[0] in (-1.0, 0.0, 1.0)
