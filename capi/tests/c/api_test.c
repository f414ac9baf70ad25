/*
 * Exercises every function of the C ABI and every error path against known answers.
 * Prints one line per failed check and ends with "N passed, M failed"; exits non-zero on any
 * failure. Built and run by tests/c_api.rs (and by .ci/run under sanitizers and valgrind).
 */
#include <stdio.h>
#include <string.h>

#include "salpakan.h"

static int passed, failed;

#define CHECK(cond)                                                                      \
    do {                                                                                 \
        if (cond) {                                                                      \
            passed++;                                                                    \
        } else {                                                                         \
            failed++;                                                                    \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                       \
        }                                                                                \
    } while (0)

#define CHECK_RESULT(call, expected) CHECK((call) == (expected))

/* last_error is set and contains `needle`. */
static int error_mentions(const char *needle) {
    const char *message = salpakan_last_error();
    if (message == NULL) return 0;
    if (strstr(message, needle) == NULL) {
        printf("  last error was: %s (wanted \"%s\")\n", message, needle);
        return 0;
    }
    return 1;
}

static const char *const CODES[15] = {"FL", "PV", "SG", "2L", "1L", "CP", "MJ", "LC",
                                      "CO", "1G", "2G", "3G", "4G", "5G", "SP"};

static uint8_t square_of(const char *name) {
    return (uint8_t)((name[1] - '1') * 9 + (name[0] - 'a'));
}

/* Fills 72 cells from "RK:sq RK:sq ...". */
static void fill(const char *text, uint8_t cells[SALPAKAN_SQUARES]) {
    memset(cells, SALPAKAN_NO_PIECE, SALPAKAN_SQUARES);
    while (*text) {
        int rank;
        while (*text == ' ') text++;
        if (!*text) break;
        for (rank = 0; rank < 15; rank++) {
            if (strncmp(text, CODES[rank], 2) == 0) break;
        }
        cells[square_of(text + 3)] = (uint8_t)rank;
        text += 5;
    }
}

static SalpakanMove mv(const char *text) {
    SalpakanMove m;
    m.from = square_of(text);
    m.to = square_of(text + 3);
    return m;
}

/* The public vector "spy attacks private" (4-row setup zone). */
static const char *VEC_WHITE =
    "SG:b1 CP:d1 PV:g1 SP:h1 CO:i1 PV:a2 2G:f2 1L:i2 PV:a3 5G:c3 PV:d3 4G:f3 MJ:g3 2L:h3 "
    "3G:i3 PV:b4 FL:d4 PV:e4 1G:f4 SP:h4 LC:i4";
static const char *VEC_BLACK =
    "2G:a5 CO:c5 3G:f5 PV:h5 SG:i5 2L:a6 SP:b6 MJ:c6 SP:g6 1L:a7 PV:b7 4G:c7 1G:e7 FL:f7 "
    "PV:i7 PV:a8 PV:b8 LC:d8 PV:e8 5G:f8 CP:h8";

static SalpakanGame *vector_game(void) {
    uint8_t white[SALPAKAN_SQUARES], black[SALPAKAN_SQUARES];
    SalpakanRules rules;
    SalpakanGame *game = NULL;
    rules.setup_rows = 4;
    rules.move_limit = 0;
    fill(VEC_WHITE, white);
    fill(VEC_BLACK, black);
    CHECK_RESULT(salpakan_game_new_with_rules(white, black, SALPAKAN_WHITE, &rules, &game),
                 SALPAKAN_RESULT_OK);
    return game;
}

static SalpakanGame *random_game(uint64_t seed, uint8_t first) {
    uint8_t white[SALPAKAN_SQUARES], black[SALPAKAN_SQUARES];
    SalpakanGame *game = NULL;
    CHECK_RESULT(salpakan_random_setup(SALPAKAN_WHITE, 3, seed, white), SALPAKAN_RESULT_OK);
    CHECK_RESULT(salpakan_random_setup(SALPAKAN_BLACK, 3, seed + 1, black), SALPAKAN_RESULT_OK);
    CHECK_RESULT(salpakan_game_new(white, black, first, &game), SALPAKAN_RESULT_OK);
    return game;
}

static void test_version_and_names(void) {
    char expected[32];
    static const char *const names[10] = {
        "SALPAKAN_RESULT_OK", "SALPAKAN_RESULT_NULL_ARGUMENT", "SALPAKAN_RESULT_INVALID_ARGUMENT",
        "SALPAKAN_RESULT_INVALID_SETUP", "SALPAKAN_RESULT_ILLEGAL_MOVE", "SALPAKAN_RESULT_GAME_OVER",
        "SALPAKAN_RESULT_BUFFER_TOO_SMALL", "SALPAKAN_RESULT_PARSE", "SALPAKAN_RESULT_PANIC",
        "SALPAKAN_RESULT_NOT_VERIFIED"};
    uint32_t code;
    sprintf(expected, "%d.%d.%d", SALPAKAN_VERSION_MAJOR, SALPAKAN_VERSION_MINOR,
            SALPAKAN_VERSION_PATCH);
    CHECK(strcmp(salpakan_version(), expected) == 0);
    for (code = 0; code < 10; code++) CHECK(strcmp(salpakan_result_name(code), names[code]) == 0);
    CHECK(strcmp(salpakan_result_name(10), "SALPAKAN_RESULT_UNKNOWN") == 0);
    CHECK(strcmp(salpakan_result_name(0xFFFFFFFFu), "SALPAKAN_RESULT_UNKNOWN") == 0);
}

static void test_challenge(void) {
    uint8_t outcome = 99;
    int a, d, ties = 0;
    CHECK_RESULT(salpakan_challenge(SALPAKAN_RANK_SPY, SALPAKAN_RANK_FIVE_STAR_GENERAL, &outcome),
                 SALPAKAN_RESULT_OK);
    CHECK(outcome == SALPAKAN_OUTCOME_WIN);
    CHECK(salpakan_last_error() == NULL);
    salpakan_challenge(SALPAKAN_RANK_PRIVATE, SALPAKAN_RANK_SPY, &outcome);
    CHECK(outcome == SALPAKAN_OUTCOME_WIN);
    salpakan_challenge(SALPAKAN_RANK_SPY, SALPAKAN_RANK_PRIVATE, &outcome);
    CHECK(outcome == SALPAKAN_OUTCOME_LOSE);
    salpakan_challenge(SALPAKAN_RANK_FLAG, SALPAKAN_RANK_FLAG, &outcome);
    CHECK(outcome == SALPAKAN_OUTCOME_WIN);
    salpakan_challenge(SALPAKAN_RANK_FLAG, SALPAKAN_RANK_PRIVATE, &outcome);
    CHECK(outcome == SALPAKAN_OUTCOME_LOSE);
    salpakan_challenge(SALPAKAN_RANK_SERGEANT, SALPAKAN_RANK_FLAG, &outcome);
    CHECK(outcome == SALPAKAN_OUTCOME_WIN);
    salpakan_challenge(SALPAKAN_RANK_FOUR_STAR_GENERAL, SALPAKAN_RANK_FIVE_STAR_GENERAL, &outcome);
    CHECK(outcome == SALPAKAN_OUTCOME_LOSE);
    salpakan_challenge(SALPAKAN_RANK_SPY, SALPAKAN_RANK_SPY, &outcome);
    CHECK(outcome == SALPAKAN_OUTCOME_TIE);
    for (a = 0; a < 15; a++) {
        for (d = 0; d < 15; d++) {
            CHECK_RESULT(salpakan_challenge((uint8_t)a, (uint8_t)d, &outcome), SALPAKAN_RESULT_OK);
            ties += outcome == SALPAKAN_OUTCOME_TIE;
        }
    }
    CHECK(ties == 14); /* every rank but the Flag ties with itself */

    outcome = 99;
    CHECK_RESULT(salpakan_challenge(15, SALPAKAN_RANK_PRIVATE, &outcome),
                 SALPAKAN_RESULT_INVALID_ARGUMENT);
    CHECK(error_mentions("attacker") && error_mentions("15"));
    CHECK_RESULT(salpakan_challenge(SALPAKAN_RANK_PRIVATE, 255, &outcome),
                 SALPAKAN_RESULT_INVALID_ARGUMENT);
    CHECK(error_mentions("defender"));
    CHECK(outcome == 99);
    CHECK_RESULT(salpakan_challenge(1, 1, NULL), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK(error_mentions("outcome"));
}

static void test_random_setup(void) {
    uint8_t cells[SALPAKAN_SQUARES], again[SALPAKAN_SQUARES], golden[SALPAKAN_SQUARES];
    int side, i, pieces;
    for (side = 0; side < 2; side++) {
        CHECK_RESULT(salpakan_random_setup((uint8_t)side, 4, 77, cells), SALPAKAN_RESULT_OK);
        pieces = 0;
        for (i = 0; i < SALPAKAN_SQUARES; i++) {
            if (cells[i] != SALPAKAN_NO_PIECE) {
                pieces++;
                CHECK(cells[i] <= SALPAKAN_RANK_SPY);
                CHECK(side == SALPAKAN_WHITE ? i < 36 : i >= 36);
            }
        }
        CHECK(pieces == 21);
    }
    /* The same arguments give the same setup; this one is pinned in the Rust tests too. */
    CHECK_RESULT(salpakan_random_setup(SALPAKAN_WHITE, 3, 2024, cells), SALPAKAN_RESULT_OK);
    CHECK_RESULT(salpakan_random_setup(SALPAKAN_WHITE, 3, 2024, again), SALPAKAN_RESULT_OK);
    CHECK(memcmp(cells, again, sizeof cells) == 0);
    fill("FL:a1 LC:b1 5G:d1 PV:e1 PV:f1 PV:g1 MJ:i1 CO:a2 CP:b2 SP:c2 2G:e2 PV:f2 SG:g2 "
         "3G:i2 1L:a3 PV:c3 1G:d3 PV:e3 SP:f3 4G:g3 2L:i3",
         golden);
    CHECK(memcmp(cells, golden, sizeof cells) == 0);

    memset(again, 7, sizeof again);
    CHECK_RESULT(salpakan_random_setup(2, 3, 1, again), SALPAKAN_RESULT_INVALID_ARGUMENT);
    CHECK(error_mentions("side"));
    CHECK_RESULT(salpakan_random_setup(SALPAKAN_WHITE, 5, 1, again),
                 SALPAKAN_RESULT_INVALID_ARGUMENT);
    CHECK(error_mentions("setup_rows"));
    CHECK(again[0] == 7 && again[71] == 7); /* nothing written on failure */
    CHECK_RESULT(salpakan_random_setup(SALPAKAN_WHITE, 3, 1, NULL), SALPAKAN_RESULT_NULL_ARGUMENT);
}

static void test_new_game_errors(void) {
    uint8_t white[SALPAKAN_SQUARES], black[SALPAKAN_SQUARES], bad[SALPAKAN_SQUARES];
    SalpakanGame *sentinel = (SalpakanGame *)&passed, *game = sentinel;
    SalpakanRules rules;
    salpakan_random_setup(SALPAKAN_WHITE, 3, 5, white);
    salpakan_random_setup(SALPAKAN_BLACK, 3, 6, black);

    CHECK_RESULT(salpakan_game_new(NULL, black, 0, &game), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK(error_mentions("white"));
    CHECK_RESULT(salpakan_game_new(white, NULL, 0, &game), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK(error_mentions("black"));
    CHECK_RESULT(salpakan_game_new(white, black, 0, NULL), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK(error_mentions("out"));
    CHECK_RESULT(salpakan_game_new(white, black, 2, &game), SALPAKAN_RESULT_INVALID_ARGUMENT);
    CHECK(error_mentions("first"));

    memcpy(bad, white, sizeof bad);
    bad[40] = 20; /* e5: not a rank */
    CHECK_RESULT(salpakan_game_new(bad, black, 0, &game), SALPAKAN_RESULT_INVALID_ARGUMENT);
    CHECK(error_mentions("e5") && error_mentions("20"));
    bad[40] = SALPAKAN_RANK_UNKNOWN;
    CHECK_RESULT(salpakan_game_new(bad, black, 0, &game), SALPAKAN_RESULT_INVALID_ARGUMENT);

    fill("FL:a1 PV:b1 PV:c1 PV:d1 PV:e1 PV:f1 PV:g1 SG:h1 2L:i1 1L:a2 CP:b2 MJ:c2 LC:d2 CO:e2 "
         "1G:f2 2G:g2 3G:h2 4G:i2 PV:a3 SP:b3 SP:c3",
         bad); /* a seventh Private instead of the 5-Star General */
    CHECK_RESULT(salpakan_game_new(bad, black, 0, &game), SALPAKAN_RESULT_INVALID_SETUP);
    CHECK(error_mentions("too many of rank PV (Private): 7 placed, an army has 6"));
    bad[square_of("a3")] = SALPAKAN_NO_PIECE;
    bad[square_of("e4")] = SALPAKAN_RANK_FIVE_STAR_GENERAL;
    CHECK_RESULT(salpakan_game_new(bad, black, 0, &game), SALPAKAN_RESULT_INVALID_SETUP);
    CHECK(error_mentions("square e4 is outside White's setup zone (rows 1-3)"));
    /* Black's army given as White's: every piece is outside White's zone. */
    CHECK_RESULT(salpakan_game_new(black, black, 0, &game), SALPAKAN_RESULT_INVALID_SETUP);
    CHECK(error_mentions("outside White's setup zone"));
    CHECK(game == sentinel); /* out is written only on success */

    CHECK_RESULT(salpakan_game_new_with_rules(white, black, 0, NULL, &game),
                 SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK(error_mentions("rules"));
    rules.setup_rows = 5;
    rules.move_limit = 0;
    CHECK_RESULT(salpakan_game_new_with_rules(white, black, 0, &rules, &game),
                 SALPAKAN_RESULT_INVALID_ARGUMENT);
    CHECK(error_mentions("setup_rows"));
    /* A 4-row setup does not fit 3-row rules. */
    salpakan_random_setup(SALPAKAN_WHITE, 4, 1, bad);
    rules.setup_rows = 3;
    if (salpakan_game_new_with_rules(bad, black, 0, &rules, &game) == SALPAKAN_RESULT_OK) {
        /* seed 1 may happen to fit rows 1-3; then it is a valid game */
        salpakan_game_free(game);
        game = sentinel;
    } else {
        CHECK(error_mentions("outside White's setup zone"));
    }
    CHECK(game == sentinel);
}

static void test_vector_game(void) {
    SalpakanGame *game = vector_game();
    SalpakanReport report;
    SalpakanStatus status;
    uint64_t nodes = 0;
    uint8_t side = 9;
    size_t count = 0;
    static const char *const moves[5] = {"h4-h5", "f5-f4", "g3-g2", "f4-e4", "d4-e4"};
    static const int challenge[5] = {1, 1, 0, 1, 1};
    static const uint8_t outcome[5] = {SALPAKAN_OUTCOME_LOSE, SALPAKAN_OUTCOME_WIN, 255,
                                       SALPAKAN_OUTCOME_WIN, SALPAKAN_OUTCOME_LOSE};
    int i;

    CHECK_RESULT(salpakan_game_perft(game, 1, &nodes), SALPAKAN_RESULT_OK);
    CHECK(nodes == 39);
    CHECK_RESULT(salpakan_game_perft(game, 2, &nodes), SALPAKAN_RESULT_OK);
    CHECK(nodes == 1403);
    CHECK_RESULT(salpakan_game_perft(game, 3, &nodes), SALPAKAN_RESULT_OK);
    CHECK(nodes == 54435);
    CHECK_RESULT(salpakan_game_perft(game, 0, &nodes), SALPAKAN_RESULT_OK);
    CHECK(nodes == 1);
    CHECK_RESULT(salpakan_game_legal_moves(game, NULL, 0, &count), SALPAKAN_RESULT_BUFFER_TOO_SMALL);
    CHECK(count == 39);

    for (i = 0; i < 5; i++) {
        CHECK_RESULT(salpakan_game_side_to_move(game, &side), SALPAKAN_RESULT_OK);
        CHECK(side == (i % 2 == 0 ? SALPAKAN_WHITE : SALPAKAN_BLACK));
        CHECK_RESULT(salpakan_game_play(game, mv(moves[i]), &report), SALPAKAN_RESULT_OK);
        CHECK(report.challenge == challenge[i]);
        CHECK(report.outcome == outcome[i]);
        CHECK(report.status.state == (i < 4 ? SALPAKAN_STATE_ONGOING : SALPAKAN_STATE_WON));
    }
    CHECK(report.status.winner == SALPAKAN_BLACK);
    CHECK(report.status.reason == SALPAKAN_REASON_FLAG_CAPTURED);
    CHECK_RESULT(salpakan_game_status(game, &status), SALPAKAN_RESULT_OK);
    CHECK(memcmp(&status, &report.status, sizeof status) == 0);

    /* A finished game: no moves, perft 0, every action refused. */
    CHECK_RESULT(salpakan_game_legal_moves(game, NULL, 0, &count), SALPAKAN_RESULT_OK);
    CHECK(count == 0);
    CHECK_RESULT(salpakan_game_perft(game, 1, &nodes), SALPAKAN_RESULT_OK);
    CHECK(nodes == 0);
    CHECK_RESULT(salpakan_game_play(game, mv("a2-a1"), NULL), SALPAKAN_RESULT_GAME_OVER);
    CHECK(error_mentions("the game is over (Black wins: flag captured)"));
    CHECK_RESULT(salpakan_game_resign(game, SALPAKAN_WHITE), SALPAKAN_RESULT_GAME_OVER);
    CHECK_RESULT(salpakan_game_agree_draw(game), SALPAKAN_RESULT_GAME_OVER);
    salpakan_game_free(game);
}

static void test_legal_moves_buffers(void) {
    SalpakanGame *game = vector_game();
    SalpakanMove moves[SALPAKAN_MAX_MOVES];
    size_t count = 12345, i;
    int found = 0;
    memset(moves, 0xAB, sizeof moves);
    CHECK_RESULT(salpakan_game_legal_moves(game, moves, 10, &count),
                 SALPAKAN_RESULT_BUFFER_TOO_SMALL);
    CHECK(count == 39);
    CHECK(error_mentions("capacity"));
    CHECK(moves[0].from == 0xAB && moves[0].to == 0xAB); /* nothing written */
    count = 12345;
    CHECK_RESULT(salpakan_game_legal_moves(game, NULL, SALPAKAN_MAX_MOVES, &count),
                 SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK(count == 12345); /* nothing written on NULL_ARGUMENT */
    CHECK_RESULT(salpakan_game_legal_moves(game, moves, SALPAKAN_MAX_MOVES, NULL),
                 SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(salpakan_game_legal_moves(NULL, moves, SALPAKAN_MAX_MOVES, &count),
                 SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK(error_mentions("game"));
    CHECK_RESULT(salpakan_game_legal_moves(game, moves, 39, &count), SALPAKAN_RESULT_OK);
    CHECK(count == 39);
    for (i = 0; i < count; i++) {
        CHECK(moves[i].from < 72 && moves[i].to < 72);
        found += moves[i].from == square_of("d4") && moves[i].to == square_of("d5");
    }
    CHECK(found == 1);
    salpakan_game_free(game);
}

static void test_illegal_moves(void) {
    SalpakanGame *game = vector_game();
    SalpakanReport report;
    SalpakanMove off;
    uint64_t before = 0, after = 0;
    uint8_t side = 9;
    salpakan_game_perft(game, 2, &before);
    memset(&report, 0x5A, sizeof report);

    CHECK_RESULT(salpakan_game_play(game, mv("d4-e5"), &report), SALPAKAN_RESULT_ILLEGAL_MOVE);
    CHECK(error_mentions("d4 to e5 is not a move of one square"));
    CHECK(report.challenge == 0x5A); /* report untouched */
    CHECK_RESULT(salpakan_game_play(game, mv("d4-d6"), NULL), SALPAKAN_RESULT_ILLEGAL_MOVE);
    CHECK_RESULT(salpakan_game_play(game, mv("d3-d4"), NULL), SALPAKAN_RESULT_ILLEGAL_MOVE);
    CHECK(error_mentions("d4 is occupied by White's own piece"));
    CHECK_RESULT(salpakan_game_play(game, mv("a5-a4"), NULL), SALPAKAN_RESULT_ILLEGAL_MOVE);
    CHECK(error_mentions("the piece on a5 is Black's, and it is White's turn"));
    CHECK_RESULT(salpakan_game_play(game, mv("e5-e6"), NULL), SALPAKAN_RESULT_ILLEGAL_MOVE);
    CHECK(error_mentions("no piece on e5"));
    CHECK_RESULT(salpakan_game_play(game, mv("i3-a4"), NULL), SALPAKAN_RESULT_ILLEGAL_MOVE);
    off.from = square_of("i4");
    off.to = 72;
    CHECK_RESULT(salpakan_game_play(game, off, NULL), SALPAKAN_RESULT_INVALID_ARGUMENT);
    CHECK(error_mentions("move.to is 72"));
    off.from = 200;
    CHECK_RESULT(salpakan_game_play(game, off, NULL), SALPAKAN_RESULT_INVALID_ARGUMENT);
    CHECK(error_mentions("move.from is 200"));
    CHECK_RESULT(salpakan_game_play(NULL, mv("d4-d5"), NULL), SALPAKAN_RESULT_NULL_ARGUMENT);

    salpakan_game_perft(game, 2, &after);
    CHECK(before == after);
    salpakan_game_side_to_move(game, &side);
    CHECK(side == SALPAKAN_WHITE);
    /* A legal move with no report pointer. */
    CHECK_RESULT(salpakan_game_play(game, mv("d4-d5"), NULL), SALPAKAN_RESULT_OK);
    CHECK(salpakan_last_error() == NULL);
    salpakan_game_free(game);
}

static void test_resign_draw_and_limit(void) {
    SalpakanGame *game = random_game(3, SALPAKAN_BLACK);
    SalpakanStatus status;
    SalpakanRules rules;
    uint8_t white[SALPAKAN_SQUARES], black[SALPAKAN_SQUARES], side = 9;
    SalpakanMove moves[SALPAKAN_MAX_MOVES];
    size_t count;

    salpakan_game_side_to_move(game, &side);
    CHECK(side == SALPAKAN_BLACK);
    CHECK_RESULT(salpakan_game_resign(game, 2), SALPAKAN_RESULT_INVALID_ARGUMENT);
    CHECK_RESULT(salpakan_game_resign(NULL, 0), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(salpakan_game_resign(game, SALPAKAN_WHITE), SALPAKAN_RESULT_OK);
    salpakan_game_status(game, &status);
    CHECK(status.state == SALPAKAN_STATE_WON && status.winner == SALPAKAN_BLACK &&
          status.reason == SALPAKAN_REASON_RESIGNATION);
    salpakan_game_free(game);

    /* The ends a server decides: a loss on time, an abandonment; nothing after them. */
    game = random_game(5, SALPAKAN_WHITE);
    CHECK_RESULT(salpakan_game_lose_on_time(game, 2), SALPAKAN_RESULT_INVALID_ARGUMENT);
    CHECK_RESULT(salpakan_game_lose_on_time(NULL, 0), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(salpakan_game_lose_on_time(game, SALPAKAN_BLACK), SALPAKAN_RESULT_OK);
    salpakan_game_status(game, &status);
    CHECK(status.state == SALPAKAN_STATE_WON && status.winner == SALPAKAN_WHITE &&
          status.reason == SALPAKAN_REASON_TIME);
    CHECK_RESULT(salpakan_game_abandon(game, SALPAKAN_WHITE), SALPAKAN_RESULT_GAME_OVER);
    salpakan_game_free(game);
    game = random_game(6, SALPAKAN_WHITE);
    CHECK_RESULT(salpakan_game_abandon(NULL, 0), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(salpakan_game_abandon(game, SALPAKAN_WHITE), SALPAKAN_RESULT_OK);
    salpakan_game_status(game, &status);
    CHECK(status.state == SALPAKAN_STATE_WON && status.winner == SALPAKAN_BLACK &&
          status.reason == SALPAKAN_REASON_ABANDONED);
    CHECK_RESULT(salpakan_game_abandon_by_both(game), SALPAKAN_RESULT_GAME_OVER);
    salpakan_game_free(game);
    game = random_game(7, SALPAKAN_WHITE);
    CHECK_RESULT(salpakan_game_abandon_by_both(NULL), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(salpakan_game_abandon_by_both(game), SALPAKAN_RESULT_OK);
    salpakan_game_status(game, &status);
    CHECK(status.state == SALPAKAN_STATE_DRAWN && status.winner == SALPAKAN_NO_SIDE &&
          status.reason == SALPAKAN_REASON_ABANDONED_BY_BOTH);
    salpakan_game_free(game);

    game = random_game(4, SALPAKAN_WHITE);
    CHECK_RESULT(salpakan_game_agree_draw(NULL), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(salpakan_game_agree_draw(game), SALPAKAN_RESULT_OK);
    salpakan_game_status(game, &status);
    CHECK(status.state == SALPAKAN_STATE_DRAWN && status.winner == SALPAKAN_NO_SIDE &&
          status.reason == SALPAKAN_REASON_AGREEMENT);
    salpakan_game_free(game);

    salpakan_random_setup(SALPAKAN_WHITE, 3, 8, white);
    salpakan_random_setup(SALPAKAN_BLACK, 3, 9, black);
    rules.setup_rows = 3;
    rules.move_limit = 2;
    CHECK_RESULT(salpakan_game_new_with_rules(white, black, SALPAKAN_WHITE, &rules, &game),
                 SALPAKAN_RESULT_OK);
    salpakan_game_legal_moves(game, moves, SALPAKAN_MAX_MOVES, &count);
    CHECK_RESULT(salpakan_game_play(game, moves[0], NULL), SALPAKAN_RESULT_OK);
    salpakan_game_status(game, &status);
    CHECK(status.state == SALPAKAN_STATE_ONGOING && status.reason == SALPAKAN_REASON_NONE &&
          status.winner == SALPAKAN_NO_SIDE);
    salpakan_game_legal_moves(game, moves, SALPAKAN_MAX_MOVES, &count);
    CHECK_RESULT(salpakan_game_play(game, moves[0], NULL), SALPAKAN_RESULT_OK);
    salpakan_game_status(game, &status);
    CHECK(status.state == SALPAKAN_STATE_DRAWN && status.reason == SALPAKAN_REASON_MOVE_LIMIT);
    salpakan_game_free(game);
}

static void test_view(void) {
    uint8_t white[SALPAKAN_SQUARES], black[SALPAKAN_SQUARES], shuffled[SALPAKAN_SQUARES];
    SalpakanCell cells[SALPAKAN_SQUARES], other[SALPAKAN_SQUARES];
    SalpakanGame *game = NULL, *twin = NULL;
    int i, unknown = 0, own = 0, first = -1;
    salpakan_random_setup(SALPAKAN_WHITE, 3, 11, white);
    salpakan_random_setup(SALPAKAN_BLACK, 3, 12, black);
    salpakan_game_new(white, black, SALPAKAN_WHITE, &game);

    CHECK_RESULT(salpakan_game_view(game, SALPAKAN_WHITE, cells), SALPAKAN_RESULT_OK);
    for (i = 0; i < SALPAKAN_SQUARES; i++) {
        if (white[i] != SALPAKAN_NO_PIECE) {
            own++;
            CHECK(cells[i].side == SALPAKAN_WHITE && cells[i].rank == white[i]);
        } else if (black[i] != SALPAKAN_NO_PIECE) {
            unknown++;
            CHECK(cells[i].side == SALPAKAN_BLACK && cells[i].rank == SALPAKAN_RANK_UNKNOWN);
        } else {
            CHECK(cells[i].side == SALPAKAN_NO_SIDE && cells[i].rank == SALPAKAN_NO_PIECE);
        }
    }
    CHECK(own == 21 && unknown == 21);

    /* Swap the ranks of two different Black pieces: White's view must not change. */
    memcpy(shuffled, black, sizeof shuffled);
    for (i = 0; i < SALPAKAN_SQUARES; i++) {
        if (shuffled[i] == SALPAKAN_NO_PIECE) continue;
        if (first < 0) {
            first = i;
        } else if (shuffled[i] != shuffled[first]) {
            uint8_t t = shuffled[i];
            shuffled[i] = shuffled[first];
            shuffled[first] = t;
            break;
        }
    }
    CHECK(memcmp(shuffled, black, sizeof black) != 0);
    CHECK_RESULT(salpakan_game_new(white, shuffled, SALPAKAN_WHITE, &twin), SALPAKAN_RESULT_OK);
    salpakan_game_view(twin, SALPAKAN_WHITE, other);
    CHECK(memcmp(cells, other, sizeof cells) == 0);
    salpakan_game_view(twin, SALPAKAN_BLACK, other);
    salpakan_game_view(game, SALPAKAN_BLACK, cells);
    CHECK(memcmp(cells, other, sizeof cells) != 0); /* Black sees its own ranks */

    /* A spectator's board: every piece's side, no rank; the same for both twins. */
    CHECK_RESULT(salpakan_game_public_view(game, cells), SALPAKAN_RESULT_OK);
    CHECK_RESULT(salpakan_game_public_view(twin, other), SALPAKAN_RESULT_OK);
    CHECK(memcmp(cells, other, sizeof cells) == 0);
    for (i = 0; i < SALPAKAN_SQUARES; i++) {
        if (white[i] != SALPAKAN_NO_PIECE) {
            CHECK(cells[i].side == SALPAKAN_WHITE && cells[i].rank == SALPAKAN_RANK_UNKNOWN);
        } else if (black[i] != SALPAKAN_NO_PIECE) {
            CHECK(cells[i].side == SALPAKAN_BLACK && cells[i].rank == SALPAKAN_RANK_UNKNOWN);
        } else {
            CHECK(cells[i].side == SALPAKAN_NO_SIDE && cells[i].rank == SALPAKAN_NO_PIECE);
        }
    }
    {
        char text[512], twin_text[512];
        size_t len = 0, twin_len = 0;
        CHECK_RESULT(salpakan_game_public_view_text(game, text, sizeof text, &len),
                     SALPAKAN_RESULT_OK);
        CHECK_RESULT(salpakan_game_public_view_text(twin, twin_text, sizeof twin_text, &twin_len),
                     SALPAKAN_RESULT_OK);
        CHECK(len == twin_len && strcmp(text, twin_text) == 0);
        CHECK(strstr(text, "XX") != NULL && strstr(text, "xx") != NULL);
        CHECK(strstr(text, "FL") == NULL && strstr(text, "fl") == NULL);
    }
    CHECK_RESULT(salpakan_game_public_view(game, NULL), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(salpakan_game_public_view(NULL, cells), SALPAKAN_RESULT_NULL_ARGUMENT);

    CHECK_RESULT(salpakan_game_view(game, 2, cells), SALPAKAN_RESULT_INVALID_ARGUMENT);
    CHECK_RESULT(salpakan_game_view(game, SALPAKAN_WHITE, NULL), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(salpakan_game_view(NULL, SALPAKAN_WHITE, cells), SALPAKAN_RESULT_NULL_ARGUMENT);
    salpakan_game_free(game);
    salpakan_game_free(twin);
}

static void test_clone_free_and_nulls(void) {
    SalpakanGame *game = random_game(21, SALPAKAN_WHITE), *copy;
    SalpakanMove moves[SALPAKAN_MAX_MOVES];
    size_t count = 0;
    uint8_t side = 9;
    uint64_t nodes;
    SalpakanStatus status;

    CHECK(salpakan_game_clone(NULL) == NULL);
    CHECK(error_mentions("game"));
    copy = salpakan_game_clone(game);
    CHECK(copy != NULL && copy != game);
    salpakan_game_legal_moves(copy, moves, SALPAKAN_MAX_MOVES, &count);
    CHECK_RESULT(salpakan_game_play(copy, moves[0], NULL), SALPAKAN_RESULT_OK);
    salpakan_game_side_to_move(copy, &side);
    CHECK(side == SALPAKAN_BLACK);
    salpakan_game_side_to_move(game, &side);
    CHECK(side == SALPAKAN_WHITE); /* the original is untouched */
    salpakan_game_free(copy);
    salpakan_game_free(NULL);

    CHECK_RESULT(salpakan_game_side_to_move(NULL, &side), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(salpakan_game_side_to_move(game, NULL), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(salpakan_game_status(NULL, &status), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(salpakan_game_status(game, NULL), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(salpakan_game_perft(NULL, 1, &nodes), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(salpakan_game_perft(game, 1, NULL), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK(error_mentions("nodes"));
    /* Perft has a bounded depth: beyond it, an error and nothing written (it used to recurse
       until the stack overflowed). */
    nodes = 4242;
    CHECK_RESULT(salpakan_game_perft(game, SALPAKAN_MAX_PERFT_DEPTH + 1, &nodes),
                 SALPAKAN_RESULT_INVALID_ARGUMENT);
    CHECK(nodes == 4242);
    CHECK(error_mentions("SALPAKAN_MAX_PERFT_DEPTH"));
    CHECK_RESULT(salpakan_game_perft(game, UINT32_MAX, &nodes), SALPAKAN_RESULT_INVALID_ARGUMENT);
    CHECK(nodes == 4242);
    /* A success clears the last error. */
    CHECK_RESULT(salpakan_game_perft(game, 1, &nodes), SALPAKAN_RESULT_OK);
    CHECK(salpakan_last_error() == NULL);
    salpakan_game_free(game);
}

static int popcount8(uint8_t b) {
    int n = 0;
    while (b) {
        n += b & 1;
        b >>= 1;
    }
    return n;
}

static void test_playout_and_action_mask(void) {
    SalpakanGame *game = vector_game();
    SalpakanStatus a, b;
    SalpakanMove moves[SALPAKAN_MAX_MOVES];
    uint8_t mask[SALPAKAN_ACTION_MASK_BYTES], side = 9;
    uint32_t plies_a = 0, plies_b = 0, sentinel = 777;
    uint64_t before = 0, after = 0;
    size_t count = 0, i;
    int bits = 0;

    salpakan_game_perft(game, 2, &before);
    CHECK_RESULT(salpakan_game_playout(game, 42, 100000, &a, &plies_a), SALPAKAN_RESULT_OK);
    CHECK_RESULT(salpakan_game_playout(game, 42, 100000, &b, &plies_b), SALPAKAN_RESULT_OK);
    CHECK(plies_a == plies_b && memcmp(&a, &b, sizeof a) == 0); /* same arguments, same result */
    CHECK(plies_a > 0 && a.state != SALPAKAN_STATE_ONGOING);
    salpakan_game_perft(game, 2, &after);
    salpakan_game_side_to_move(game, &side);
    CHECK(before == after && side == SALPAKAN_WHITE); /* the game itself is unchanged */
    CHECK_RESULT(salpakan_game_playout(game, 42, 3, &a, &plies_a), SALPAKAN_RESULT_OK);
    CHECK(plies_a == 3 && a.state == SALPAKAN_STATE_ONGOING);
    CHECK_RESULT(salpakan_game_playout(game, 42, 0, &a, &plies_a), SALPAKAN_RESULT_OK);
    CHECK(plies_a == 0);
    CHECK_RESULT(salpakan_game_playout(NULL, 1, 1, &a, &plies_a), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(salpakan_game_playout(game, 1, 1, NULL, &plies_a), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(salpakan_game_playout(game, 1, 1, &a, NULL), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK(error_mentions("plies"));

    CHECK_RESULT(salpakan_game_legal_action_mask(game, mask), SALPAKAN_RESULT_OK);
    for (i = 0; i < SALPAKAN_ACTION_MASK_BYTES; i++) bits += popcount8(mask[i]);
    CHECK(bits == 39);
    salpakan_game_legal_moves(game, moves, SALPAKAN_MAX_MOVES, &count);
    for (i = 0; i < count; i++) {
        int direction = moves[i].to == moves[i].from + 9   ? 0
                        : moves[i].to + 9 == moves[i].from ? 1
                        : moves[i].to + 1 == moves[i].from ? 2
                                                           : 3;
        int id = moves[i].from * 4 + direction;
        CHECK((mask[id / 8] >> (id % 8)) & 1);
    }
    /* d4 (square 30) up to d5: action 120, byte 15 bit 0 */
    CHECK(mask[15] & 1);
    CHECK_RESULT(salpakan_game_legal_action_mask(NULL, mask), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(salpakan_game_legal_action_mask(game, NULL), SALPAKAN_RESULT_NULL_ARGUMENT);

    /* A finished game: no actions, and a playout of 0 plies that reports the end. */
    salpakan_game_resign(game, SALPAKAN_BLACK);
    CHECK_RESULT(salpakan_game_legal_action_mask(game, mask), SALPAKAN_RESULT_OK);
    bits = 0;
    for (i = 0; i < SALPAKAN_ACTION_MASK_BYTES; i++) bits += popcount8(mask[i]);
    CHECK(bits == 0);
    plies_a = sentinel;
    CHECK_RESULT(salpakan_game_playout(game, 5, 100, &a, &plies_a), SALPAKAN_RESULT_OK);
    CHECK(plies_a == 0 && a.state == SALPAKAN_STATE_WON && a.winner == SALPAKAN_WHITE &&
          a.reason == SALPAKAN_REASON_RESIGNATION);
    salpakan_game_free(game);
}

static void test_beliefs_and_sample(void) {
    SalpakanGame *game = vector_game(), *a = NULL, *b = NULL;
    static double p[SALPAKAN_SQUARES * 15];
    SalpakanCell va[SALPAKAN_SQUARES], vb[SALPAKAN_SQUARES];
    int square, rank;
    uint8_t h5 = square_of("h5"), h4 = square_of("h4"), e5 = square_of("e5");
    uint8_t d4 = square_of("d4");
    double sum;

    /* At the start every enemy piece is a Private with probability 6/21. */
    CHECK_RESULT(salpakan_game_beliefs(game, SALPAKAN_WHITE, p), SALPAKAN_RESULT_OK);
    CHECK(p[h5 * 15 + SALPAKAN_RANK_PRIVATE] > 6.0 / 21 - 1e-12 &&
          p[h5 * 15 + SALPAKAN_RANK_PRIVATE] < 6.0 / 21 + 1e-12);
    CHECK(p[d4 * 15 + SALPAKAN_RANK_FLAG] == 1.0); /* White's own Flag */
    for (rank = 0; rank < 15; rank++) CHECK(p[e5 * 15 + rank] == 0.0); /* empty */

    /* White's Spy attacks h5 and loses: only a Private beats a Spy. */
    CHECK_RESULT(salpakan_game_play(game, mv("h4-h5"), NULL), SALPAKAN_RESULT_OK);
    CHECK_RESULT(salpakan_game_beliefs(game, SALPAKAN_WHITE, p), SALPAKAN_RESULT_OK);
    CHECK(p[h5 * 15 + SALPAKAN_RANK_PRIVATE] == 1.0);
    for (rank = 0; rank < 15; rank++) CHECK(p[h4 * 15 + rank] == 0.0); /* the Spy is gone */
    for (square = 0; square < SALPAKAN_SQUARES; square++) {
        sum = 0;
        for (rank = 0; rank < 15; rank++) sum += p[square * 15 + rank];
        CHECK(sum == 0.0 || (sum > 1 - 1e-9 && sum < 1 + 1e-9));
    }
    /* Black learns that h4 held something a Private beats: the Spy or the Flag; not the Flag,
       since the game went on. */
    CHECK_RESULT(salpakan_game_beliefs(game, SALPAKAN_BLACK, p), SALPAKAN_RESULT_OK);
    CHECK(p[h5 * 15 + SALPAKAN_RANK_PRIVATE] == 1.0); /* Black's own Private */

    CHECK_RESULT(salpakan_game_sample(game, SALPAKAN_WHITE, 9, &a), SALPAKAN_RESULT_OK);
    CHECK_RESULT(salpakan_game_sample(game, SALPAKAN_WHITE, 9, &b), SALPAKAN_RESULT_OK);
    CHECK(a != NULL && b != NULL && a != b);
    salpakan_game_view(a, SALPAKAN_BLACK, va);
    salpakan_game_view(b, SALPAKAN_BLACK, vb);
    CHECK(memcmp(va, vb, sizeof va) == 0); /* same seed, same sample (even Black's ranks) */
    salpakan_game_view(a, SALPAKAN_WHITE, va);
    salpakan_game_view(game, SALPAKAN_WHITE, vb);
    CHECK(memcmp(va, vb, sizeof va) == 0); /* White cannot tell the sample from the game */
    salpakan_game_view(a, SALPAKAN_BLACK, va);
    CHECK(va[h5].rank == SALPAKAN_RANK_PRIVATE); /* what White knows holds in the sample */

    CHECK_RESULT(salpakan_game_beliefs(NULL, 0, p), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(salpakan_game_beliefs(game, 0, NULL), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(salpakan_game_beliefs(game, 2, p), SALPAKAN_RESULT_INVALID_ARGUMENT);
    CHECK_RESULT(salpakan_game_sample(NULL, 0, 1, &a), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(salpakan_game_sample(game, 0, 1, NULL), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(salpakan_game_sample(game, 7, 1, &a), SALPAKAN_RESULT_INVALID_ARGUMENT);
    CHECK(error_mentions("side"));
    salpakan_game_free(b);
    salpakan_game_free(a);
    salpakan_game_free(game);
}

static void test_observation(void) {
    SalpakanGame *game = vector_game(), *from_text = NULL;
    static float obs[SALPAKAN_OBSERVATION_LEN + 4];
    static char text[512];
    size_t len = 0, i, plane, cell;
    float sum;

    /* Size query, too small, then the tensor. */
    CHECK_RESULT(salpakan_game_observation(game, SALPAKAN_WHITE, NULL, 0, &len),
                 SALPAKAN_RESULT_BUFFER_TOO_SMALL);
    CHECK(len == SALPAKAN_OBSERVATION_LEN && len == SALPAKAN_OBSERVATION_PLANES * 72);
    for (i = 0; i < SALPAKAN_OBSERVATION_LEN + 4; i++) obs[i] = -7.0f;
    CHECK_RESULT(salpakan_game_observation(game, SALPAKAN_WHITE, obs, len - 1, &len),
                 SALPAKAN_RESULT_BUFFER_TOO_SMALL);
    CHECK(obs[0] == -7.0f); /* nothing written */
    len = 0;
    CHECK_RESULT(salpakan_game_observation(game, SALPAKAN_WHITE, obs,
                                           SALPAKAN_OBSERVATION_LEN + 4, &len),
                 SALPAKAN_RESULT_OK);
    CHECK(len == SALPAKAN_OBSERVATION_LEN);
    CHECK(obs[SALPAKAN_OBSERVATION_LEN] == -7.0f); /* no float past the tensor */
    /* 21 own pieces on the 15 own-rank planes, 21 enemy pieces on the enemy plane. */
    sum = 0;
    for (i = 0; i < 15 * 72; i++) sum += obs[i];
    CHECK(sum == 21.0f);
    sum = 0;
    for (i = 15 * 72; i < 16 * 72; i++) sum += obs[i];
    CHECK(sum == 21.0f);
    /* The belief planes sum to 1 on each enemy piece. */
    for (cell = 0; cell < 72; cell++) {
        sum = 0;
        for (plane = 16; plane < 31; plane++) sum += obs[plane * 72 + cell];
        CHECK(obs[15 * 72 + cell] == 1.0f ? (sum > 0.999f && sum < 1.001f) : sum == 0.0f);
    }
    /* Errors: NULL, a bad side, and a game with no history to observe. */
    CHECK_RESULT(salpakan_game_observation(NULL, 0, obs, SALPAKAN_OBSERVATION_LEN, &len),
                 SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(salpakan_game_observation(game, 0, obs, SALPAKAN_OBSERVATION_LEN, NULL),
                 SALPAKAN_RESULT_NULL_ARGUMENT);
    len = 99;
    CHECK_RESULT(salpakan_game_observation(game, 0, NULL, SALPAKAN_OBSERVATION_LEN, &len),
                 SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK(len == 99);
    CHECK_RESULT(salpakan_game_observation(game, 2, obs, SALPAKAN_OBSERVATION_LEN, &len),
                 SALPAKAN_RESULT_INVALID_ARGUMENT);
    CHECK_RESULT(salpakan_game_to_text(game, text, sizeof text, &len), SALPAKAN_RESULT_OK);
    CHECK_RESULT(salpakan_game_from_text(text, &from_text), SALPAKAN_RESULT_OK);
    obs[0] = -7.0f;
    CHECK_RESULT(salpakan_game_observation(from_text, 0, obs, SALPAKAN_OBSERVATION_LEN, &len),
                 SALPAKAN_RESULT_INVALID_ARGUMENT);
    CHECK(obs[0] == -7.0f);
    salpakan_game_free(from_text);
    salpakan_game_free(game);
}

/* Plays a whole game between two agents through the C ABI; returns the plies played. */
static uint32_t agent_game(uint8_t white_kind, uint8_t black_kind, uint64_t seed,
                           SalpakanStatus *status) {
    uint8_t white[SALPAKAN_SQUARES], black[SALPAKAN_SQUARES];
    SalpakanGame *game = NULL;
    SalpakanAgent *agents[2] = {NULL, NULL};
    SalpakanReport report;
    SalpakanMove move;
    uint8_t side = 0;
    uint32_t plies = 0;

    CHECK_RESULT(salpakan_random_setup(SALPAKAN_WHITE, 3, seed, white), SALPAKAN_RESULT_OK);
    CHECK_RESULT(salpakan_random_setup(SALPAKAN_BLACK, 3, seed + 1, black), SALPAKAN_RESULT_OK);
    CHECK_RESULT(salpakan_game_new(white, black, SALPAKAN_WHITE, &game), SALPAKAN_RESULT_OK);
    CHECK_RESULT(salpakan_agent_new(white_kind, seed, 200, &agents[0]), SALPAKAN_RESULT_OK);
    CHECK_RESULT(salpakan_agent_new(black_kind, seed, 200, &agents[1]), SALPAKAN_RESULT_OK);
    salpakan_game_status(game, status);
    while (status->state == SALPAKAN_STATE_ONGOING && plies < 600) {
        salpakan_game_side_to_move(game, &side);
        if (salpakan_agent_choose(agents[side], game, side, &move) != SALPAKAN_RESULT_OK) {
            CHECK(0);
            break;
        }
        CHECK_RESULT(salpakan_game_play(game, move, &report), SALPAKAN_RESULT_OK);
        salpakan_game_status(game, status);
        plies++;
    }
    salpakan_agent_free(agents[0]);
    salpakan_agent_free(agents[1]);
    salpakan_game_free(game);
    return plies;
}

static void test_agents(void) {
    SalpakanGame *game = vector_game(), *from_text = NULL;
    SalpakanAgent *agent = NULL, *twin = NULL, *sentinel = (SalpakanAgent *)&failed;
    SalpakanMove a = {99, 99}, b = {98, 98};
    SalpakanStatus status;
    SalpakanReport report;
    uint8_t side = 0, kind;
    static char text[512];
    size_t len = 0;
    uint32_t plies;
    int greedy_wins = 0, i;

    CHECK(SALPAKAN_AGENT_RANDOM == 0 && SALPAKAN_AGENT_GREEDY == 1 && SALPAKAN_AGENT_ISMCTS == 2);
    /* Every kind chooses a legal move for the side to move; the same seed, the same move. */
    for (kind = 0; kind <= SALPAKAN_AGENT_ISMCTS; kind++) {
        CHECK_RESULT(salpakan_agent_new(kind, 7, 100, &agent), SALPAKAN_RESULT_OK);
        CHECK_RESULT(salpakan_agent_new(kind, 7, 100, &twin), SALPAKAN_RESULT_OK);
        salpakan_game_side_to_move(game, &side);
        CHECK_RESULT(salpakan_agent_choose(agent, game, side, &a), SALPAKAN_RESULT_OK);
        CHECK_RESULT(salpakan_agent_choose(twin, game, side, &b), SALPAKAN_RESULT_OK);
        CHECK(a.from == b.from && a.to == b.to);
        /* Not this side's turn: an error, and nothing written. */
        b.from = 99;
        CHECK_RESULT(salpakan_agent_choose(agent, game, (uint8_t)(1 - side), &b),
                     SALPAKAN_RESULT_INVALID_ARGUMENT);
        CHECK(error_mentions("turn"));
        CHECK(b.from == 99);
        {
            SalpakanGame *copy = salpakan_game_clone(game);
            CHECK_RESULT(salpakan_game_play(copy, a, &report), SALPAKAN_RESULT_OK);
            salpakan_game_free(copy);
        }
        salpakan_agent_free(twin);
        salpakan_agent_free(agent);
        agent = twin = NULL;
    }
    /* Every level of the ladder: a legal move, the same for the same seed. */
    CHECK(SALPAKAN_AGENT_LEVELS == 8);
    for (kind = 1; kind <= SALPAKAN_AGENT_LEVELS; kind++) {
        SalpakanGame *copy;
        CHECK_RESULT(salpakan_agent_new_level(kind, 9, &agent), SALPAKAN_RESULT_OK);
        CHECK_RESULT(salpakan_agent_new_level(kind, 9, &twin), SALPAKAN_RESULT_OK);
        salpakan_game_side_to_move(game, &side);
        CHECK_RESULT(salpakan_agent_choose(agent, game, side, &a), SALPAKAN_RESULT_OK);
        CHECK_RESULT(salpakan_agent_choose(twin, game, side, &b), SALPAKAN_RESULT_OK);
        CHECK(a.from == b.from && a.to == b.to);
        copy = salpakan_game_clone(game);
        CHECK_RESULT(salpakan_game_play(copy, a, &report), SALPAKAN_RESULT_OK);
        salpakan_game_free(copy);
        salpakan_agent_free(twin);
        salpakan_agent_free(agent);
        agent = twin = NULL;
    }
    agent = sentinel;
    CHECK_RESULT(salpakan_agent_new_level(0, 1, &agent), SALPAKAN_RESULT_INVALID_ARGUMENT);
    CHECK(error_mentions("level"));
    CHECK(agent == sentinel);
    CHECK_RESULT(salpakan_agent_new_level(SALPAKAN_AGENT_LEVELS + 1, 1, &agent),
                 SALPAKAN_RESULT_INVALID_ARGUMENT);
    CHECK(agent == sentinel);
    CHECK_RESULT(salpakan_agent_new_level(1, 1, NULL), SALPAKAN_RESULT_NULL_ARGUMENT);
    /* Bad arguments. */
    CHECK_RESULT(salpakan_agent_new(3, 1, 0, &agent), SALPAKAN_RESULT_INVALID_ARGUMENT);
    CHECK(error_mentions("kind"));
    CHECK(agent == sentinel);
    CHECK_RESULT(salpakan_agent_new(0, 1, 0, NULL), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(salpakan_agent_new(SALPAKAN_AGENT_GREEDY, 1, 0, &agent), SALPAKAN_RESULT_OK);
    CHECK_RESULT(salpakan_agent_choose(NULL, game, side, &a), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(salpakan_agent_choose(agent, NULL, side, &a), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(salpakan_agent_choose(agent, game, side, NULL), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(salpakan_agent_choose(agent, game, 2, &a), SALPAKAN_RESULT_INVALID_ARGUMENT);
    /* A game from a position text has no history to follow. */
    CHECK_RESULT(salpakan_game_to_text(game, text, sizeof text, &len), SALPAKAN_RESULT_OK);
    CHECK_RESULT(salpakan_game_from_text(text, &from_text), SALPAKAN_RESULT_OK);
    CHECK_RESULT(salpakan_agent_choose(agent, from_text, side, &a),
                 SALPAKAN_RESULT_INVALID_ARGUMENT);
    salpakan_game_free(from_text);
    /* A finished game. */
    CHECK_RESULT(salpakan_game_resign(game, side), SALPAKAN_RESULT_OK);
    CHECK_RESULT(salpakan_agent_choose(agent, game, side, &a), SALPAKAN_RESULT_GAME_OVER);
    salpakan_agent_free(agent);
    salpakan_agent_free(NULL);
    salpakan_game_free(game);

    /* Whole games: Greedy against Random, sides alternated. */
    for (i = 0; i < 6; i++) {
        int greedy_white = i % 2 == 0;
        plies = agent_game(greedy_white ? SALPAKAN_AGENT_GREEDY : SALPAKAN_AGENT_RANDOM,
                           greedy_white ? SALPAKAN_AGENT_RANDOM : SALPAKAN_AGENT_GREEDY,
                           (uint64_t)(40 + i), &status);
        CHECK(plies > 0);
        if (status.state == SALPAKAN_STATE_WON &&
            status.winner == (greedy_white ? SALPAKAN_WHITE : SALPAKAN_BLACK))
            greedy_wins++;
    }
    CHECK(greedy_wins >= 5);
    plies = agent_game(SALPAKAN_AGENT_ISMCTS, SALPAKAN_AGENT_RANDOM, 9, &status);
    CHECK(plies > 0 && status.state != SALPAKAN_STATE_ONGOING);
}

static void test_text(void) {
    SalpakanGame *game = vector_game(), *back = NULL, *sentinel = (SalpakanGame *)&failed;
    static char buf[8192], again[8192];
    size_t len = 0, len2 = 0;
    uint64_t a = 0, b = 0;

    salpakan_game_play(game, mv("h4-h5"), NULL);
    salpakan_game_play(game, mv("f5-f4"), NULL);

    /* Position text: size query, too small, exact fit, round trip. */
    CHECK_RESULT(salpakan_game_to_text(game, NULL, 0, &len), SALPAKAN_RESULT_BUFFER_TOO_SMALL);
    CHECK(len > 100 && len < 200);
    memset(buf, 'Z', sizeof buf);
    CHECK_RESULT(salpakan_game_to_text(game, buf, len, &len2), SALPAKAN_RESULT_BUFFER_TOO_SMALL);
    CHECK(len2 == len && buf[0] == 'Z'); /* nothing written */
    CHECK(error_mentions("capacity"));
    CHECK_RESULT(salpakan_game_to_text(game, buf, len + 1, &len2), SALPAKAN_RESULT_OK);
    CHECK(len2 == len && strlen(buf) == len && buf[len] == '\0');
    CHECK(strstr(buf, " w - 0 2 4 0 -") != NULL);
    CHECK_RESULT(salpakan_game_from_text(buf, &back), SALPAKAN_RESULT_OK);
    salpakan_game_perft(game, 3, &a);
    salpakan_game_perft(back, 3, &b);
    CHECK(a == b);
    CHECK_RESULT(salpakan_game_to_text(back, again, sizeof again, &len2), SALPAKAN_RESULT_OK);
    CHECK(strcmp(buf, again) == 0);
    salpakan_game_free(back);
    back = sentinel;
    CHECK_RESULT(salpakan_game_from_text("not a position", &back), SALPAKAN_RESULT_PARSE);
    CHECK(error_mentions("line 1, column 1: expected"));
    CHECK(back == sentinel);
    CHECK_RESULT(salpakan_game_from_text("\xff\xfe", &back), SALPAKAN_RESULT_PARSE);
    CHECK(error_mentions("UTF-8"));
    CHECK_RESULT(salpakan_game_from_text(NULL, &back), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(salpakan_game_from_text(buf, NULL), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(salpakan_game_to_text(game, buf, sizeof buf, NULL), SALPAKAN_RESULT_NULL_ARGUMENT);
    len = 777;
    CHECK_RESULT(salpakan_game_to_text(game, NULL, 500, &len), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK(len == 777); /* nothing written on NULL_ARGUMENT */
    CHECK_RESULT(salpakan_game_view_text(game, SALPAKAN_WHITE, NULL, 500, &len),
                 SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK(len == 777);
    CHECK_RESULT(salpakan_game_record(game, NULL, 100000, &len), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK(len == 777);
    /* result_name and version leave the last error as it was. */
    CHECK(error_mentions("buf"));
    CHECK(strcmp(salpakan_result_name(SALPAKAN_RESULT_NULL_ARGUMENT),
                 "SALPAKAN_RESULT_NULL_ARGUMENT") == 0);
    CHECK(error_mentions("buf"));
    CHECK(salpakan_version() != NULL);
    CHECK(error_mentions("buf"));
    CHECK(salpakan_last_error() == salpakan_last_error());
    CHECK(error_mentions("buf"));
    CHECK_RESULT(salpakan_game_to_text(NULL, buf, sizeof buf, &len), SALPAKAN_RESULT_NULL_ARGUMENT);

    /* View text: White's ranks shown, Black's hidden. */
    CHECK_RESULT(salpakan_game_view_text(game, SALPAKAN_WHITE, buf, sizeof buf, &len),
                 SALPAKAN_RESULT_OK);
    CHECK(strstr(buf, "xx") != NULL && strstr(buf, "pv") == NULL && strstr(buf, "FL") != NULL);
    CHECK_RESULT(salpakan_game_view_text(game, 2, buf, sizeof buf, &len),
                 SALPAKAN_RESULT_INVALID_ARGUMENT);
    CHECK_RESULT(salpakan_game_from_text(buf, &back), SALPAKAN_RESULT_PARSE); /* not full */

    /* Record: round trip, history included. */
    CHECK_RESULT(salpakan_game_record(game, NULL, 0, &len), SALPAKAN_RESULT_BUFFER_TOO_SMALL);
    CHECK_RESULT(salpakan_game_record(game, buf, len + 1, &len2), SALPAKAN_RESULT_OK);
    CHECK(strstr(buf, "1. h4xh5 lose\n2. f5xf4 win\n") != NULL);
    CHECK(strstr(buf, "[Result \"-\"]") != NULL);
    CHECK_RESULT(salpakan_game_from_record(buf, &back), SALPAKAN_RESULT_OK);
    CHECK_RESULT(salpakan_game_record(back, again, sizeof again, &len2), SALPAKAN_RESULT_OK);
    CHECK(strcmp(buf, again) == 0);
    salpakan_game_free(back);
    back = sentinel;
    {
        char *lose = strstr(buf, "2. f5xf4 win");
        if (lose != NULL) memcpy(lose + 9, "tie", 3);
    }
    CHECK_RESULT(salpakan_game_from_record(buf, &back), SALPAKAN_RESULT_PARSE);
    CHECK(error_mentions("move 2 (f5xf4): win"));
    CHECK(back == sentinel);
    CHECK_RESULT(salpakan_game_from_record(NULL, &back), SALPAKAN_RESULT_NULL_ARGUMENT);
    CHECK_RESULT(salpakan_game_record(NULL, buf, sizeof buf, &len), SALPAKAN_RESULT_NULL_ARGUMENT);
    salpakan_game_free(game);
}

/* An arbiter's commitments: committed before the first move, opened at the end, checked by
   anyone from the record; a forged salt is named. */
static void test_commitments(void) {
    SalpakanGame *game = vector_game(), *back = NULL;
    static char buf[8192];
    size_t len = 0;
    uint8_t salts[2][SALPAKAN_SALT_BYTES], published[2][SALPAKAN_COMMITMENT_BYTES];
    char *salt_tag;
    int side, i;

    for (side = 0; side < 2; side++)
        for (i = 0; i < SALPAKAN_SALT_BYTES; i++) salts[side][i] = (uint8_t)(16 * side + i);
    /* A game with no commitment does not verify. */
    CHECK_RESULT(salpakan_game_verify_commitments(game), SALPAKAN_RESULT_NOT_VERIFIED);
    CHECK(error_mentions("WhiteCommitment"));
    for (side = 0; side < 2; side++) {
        memset(published[side], 0, SALPAKAN_COMMITMENT_BYTES);
        CHECK_RESULT(salpakan_game_commit(game, (uint8_t)side, salts[side], published[side]),
                     SALPAKAN_RESULT_OK);
    }
    CHECK(memcmp(published[0], published[1], SALPAKAN_COMMITMENT_BYTES) != 0);
    CHECK_RESULT(salpakan_game_commit(game, 2, salts[0], NULL), SALPAKAN_RESULT_INVALID_ARGUMENT);
    CHECK_RESULT(salpakan_game_commit(game, SALPAKAN_WHITE, NULL, NULL),
                 SALPAKAN_RESULT_NULL_ARGUMENT);
    /* Committed, not yet opened: the salts are missing. */
    CHECK_RESULT(salpakan_game_verify_commitments(game), SALPAKAN_RESULT_NOT_VERIFIED);
    CHECK(error_mentions("WhiteSalt"));
    salpakan_game_resign(game, SALPAKAN_BLACK);
    for (side = 0; side < 2; side++)
        CHECK_RESULT(salpakan_game_open_commitment(game, (uint8_t)side, salts[side]),
                     SALPAKAN_RESULT_OK);
    CHECK_RESULT(salpakan_game_verify_commitments(game), SALPAKAN_RESULT_OK);
    CHECK_RESULT(salpakan_game_record(game, buf, sizeof buf, &len), SALPAKAN_RESULT_OK);
    CHECK_RESULT(salpakan_game_from_record(buf, &back), SALPAKAN_RESULT_OK);
    CHECK_RESULT(salpakan_game_verify_commitments(back), SALPAKAN_RESULT_OK);
    salpakan_game_free(back);
    /* One digit of Black's salt changed: Black's commitment fails. */
    salt_tag = strstr(buf, "[BlackSalt \"10");
    CHECK(salt_tag != NULL);
    if (salt_tag != NULL) salt_tag[12] = '0';
    CHECK_RESULT(salpakan_game_from_record(buf, &back), SALPAKAN_RESULT_OK);
    CHECK_RESULT(salpakan_game_verify_commitments(back), SALPAKAN_RESULT_NOT_VERIFIED);
    CHECK(error_mentions("Black"));
    CHECK_RESULT(salpakan_game_verify_commitments(NULL), SALPAKAN_RESULT_NULL_ARGUMENT);
    salpakan_game_free(back);
    salpakan_game_free(game);
}

int main(void) {
    test_version_and_names();
    test_challenge();
    test_random_setup();
    test_new_game_errors();
    test_vector_game();
    test_legal_moves_buffers();
    test_illegal_moves();
    test_resign_draw_and_limit();
    test_view();
    test_clone_free_and_nulls();
    test_playout_and_action_mask();
    test_beliefs_and_sample();
    test_observation();
    test_agents();
    test_text();
    test_commitments();
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
