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
#include <vector>

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
/// The C ABI reads NUL-terminated text: a string with a NUL byte inside would be cut short
/// there, silently. Such a string is refused instead.
inline const char *c_text(const std::string &text, const char *what) {
    const std::size_t nul = text.find('\0');
    if (nul != std::string::npos) {
        throw Error(SALPAKAN_RESULT_INVALID_ARGUMENT,
                    std::string("SALPAKAN_RESULT_INVALID_ARGUMENT: ") + what +
                        " contains a NUL byte at offset " + std::to_string(nul) +
                        "; the text would end there");
    }
    return text.c_str();
}

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

/// One side's beliefs: probabilities[square * 15 + rank].
using Beliefs = std::array<double, SALPAKAN_SQUARES * 15>;
/// A legal-action mask: bit id % 8 of byte id / 8 for action id = square * 4 + direction.
using ActionMask = std::array<std::uint8_t, SALPAKAN_ACTION_MASK_BYTES>;

namespace detail {
/// Calls a text function of the C ABI twice: once for the size, once to fill the string.
template <typename F>
std::string text(F &&f) {
    std::size_t len = 0;
    const SalpakanResult probe = f(nullptr, 0, &len);
    if (probe != SALPAKAN_RESULT_BUFFER_TOO_SMALL) check(probe);
    std::string out(len + 1, '\0');
    check(f(out.data(), out.size(), &len));
    out.resize(len);
    return out;
}
}  // namespace detail

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
    void lose_on_time(std::uint8_t side) { detail::check(salpakan_game_lose_on_time(handle_, side)); }
    void abandon(std::uint8_t side) { detail::check(salpakan_game_abandon(handle_, side)); }
    void abandon_by_both() { detail::check(salpakan_game_abandon_by_both(handle_)); }
    void agree_draw() { detail::check(salpakan_game_agree_draw(handle_)); }

    View view(std::uint8_t side) const {
        View cells{};
        detail::check(salpakan_game_view(handle_, side, cells.data()));
        return cells;
    }

    /// The board as a spectator sees it: every piece's side, no rank.
    View public_view() const {
        View cells{};
        detail::check(salpakan_game_public_view(handle_, cells.data()));
        return cells;
    }

    std::uint64_t perft(std::uint32_t depth) const {
        std::uint64_t nodes = 0;
        detail::check(salpakan_game_perft(handle_, depth, &nodes));
        return nodes;
    }

    /// A game from a position text (no setups or history: no beliefs or samples).
    static Game from_text(const std::string &text) {
        SalpakanGame *handle = nullptr;
        detail::check(salpakan_game_from_text(detail::c_text(text, "the position text"), &handle));
        return Game(handle);
    }

    /// A game replayed from a record, history included.
    static Game from_record(const std::string &record) {
        SalpakanGame *handle = nullptr;
        detail::check(salpakan_game_from_record(detail::c_text(record, "the record"), &handle));
        return Game(handle);
    }

    /// The position text.
    std::string to_text() const {
        return detail::text([this](char *buf, std::size_t cap, std::size_t *len) {
            return salpakan_game_to_text(handle_, buf, cap, len);
        });
    }

    /// The position text as `side` sees it.
    std::string view_text(std::uint8_t side) const {
        return detail::text([this, side](char *buf, std::size_t cap, std::size_t *len) {
            return salpakan_game_view_text(handle_, side, buf, cap, len);
        });
    }

    /// The position text as a spectator sees it (every piece hidden).
    std::string public_view_text() const {
        return detail::text([this](char *buf, std::size_t cap, std::size_t *len) {
            return salpakan_game_public_view_text(handle_, buf, cap, len);
        });
    }

    /// The game record.
    std::string record() const {
        return detail::text([this](char *buf, std::size_t cap, std::size_t *len) {
            return salpakan_game_record(handle_, buf, cap, len);
        });
    }

    /// A formation commitment's salt: 16 secret bytes from the operating system's generator.
    using Salt = std::array<std::uint8_t, SALPAKAN_SALT_BYTES>;
    /// A formation commitment: a SHA-256 digest.
    using Commitment = std::array<std::uint8_t, SALPAKAN_COMMITMENT_BYTES>;

    /// Commits `side` to its formation with `salt` before the first move (recorded in the
    /// game); returns the commitment to publish.
    Commitment commit(std::uint8_t side, const Salt &salt) {
        Commitment out{};
        detail::check(salpakan_game_commit(handle_, side, salt.data(), out.data()));
        return out;
    }

    /// Opens `side`'s commitment at the end: its salt goes into the record.
    void open_commitment(std::uint8_t side, const Salt &salt) {
        detail::check(salpakan_game_open_commitment(handle_, side, salt.data()));
    }

    /// Checks the record's commitments against its formations and salts; throws
    /// `salpakan::Error` (`SALPAKAN_RESULT_NOT_VERIFIED`) naming what fails.
    void verify_commitments() const {
        detail::check(salpakan_game_verify_commitments(handle_));
    }

    /// `side`'s exact beliefs about every square.
    Beliefs beliefs(std::uint8_t side) const {
        Beliefs p{};
        detail::check(salpakan_game_beliefs(handle_, side, p.data()));
        return p;
    }

    /// `side`'s observation tensor: SALPAKAN_OBSERVATION_LEN floats, planes of 8 × 9,
    /// the viewer playing "up" (see the header and the README for the planes).
    std::vector<float> observation(std::uint8_t side) const {
        std::vector<float> out(SALPAKAN_OBSERVATION_LEN);
        std::size_t len = 0;
        detail::check(salpakan_game_observation(handle_, side, out.data(), out.size(), &len));
        out.resize(len);
        return out;
    }

    /// A game `side` cannot tell from this one, enemy ranks drawn from its beliefs.
    Game sample(std::uint8_t side, std::uint64_t seed) const {
        SalpakanGame *handle = nullptr;
        detail::check(salpakan_game_sample(handle_, side, seed, &handle));
        return Game(handle);
    }

    /// A random playout on a copy: the final status and the plies played.
    std::pair<SalpakanStatus, std::uint32_t> playout(std::uint64_t seed,
                                                     std::uint32_t max_plies) const {
        SalpakanStatus status{};
        std::uint32_t plies = 0;
        detail::check(salpakan_game_playout(handle_, seed, max_plies, &status, &plies));
        return {status, plies};
    }

    /// The legal moves as action ids.
    ActionMask legal_action_mask() const {
        ActionMask mask{};
        detail::check(salpakan_game_legal_action_mask(handle_, mask.data()));
        return mask;
    }

    /// The C handle, for functions this wrapper does not cover (still owned by this Game).
    SalpakanGame *handle() noexcept { return handle_; }
    const SalpakanGame *handle() const noexcept { return handle_; }

private:
    explicit Game(SalpakanGame *handle) noexcept : handle_(handle) {}
    SalpakanGame *handle_ = nullptr;
};

/// A player: it chooses a move from one side's information only. Owns its handle; move-only.
class Agent {
public:
    /// A player of `kind` (SALPAKAN_AGENT_RANDOM, _GREEDY or _ISMCTS), seeded; `budget` is
    /// the search's iterations a move for ISMCTS (0 for its default).
    explicit Agent(std::uint8_t kind, std::uint64_t seed = 0, std::uint32_t budget = 0) {
        detail::check(salpakan_agent_new(kind, seed, budget, &handle_));
    }
    Agent(const Agent &) = delete;
    Agent &operator=(const Agent &) = delete;
    Agent(Agent &&other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
    Agent &operator=(Agent &&other) noexcept {
        if (this != &other) {
            salpakan_agent_free(handle_);
            handle_ = std::exchange(other.handle_, nullptr);
        }
        return *this;
    }
    ~Agent() { salpakan_agent_free(handle_); }

    /// The move this player chooses for `side` (which must be to move) in `game`, seeing only
    /// what `side` may know. The game is unchanged: play the move yourself.
    SalpakanMove choose(const Game &game, std::uint8_t side) {
        SalpakanMove move{};
        detail::check(salpakan_agent_choose(handle_, game.handle(), side, &move));
        return move;
    }

    /// The move this player chooses from one side's knowledge alone (a seat's program).
    SalpakanMove choose(const class Tracker &tracker);

    /// The C handle (still owned by this Agent).
    SalpakanAgent *handle() noexcept { return handle_; }

private:
    SalpakanAgent *handle_ = nullptr;
};

/// One side's knowledge, for a program that plays one side of a game arbitrated elsewhere:
/// its own formation, the enemy's squares at the start and the announced reports; never an
/// enemy rank. Owns its handle; move-only.
class Tracker {
public:
    /// `side`'s knowledge at the start: its formation, the enemy's squares (72 flags, 1 where
    /// an enemy piece stands), who moves first and the rules.
    Tracker(const Setup &own, std::uint8_t side, const std::array<std::uint8_t, 72> &enemy,
            std::uint8_t first, SalpakanRules rules = official_rules()) {
        detail::check(
            salpakan_tracker_new(own.data(), side, enemy.data(), first, &rules, &handle_));
    }
    Tracker(const Tracker &) = delete;
    Tracker &operator=(const Tracker &) = delete;
    Tracker(Tracker &&other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
    Tracker &operator=(Tracker &&other) noexcept {
        if (this != &other) {
            salpakan_tracker_free(handle_);
            handle_ = std::exchange(other.handle_, nullptr);
        }
        return *this;
    }
    ~Tracker() { salpakan_tracker_free(handle_); }

    /// Takes in one ply of either side, as announced; an impossible report throws and
    /// changes nothing.
    void observe(SalpakanMove move, const SalpakanReport &report) {
        detail::check(salpakan_tracker_observe(handle_, move, &report));
    }

    /// The side to move.
    std::uint8_t side_to_move() const {
        std::uint8_t side = 0;
        detail::check(salpakan_tracker_side_to_move(handle_, &side));
        return side;
    }

    /// The status as announced.
    SalpakanStatus status() const {
        SalpakanStatus status{};
        detail::check(salpakan_tracker_status(handle_, &status));
        return status;
    }

    /// This side's legal moves on its turn (none otherwise).
    std::vector<SalpakanMove> legal_moves() const {
        std::vector<SalpakanMove> moves(SALPAKAN_MAX_MOVES);
        std::size_t count = 0;
        detail::check(salpakan_tracker_legal_moves(handle_, moves.data(), moves.size(), &count));
        moves.resize(count);
        return moves;
    }

    /// This side's exact beliefs, as Game::beliefs lays them out.
    Beliefs beliefs() const {
        Beliefs p{};
        detail::check(salpakan_tracker_beliefs(handle_, p.data()));
        return p;
    }

    /// The C handle (still owned by this Tracker).
    const SalpakanTracker *handle() const noexcept { return handle_; }

private:
    SalpakanTracker *handle_ = nullptr;
};

inline SalpakanMove Agent::choose(const Tracker &tracker) {
    SalpakanMove move{};
    detail::check(salpakan_agent_choose_tracked(handle_, tracker.handle(), &move));
    return move;
}

}  // namespace salpakan

#endif  // SALPAKAN_HPP
