// salpakan.hpp: a thin C++17 RAII wrapper over the C ABI in salpakan.h (hand-written).
//
// Errors are exceptions: every failing call throws salpakan::Error, which carries the
// SalpakanResult code and the library's message (salpakan_last_error). A Game owns its handle,
// is move-only (copy it explicitly with clone()), and frees the handle when destroyed. A
// moved-from Game holds no handle; using it throws Error with SALPAKAN_RESULT_NULL_ARGUMENT.
// Everything here is inline, so the header may be included in any number of translation units.
#ifndef SALPAKAN_HPP
#define SALPAKAN_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "salpakan.h"

namespace salpakan {

/// A failed call: the result code and the library's message.
class Error : public std::runtime_error {
public:
    Error(SalpakanResult code, const std::string &message)
        : std::runtime_error(message), code_(code) {}
    /// The SALPAKAN_RESULT_* code.
    SalpakanResult code() const noexcept { return code_; }

private:
    SalpakanResult code_;
};

namespace detail {
inline void check(SalpakanResult result) {
    if (result != SALPAKAN_RESULT_OK) {
        const char *message = salpakan_last_error();
        throw Error(result, std::string(salpakan_result_name(result)) + ": " +
                                (message != nullptr ? message : "no message"));
    }
}
}  // namespace detail

/// 72 cells indexed by square: a rank value or SALPAKAN_NO_PIECE.
using Setup = std::array<std::uint8_t, SALPAKAN_SQUARES>;
/// A board as one side sees it, 72 cells indexed by square.
using View = std::array<SalpakanCell, SALPAKAN_SQUARES>;

/// The legal moves of a position, in a fixed array (no heap).
struct MoveList {
    std::array<SalpakanMove, SALPAKAN_MAX_MOVES> moves{};
    std::size_t count = 0;

    const SalpakanMove *begin() const noexcept { return moves.data(); }
    const SalpakanMove *end() const noexcept { return moves.data() + count; }
    std::size_t size() const noexcept { return count; }
    bool empty() const noexcept { return count == 0; }
    const SalpakanMove &operator[](std::size_t i) const { return moves.at(i); }
};

/// The official rules: 3-row setup zone, no move limit.
inline SalpakanRules official_rules() noexcept {
    SalpakanRules rules{};
    rules.setup_rows = 3;
    rules.move_limit = 0;
    return rules;
}

/// The library version, "MAJOR.MINOR.PATCH".
inline std::string version() { return salpakan_version(); }

/// A uniformly random valid setup for `side`; the same arguments give the same setup.
inline Setup random_setup(std::uint8_t side, std::uint8_t setup_rows, std::uint64_t seed) {
    Setup cells{};
    detail::check(salpakan_random_setup(side, setup_rows, seed, cells.data()));
    return cells;
}

/// The arbiter's outcome (SALPAKAN_OUTCOME_*) of `attacker` challenging `defender`.
inline std::uint8_t challenge(std::uint8_t attacker, std::uint8_t defender) {
    std::uint8_t outcome = 0;
    detail::check(salpakan_challenge(attacker, defender, &outcome));
    return outcome;
}

/// A game, as the arbiter holds it. Owns its handle; move-only.
class Game {
public:
    Game(const Setup &white, const Setup &black, std::uint8_t first = SALPAKAN_WHITE,
         const SalpakanRules &rules = official_rules()) {
        detail::check(
            salpakan_game_new_with_rules(white.data(), black.data(), first, &rules, &handle_));
    }
    Game(const Game &) = delete;
    Game &operator=(const Game &) = delete;
    Game(Game &&other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
    Game &operator=(Game &&other) noexcept {
        if (this != &other) {
            salpakan_game_free(handle_);
            handle_ = std::exchange(other.handle_, nullptr);
        }
        return *this;
    }
    ~Game() { salpakan_game_free(handle_); }

    /// An independent copy of the game.
    Game clone() const {
        SalpakanGame *copy = salpakan_game_clone(handle_);
        if (copy == nullptr) detail::check(SALPAKAN_RESULT_NULL_ARGUMENT);
        return Game(copy);
    }

    std::uint8_t side_to_move() const {
        std::uint8_t side = 0;
        detail::check(salpakan_game_side_to_move(handle_, &side));
        return side;
    }

    MoveList legal_moves() const {
        MoveList list;
        detail::check(salpakan_game_legal_moves(handle_, list.moves.data(), list.moves.size(),
                                                &list.count));
        return list;
    }

    /// Plays a move; throws Error (SALPAKAN_RESULT_ILLEGAL_MOVE, _GAME_OVER, ...) if refused.
    SalpakanReport play(SalpakanMove move) {
        SalpakanReport report{};
        detail::check(salpakan_game_play(handle_, move, &report));
        return report;
    }

    SalpakanStatus status() const {
        SalpakanStatus status{};
        detail::check(salpakan_game_status(handle_, &status));
        return status;
    }

    void resign(std::uint8_t side) { detail::check(salpakan_game_resign(handle_, side)); }
    void agree_draw() { detail::check(salpakan_game_agree_draw(handle_)); }

    View view(std::uint8_t side) const {
        View cells{};
        detail::check(salpakan_game_view(handle_, side, cells.data()));
        return cells;
    }

    std::uint64_t perft(std::uint32_t depth) const {
        std::uint64_t nodes = 0;
        detail::check(salpakan_game_perft(handle_, depth, &nodes));
        return nodes;
    }

    /// The C handle, for functions this wrapper does not cover (still owned by this Game).
    SalpakanGame *handle() noexcept { return handle_; }
    const SalpakanGame *handle() const noexcept { return handle_; }

private:
    explicit Game(SalpakanGame *handle) noexcept : handle_(handle) {}
    SalpakanGame *handle_ = nullptr;
};

}  // namespace salpakan

#endif  // SALPAKAN_HPP
