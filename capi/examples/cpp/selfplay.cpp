// A full seeded game through the C++ wrapper: random setups, then each side plays a random
// legal move until the game ends. Prints every challenge and the result.
//
//   cargo build --release -p salpakan-capi
//   c++ -std=c++17 -Iinclude capi/examples/cpp/selfplay.cpp
//       target/release/libsalpakan_capi.a -lpthread -ldl -lm
//   ./a.out [SEED]
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>

#include "salpakan.hpp"

namespace {

std::string square_name(std::uint8_t square) {
    return {static_cast<char>('a' + square % 9), static_cast<char>('1' + square / 9)};
}

const char *reason_name(std::uint8_t reason) {
    switch (reason) {
    case SALPAKAN_REASON_FLAG_CAPTURED: return "flag captured";
    case SALPAKAN_REASON_FLAG_REACHED_END: return "flag reached the far end";
    case SALPAKAN_REASON_RESIGNATION: return "resignation";
    case SALPAKAN_REASON_AGREEMENT: return "agreement";
    case SALPAKAN_REASON_MOVE_LIMIT: return "move limit";
    default: return "none";
    }
}

}  // namespace

int main(int argc, char **argv) {
    const std::uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 2026;
    const char *const sides[2] = {"White", "Black"};
    const char *const outcomes[3] = {"attacker wins", "attacker loses", "tie"};
    try {
        std::cout << "salpakan " << salpakan::version() << ", C++ self-play, seed " << seed << "\n";
        salpakan::Game game(salpakan::random_setup(SALPAKAN_WHITE, 3, seed),
                            salpakan::random_setup(SALPAKAN_BLACK, 3, seed + 1));
        std::mt19937_64 rng(seed);
        unsigned plies = 0, challenges = 0;
        while (game.status().state == SALPAKAN_STATE_ONGOING) {
            if (plies >= 5000) {
                game.agree_draw();
                break;
            }
            const std::uint8_t side = game.side_to_move();
            const salpakan::MoveList moves = game.legal_moves();
            const SalpakanMove move = moves[rng() % moves.size()];
            const SalpakanReport report = game.play(move);
            ++plies;
            if (report.challenge) {
                ++challenges;
                std::cout << plies << ". " << sides[side] << " " << square_name(move.from) << "x"
                          << square_name(move.to) << ": " << outcomes[report.outcome] << "\n";
            }
        }
        const SalpakanStatus status = game.status();
        std::cout << "Result after " << plies << " plies and " << challenges << " challenges: ";
        if (status.state == SALPAKAN_STATE_WON) {
            std::cout << sides[status.winner] << " wins: " << reason_name(status.reason) << "\n";
        } else {
            std::cout << "Draw: " << reason_name(status.reason) << "\n";
        }
    } catch (const salpakan::Error &e) {
        std::cerr << "error " << e.code() << ": " << e.what() << "\n";
        return 1;
    }
    return 0;
}
