/*
 * A full seeded game through the C ABI: random setups, then each side plays a random legal
 * move (a small linear congruential generator seeded from the command line) until the game
 * ends. Prints every challenge and the result.
 *
 *   cargo build --release -p salpakan-capi
 *   cc -std=c99 -Iinclude capi/examples/c/selfplay.c target/release/libsalpakan_capi.a \
 *       -lpthread -ldl -lm
 *   ./a.out [SEED]
 */
#include <stdio.h>
#include <stdlib.h>

#include "salpakan.h"

static uint64_t lcg_state;

static uint32_t next_random(void) {
    lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(lcg_state >> 33);
}

static void square_name(uint8_t square, char out[3]) {
    out[0] = (char)('a' + square % 9);
    out[1] = (char)('1' + square / 9);
    out[2] = '\0';
}

static int check(SalpakanResult result, const char *what) {
    if (result != SALPAKAN_RESULT_OK) {
        const char *message = salpakan_last_error();
        fprintf(stderr, "%s: %s: %s\n", what, salpakan_result_name(result),
                message ? message : "(no message)");
        return 1;
    }
    return 0;
}

static const char *reason_name(uint8_t reason) {
    switch (reason) {
    case SALPAKAN_REASON_FLAG_CAPTURED: return "flag captured";
    case SALPAKAN_REASON_FLAG_REACHED_END: return "flag reached the far end";
    case SALPAKAN_REASON_RESIGNATION: return "resignation";
    case SALPAKAN_REASON_AGREEMENT: return "agreement";
    case SALPAKAN_REASON_MOVE_LIMIT: return "move limit";
    default: return "none";
    }
}

int main(int argc, char **argv) {
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 2026;
    uint8_t white[SALPAKAN_SQUARES], black[SALPAKAN_SQUARES];
    SalpakanGame *game = NULL;
    SalpakanStatus status;
    SalpakanMove moves[SALPAKAN_MAX_MOVES];
    unsigned plies = 0, challenges = 0;
    static const char *const side_names[2] = {"White", "Black"};
    static const char *const outcome_names[3] = {"attacker wins", "attacker loses", "tie"};

    lcg_state = seed;
    printf("salpakan %s, C self-play, seed %llu\n", salpakan_version(), (unsigned long long)seed);
    if (check(salpakan_random_setup(SALPAKAN_WHITE, 3, seed, white), "white setup") ||
        check(salpakan_random_setup(SALPAKAN_BLACK, 3, seed + 1, black), "black setup") ||
        check(salpakan_game_new(white, black, SALPAKAN_WHITE, &game), "new game")) {
        return 1;
    }
    for (;;) {
        size_t count = 0;
        uint8_t side = 0;
        SalpakanReport report;
        SalpakanMove move;
        char from[3], to[3];

        if (check(salpakan_game_status(game, &status), "status")) break;
        if (status.state != SALPAKAN_STATE_ONGOING) break;
        if (plies >= 5000) {
            check(salpakan_game_agree_draw(game), "draw");
            continue;
        }
        if (check(salpakan_game_side_to_move(game, &side), "side to move") ||
            check(salpakan_game_legal_moves(game, moves, SALPAKAN_MAX_MOVES, &count), "moves")) {
            break;
        }
        move = moves[next_random() % count];
        if (check(salpakan_game_play(game, move, &report), "play")) break;
        plies++;
        if (report.challenge) {
            challenges++;
            square_name(move.from, from);
            square_name(move.to, to);
            printf("%5u. %s %sx%s: %s\n", plies, side_names[side], from, to,
                   outcome_names[report.outcome]);
        }
    }
    if (status.state == SALPAKAN_STATE_WON) {
        printf("Result after %u plies and %u challenges: %s wins: %s\n", plies, challenges,
               side_names[status.winner], reason_name(status.reason));
    } else {
        printf("Result after %u plies and %u challenges: Draw: %s\n", plies, challenges,
               reason_name(status.reason));
    }
    salpakan_game_free(game);
    return 0;
}
