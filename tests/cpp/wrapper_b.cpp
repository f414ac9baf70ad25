// Second translation unit: links with wrapper_a.cpp (both include salpakan.hpp) and checks the
// wrapper's ownership and error handling. Ends with "N passed, M failed".
#include "salpakan.hpp"

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
    const salpakan::View view = game.view(SALPAKAN_WHITE);
    int unknown = 0;
    for (const SalpakanCell &cell : view) unknown += cell.rank == SALPAKAN_RANK_UNKNOWN;
    check(unknown == 21, "the view hides Black's 21 ranks");

    std::cout << passed << " passed, " << failed << " failed\n";
    return failed == 0 ? 0 : 1;
}
