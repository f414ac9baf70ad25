// Second translation unit: links with wrapper_a.cpp (both include salpakan.hpp) and checks the
// wrapper's ownership and error handling. Ends with "N passed, M failed".
#include "salpakan.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <utility>

std::uint32_t play_to_the_end(std::uint64_t seed);

namespace {
int passed = 0, failed = 0;

void check(bool ok, const char *what) {
    if (ok) {
        ++passed;
    } else {
        ++failed;
        std::cout << "FAIL: " << what << "\n";
    }
}

template <typename F>
SalpakanResult error_code(F &&f) {
    try {
        f();
    } catch (const salpakan::Error &e) {
        return e.code();
    }
    return SALPAKAN_RESULT_OK;
}
}  // namespace

int main() {
    check(play_to_the_end(7) > 0, "a game from the other translation unit");
    check(play_to_the_end(7) == play_to_the_end(7), "seeded games repeat");

    salpakan::Game game(salpakan::random_setup(SALPAKAN_WHITE, 3, 1),
                        salpakan::random_setup(SALPAKAN_BLACK, 3, 2));
    check(game.legal_moves().size() > 0, "legal moves");
    check(game.perft(2) > game.perft(1), "perft");

    SalpakanMove diagonal{0, 10};
    check(error_code([&] { game.play(diagonal); }) == SALPAKAN_RESULT_ILLEGAL_MOVE,
          "an illegal move throws ILLEGAL_MOVE");
    try {
        game.play(diagonal);
    } catch (const salpakan::Error &e) {
        check(std::strstr(e.what(), "a1 to b2") != nullptr, "the message names the squares");
    }
    check(error_code([] { salpakan::random_setup(3, 3, 0); }) ==
              SALPAKAN_RESULT_INVALID_ARGUMENT,
          "a bad side throws INVALID_ARGUMENT");
    check(salpakan::challenge(SALPAKAN_RANK_SPY, SALPAKAN_RANK_PRIVATE) == SALPAKAN_OUTCOME_LOSE,
          "spy attacking a private loses");

    {
        // A seat: its tracker follows the arbiter's reports and its beliefs are the game's.
        salpakan::Game arbiter(salpakan::random_setup(SALPAKAN_WHITE, 3, 1),
                               salpakan::random_setup(SALPAKAN_BLACK, 3, 2));
        std::array<std::uint8_t, 72> enemy{};
        const auto view = arbiter.view(SALPAKAN_BLACK);
        for (std::size_t i = 0; i < 72; ++i) enemy[i] = view[i].side == SALPAKAN_WHITE;
        salpakan::Tracker seat(salpakan::random_setup(SALPAKAN_BLACK, 3, 2), SALPAKAN_BLACK,
                               enemy, SALPAKAN_WHITE);
        salpakan::Agent agent(SALPAKAN_AGENT_GREEDY, 5);
        bool same = true;
        for (int ply = 0; ply < 30 && arbiter.status().state == SALPAKAN_STATE_ONGOING; ++ply) {
            const SalpakanMove move = arbiter.side_to_move() == SALPAKAN_BLACK
                                          ? agent.choose(seat)
                                          : arbiter.legal_moves()[0];
            const SalpakanReport report = arbiter.play(move);
            seat.observe(move, report);
            same = same && seat.beliefs() == arbiter.beliefs(SALPAKAN_BLACK);
        }
        check(same, "a tracker's beliefs are the arbiter's for its side");
        SalpakanReport impossible{1, 9, seat.status()};
        check(error_code([&] { seat.observe(SalpakanMove{22, 31}, impossible); }) ==
                  SALPAKAN_RESULT_INVALID_ARGUMENT,
              "an impossible report throws INVALID_ARGUMENT");
        enemy.fill(0);
        check(error_code([&] {
                  salpakan::Tracker none(salpakan::random_setup(SALPAKAN_BLACK, 3, 2),
                                         SALPAKAN_BLACK, enemy, SALPAKAN_WHITE);
              }) == SALPAKAN_RESULT_INVALID_ARGUMENT,
              "no enemy squares throws INVALID_ARGUMENT");
    }

    salpakan::Game copy = game.clone();
    copy.play(copy.legal_moves()[0]);
    check(copy.side_to_move() != game.side_to_move(), "a clone is independent");

    salpakan::Game moved = std::move(game);
    check(moved.side_to_move() == SALPAKAN_WHITE, "the moved-to game works");
    check(error_code([&] { (void)game.side_to_move(); }) == SALPAKAN_RESULT_NULL_ARGUMENT,
          "a moved-from game throws NULL_ARGUMENT");
    game = std::move(copy);
    check(game.side_to_move() == SALPAKAN_BLACK, "move assignment takes the handle");

    moved.resign(SALPAKAN_WHITE);
    check(moved.status().winner == SALPAKAN_BLACK, "resignation");
    check(error_code([&] { moved.agree_draw(); }) == SALPAKAN_RESULT_GAME_OVER,
          "after the end: GAME_OVER");
    check(error_code([&] { moved.lose_on_time(SALPAKAN_BLACK); }) == SALPAKAN_RESULT_GAME_OVER,
          "no loss on time after the end");
    salpakan::Game timed = game.clone();
    timed.lose_on_time(SALPAKAN_BLACK);
    check(timed.status().winner == SALPAKAN_WHITE && timed.status().reason == SALPAKAN_REASON_TIME,
          "a loss on time");
    salpakan::Game left = game.clone();
    left.abandon(SALPAKAN_WHITE);
    check(left.status().winner == SALPAKAN_BLACK &&
              left.status().reason == SALPAKAN_REASON_ABANDONED,
          "an abandonment");
    salpakan::Game both_left = game.clone();
    both_left.abandon_by_both();
    check(both_left.status().state == SALPAKAN_STATE_DRAWN &&
              both_left.status().reason == SALPAKAN_REASON_ABANDONED_BY_BOTH,
          "both sides left: a draw");
    const salpakan::View view = game.view(SALPAKAN_WHITE);
    int unknown = 0;
    for (const SalpakanCell &cell : view) unknown += cell.rank == SALPAKAN_RANK_UNKNOWN;
    check(unknown == 21, "the view hides Black's 21 ranks");

    // Text, records, beliefs, samples, playouts and masks through the wrapper.
    salpakan::Game fresh(salpakan::random_setup(SALPAKAN_WHITE, 3, 5),
                         salpakan::random_setup(SALPAKAN_BLACK, 3, 6));
    for (int i = 0; i < 12; ++i) fresh.play(fresh.legal_moves()[0]);
    const std::string text = fresh.to_text();
    check(text.size() > 100 && text.find('\n') == std::string::npos, "one-line position text");
    check(salpakan::Game::from_text(text).to_text() == text, "position text round trip");
    check(fresh.view_text(SALPAKAN_WHITE).find("xx") != std::string::npos, "view text hides");
    const std::string record = fresh.record();
    check(salpakan::Game::from_record(record).record() == record, "record round trip");
    check(error_code([] { salpakan::Game::from_record("[Result \"nonsense\"]"); }) ==
              SALPAKAN_RESULT_PARSE,
          "a bad record throws PARSE");
    // Commitments: committed, opened, verified from the record; unopened, not verified.
    salpakan::Game committed = salpakan::Game::from_record(record);
    salpakan::Game::Salt salts[2] = {{}, {}};
    for (std::uint8_t i = 0; i < SALPAKAN_SALT_BYTES; ++i) salts[1][i] = static_cast<std::uint8_t>(i + 1);
    check(committed.commit(SALPAKAN_WHITE, salts[0]) != committed.commit(SALPAKAN_BLACK, salts[1]),
          "two formations, two commitments");
    check(error_code([&] { committed.verify_commitments(); }) == SALPAKAN_RESULT_NOT_VERIFIED,
          "unopened commitments do not verify");
    committed.open_commitment(SALPAKAN_WHITE, salts[0]);
    committed.open_commitment(SALPAKAN_BLACK, salts[1]);
    salpakan::Game::from_record(committed.record()).verify_commitments();
    check(error_code([&] { committed.open_commitment(7, salts[0]); }) ==
              SALPAKAN_RESULT_INVALID_ARGUMENT,
          "an unknown side throws INVALID_ARGUMENT");
    // A NUL inside the string would cut the record short and drop the later moves silently:
    // refused instead, in every function that takes a string.
    std::string cut = record;
    cut.insert(cut.size() / 2, 1, '\0');
    check(error_code([&] { salpakan::Game::from_record(cut); }) ==
              SALPAKAN_RESULT_INVALID_ARGUMENT,
          "a record with a NUL inside throws INVALID_ARGUMENT");
    std::string cut_text = text;
    cut_text[10] = '\0';
    check(error_code([&] { salpakan::Game::from_text(cut_text); }) ==
              SALPAKAN_RESULT_INVALID_ARGUMENT,
          "a position text with a NUL inside throws INVALID_ARGUMENT");
    const std::vector<float> obs = fresh.observation(SALPAKAN_BLACK);
    check(obs.size() == SALPAKAN_OBSERVATION_LEN, "an observation of the documented size");
    float own = 0;
    for (std::size_t i = 0; i < 15 * 72; ++i) own += obs[i];
    check(own > 0 && own <= 21, "own pieces on the own-rank planes");
    const salpakan::Beliefs beliefs = fresh.beliefs(SALPAKAN_WHITE);
    double total = 0;
    for (double p : beliefs) total += p;
    check(total > 41.999 && total < 42.001, "42 pieces, each a distribution");
    salpakan::Game sampled = fresh.sample(SALPAKAN_WHITE, 1);
    check(sampled.view_text(SALPAKAN_WHITE) == fresh.view_text(SALPAKAN_WHITE),
          "a sample looks the same to White");
    const salpakan::View seen = fresh.public_view(), seen_in_sample = sampled.public_view();
    bool same = sampled.public_view_text() == fresh.public_view_text();
    for (std::size_t i = 0; i < seen.size(); ++i)
        same = same && seen[i].side == seen_in_sample[i].side && seen[i].rank == seen_in_sample[i].rank;
    check(same, "a sample looks the same to a spectator");
    int hidden = 0;
    for (const SalpakanCell &cell : fresh.public_view()) hidden += cell.rank == SALPAKAN_RANK_UNKNOWN;
    check(hidden == 42, "a spectator sees 42 pieces and no rank");
    const auto result = fresh.playout(3, 100000);
    check(result.second > 0 && result.first.state != SALPAKAN_STATE_ONGOING, "a playout ends");
    int actions = 0;
    for (std::uint8_t byte : fresh.legal_action_mask())
        for (; byte; byte &= static_cast<std::uint8_t>(byte - 1)) ++actions;
    check(static_cast<std::size_t>(actions) == fresh.legal_moves().size(), "mask = moves");

    // Agents: a whole game, Greedy against ISMCTS, each seeing only its side.
    salpakan::Agent greedy(SALPAKAN_AGENT_GREEDY, 1);
    salpakan::Agent search(SALPAKAN_AGENT_ISMCTS, 2, 100);
    int plies = 0;
    while (fresh.status().state == SALPAKAN_STATE_ONGOING && plies < 400) {
        const std::uint8_t side = fresh.side_to_move();
        salpakan::Agent &agent = side == SALPAKAN_WHITE ? greedy : search;
        fresh.play(agent.choose(fresh, side));
        ++plies;
    }
    check(plies > 0, "agents play a game through the wrapper");
    if (fresh.status().state == SALPAKAN_STATE_ONGOING) {
        const std::uint8_t waiting = static_cast<std::uint8_t>(1 - fresh.side_to_move());
        check(error_code([&] { greedy.choose(fresh, waiting); }) ==
                  SALPAKAN_RESULT_INVALID_ARGUMENT,
              "choosing for the side not to move throws INVALID_ARGUMENT");
    } else {
        check(error_code([&] { greedy.choose(fresh, SALPAKAN_WHITE); }) ==
                  SALPAKAN_RESULT_GAME_OVER,
              "choosing after the end throws GAME_OVER");
    }
    check(error_code([] { salpakan::Agent bad(7); }) == SALPAKAN_RESULT_INVALID_ARGUMENT,
          "an unknown kind throws INVALID_ARGUMENT");

    std::cout << passed << " passed, " << failed << " failed\n";
    return failed == 0 ? 0 : 1;
}
