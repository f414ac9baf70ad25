// First translation unit of the wrapper test: plays a seeded game and returns its ply count.
#include "salpakan.hpp"

#include <cstdint>

std::uint32_t play_to_the_end(std::uint64_t seed) {
    salpakan::Game game(salpakan::random_setup(SALPAKAN_WHITE, 3, seed),
                        salpakan::random_setup(SALPAKAN_BLACK, 3, seed + 1));
    std::uint32_t plies = 0;
    while (game.status().state == SALPAKAN_STATE_ONGOING && plies < 5000) {
        const salpakan::MoveList moves = game.legal_moves();
        game.play(moves[(seed + plies) % moves.size()]);
        ++plies;
    }
    return plies;
}
