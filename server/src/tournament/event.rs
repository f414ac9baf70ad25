//! One tournament as a value: its settings, entrants, rounds, games and public log, and every
//! change a player or its director makes to it (time's changes, the pairing of rounds and the
//! end, are in [`super::progress`]). No I/O: the tournaments service makes the games this
//! asks for, reports how they ended, and keeps the value (as JSON) in the database after each
//! change.

use std::collections::BTreeMap;

use salpakan::Side;
use serde::{Deserialize, Serialize};

pub(crate) use super::bounds::{
    EMPTY_WITHIN_MS, MAX_DIRECTORS, MAX_LOG, MAX_REASON, MAX_RETURNS, START_WITHIN_MS,
    TournamentError,
};
pub use super::rows::ResultWords;
use super::rows::row_of;
pub(crate) use super::rows::{EntrantRow, LogLine, RoundRow, Status};
use super::settings::title_rank;
pub use super::settings::{Eligibility, Kind, Settings};
use super::{Entrant, round_robin};

/// A tournament.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tournament {
    /// Its public id.
    pub id: String,
    /// Its settings.
    pub settings: Settings,
    /// Where it is.
    pub status: Status,
    /// Its creator and the directors it named.
    pub directors: Vec<String>,
    /// Whether a director paused it (no round is paired while paused; games go on).
    pub paused: bool,
    /// When it was created, started, ended (milliseconds since the Unix epoch).
    pub created_ms: u64,
    /// When it started.
    pub started_ms: Option<u64>,
    /// When it ended.
    pub finished_ms: Option<u64>,
    /// The entrants, in order of registration.
    pub entrants: Vec<EntrantRow>,
    /// The rounds so far (a round robin's all from the start).
    pub rounds: Vec<RoundRow>,
    /// The public log.
    pub log: Vec<LogLine>,
    /// How many times each player (by its name in lower case) withdrew: a player may come
    /// back 3 times (`MAX_RETURNS`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub withdrawals: BTreeMap<String, u32>,
    /// The client address each entrant (by its name in lower case) last registered from:
    /// its games' seats are made from it, so that the rules of rated games between players
    /// of one address and the rated games an address plays a day apply as to any game. Kept
    /// with the tournament in the database; never in a reply ([`Tournament::public`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub addresses: BTreeMap<String, String>,
    /// The client address it was made from: one address holds a few tournaments not finished
    /// (kept with the tournament, so the count holds across restarts and nodes; never in a
    /// reply).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub made_from: Option<String>,
}

/// A board the service is to make a game for: round `round`, board `board`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToMake {
    /// The round's index.
    pub round: usize,
    /// The board's index.
    pub board: usize,
}

impl Tournament {
    /// A new tournament `id` of `settings`, created by `creator` (its first director, with
    /// `directors`) at `now_ms`.
    ///
    /// # Errors
    /// [`TournamentError::Invalid`] for too many directors.
    pub fn new(
        id: String,
        settings: Settings,
        creator: &str,
        directors: &[String],
        now_ms: u64,
    ) -> Result<Tournament, TournamentError> {
        let mut all = vec![creator.to_owned()];
        for d in directors {
            if !all.iter().any(|a| a.eq_ignore_ascii_case(d)) {
                all.push(d.clone());
            }
        }
        if all.len() > MAX_DIRECTORS {
            return Err(TournamentError::invalid(format!(
                "at most {MAX_DIRECTORS} directors"
            )));
        }
        let mut t = Tournament {
            id,
            settings,
            status: Status::Upcoming,
            directors: all,
            paused: false,
            created_ms: now_ms,
            started_ms: None,
            finished_ms: None,
            entrants: Vec::new(),
            rounds: Vec::new(),
            log: Vec::new(),
            withdrawals: BTreeMap::new(),
            addresses: BTreeMap::new(),
            made_from: None,
        };
        let detail = format!("directors {}", t.directors.join(", "));
        t.note(now_ms, creator, "created", detail);
        Ok(t)
    }

    pub(super) fn note(&mut self, at_ms: u64, by: &str, action: &str, detail: String) {
        if self.log.len() >= MAX_LOG {
            // The entrants' own lines go first: the directors' and the server's (results,
            // rounds, decisions) are kept whatever entrants do. The first line never goes.
            let entrants = self.log[1..]
                .iter()
                .position(|l| matches!(l.action.as_str(), "registered" | "withdrew"));
            self.log.remove(entrants.map_or(1, |i| i + 1));
        }
        let n = self.log.last().map_or(1, |line| line.n + 1);
        self.log.push(LogLine {
            n,
            at_ms,
            by: by.to_owned(),
            action: action.to_owned(),
            detail,
        });
    }

    /// Whether `name` is one of its directors.
    #[must_use]
    pub(crate) fn is_director(&self, name: &str) -> bool {
        self.directors.iter().any(|d| d.eq_ignore_ascii_case(name))
    }

    fn director(&self, name: &str) -> Result<(), TournamentError> {
        if self.is_director(name) {
            Ok(())
        } else {
            Err(TournamentError::NotDirector)
        }
    }

    /// `name`'s entrant, if registered.
    #[must_use]
    pub fn entrant(&self, name: &str) -> Option<Entrant> {
        self.entrants
            .iter()
            .position(|e| e.name.eq_ignore_ascii_case(name))
    }

    /// Registers `name`, rated `rating` with title `title`, at `now_ms`.
    ///
    /// # Errors
    /// [`TournamentError::WrongState`] after the start (an arena takes entrants while it
    /// runs), [`TournamentError::NotEligible`] outside its eligibility or when full or
    /// registered already.
    pub fn register(
        &mut self,
        name: &str,
        (rating, title): (f64, &str),
        now_ms: u64,
    ) -> Result<(), TournamentError> {
        let open = match self.status {
            Status::Upcoming => true,
            Status::Running => self.settings.kind == Kind::Arena && now_ms < self.arena_end(),
            Status::Finished => false,
        };
        if !open {
            return Err(TournamentError::WrongState(
                "registration is closed".to_owned(),
            ));
        }
        let withdrew = self
            .withdrawals
            .get(&name.to_ascii_lowercase())
            .copied()
            .unwrap_or(0);
        if withdrew > MAX_RETURNS {
            return Err(TournamentError::NotEligible(format!(
                "you withdrew {withdrew} times: a player comes back at most {MAX_RETURNS} times"
            )));
        }
        if let Some(e) = self.entrant(name) {
            if self.entrants[e].withdrawn && self.status == Status::Running {
                self.entrants[e].withdrawn = false;
                self.note(now_ms, name, "registered", "came back".to_owned());
                return Ok(());
            }
            return Err(TournamentError::NotEligible(
                "registered already".to_owned(),
            ));
        }
        let most = if self.settings.kind == Kind::Series {
            2
        } else {
            self.settings.max_entrants as usize
        };
        if self.entrants.len() >= most {
            return Err(TournamentError::NotEligible(format!(
                "the tournament is full ({most} entrants)"
            )));
        }
        let e = &self.settings.eligibility;
        if e.min_rating.is_some_and(|min| rating < min)
            || e.max_rating.is_some_and(|max| rating > max)
        {
            return Err(TournamentError::NotEligible(format!(
                "a rating of {rating:.0} is outside {} … {}",
                e.min_rating.map_or("any".to_owned(), |r| format!("{r:.0}")),
                e.max_rating.map_or("any".to_owned(), |r| format!("{r:.0}")),
            )));
        }
        if let Some(max) = &e.max_title
            && title_rank(title) > title_rank(max)
        {
            return Err(TournamentError::NotEligible(format!(
                "{max} or below only, not {title}"
            )));
        }
        self.entrants.push(EntrantRow {
            name: name.to_owned(),
            rating,
            withdrawn: false,
        });
        self.note(now_ms, name, "registered", format!("rating {rating:.0}"));
        Ok(())
    }

    /// Withdraws `name` at `now_ms`: before the start it leaves the list; after, it is paired
    /// no more (its results stand, a game it has in play goes on).
    ///
    /// # Errors
    /// [`TournamentError::WrongState`] when not registered, or the tournament is over.
    pub fn withdraw(&mut self, name: &str, now_ms: u64) -> Result<(), TournamentError> {
        let Some(e) = self.entrant(name) else {
            return Err(TournamentError::WrongState("not registered".to_owned()));
        };
        match self.status {
            Status::Upcoming => {
                self.entrants.remove(e);
            }
            Status::Running if !self.entrants[e].withdrawn => self.entrants[e].withdrawn = true,
            _ => {
                return Err(TournamentError::WrongState(
                    "withdrawn already, or the tournament is over".to_owned(),
                ));
            }
        }
        *self
            .withdrawals
            .entry(name.to_ascii_lowercase())
            .or_default() += 1;
        self.note(now_ms, name, "withdrew", String::new());
        Ok(())
    }

    /// Starts it, by director `by` at `now_ms`; the first round follows from [`Tournament::pair`].
    ///
    /// # Errors
    /// [`TournamentError::NotDirector`], [`TournamentError::WrongState`] once started or
    /// with too few entrants.
    pub fn start(&mut self, by: &str, now_ms: u64) -> Result<(), TournamentError> {
        self.director(by)?;
        if self.status != Status::Upcoming {
            return Err(TournamentError::WrongState("started already".to_owned()));
        }
        let need = 2;
        if self.entrants.len() < need {
            return Err(TournamentError::WrongState(format!(
                "{need} entrants are needed to start, {} registered",
                self.entrants.len()
            )));
        }
        self.status = Status::Running;
        self.started_ms = Some(now_ms);
        if self.settings.kind == Kind::RoundRobin {
            self.rounds = round_robin::schedule(self.entrants.len())
                .into_iter()
                .map(|round| row_of(&round, Side::White, 0))
                .collect();
        }
        let detail = format!("{} entrants", self.entrants.len());
        self.note(now_ms, by, "started", detail);
        Ok(())
    }

    /// Ends it unstarted at `now_ms` if it is upcoming and its time to start is past: a day
    /// after it was made ([`START_WITHIN_MS`]), or an hour ([`EMPTY_WITHIN_MS`]) while no one
    /// but its directors entered. Returns whether it expired (the log says why).
    pub(crate) fn expire_if_due(&mut self, now_ms: u64) -> bool {
        let Some(why) = self.expiry(now_ms) else {
            return false;
        };
        self.status = Status::Finished;
        self.finished_ms = Some(now_ms);
        self.note(now_ms, "server", "expired", why.to_owned());
        true
    }

    /// Why it expires at `now_ms`, if it does ([`Tournament::expire_if_due`]): read without
    /// changing it, so that a tick looks at every upcoming tournament without a copy.
    #[must_use]
    pub(crate) fn expiry(&self, now_ms: u64) -> Option<&'static str> {
        if self.status != Status::Upcoming {
            return None;
        }
        let age = now_ms.saturating_sub(self.created_ms);
        let empty = self
            .entrants
            .iter()
            .all(|e| e.withdrawn || self.is_director(&e.name));
        if age >= START_WITHIN_MS {
            Some("not started within a day")
        } else if empty && age >= EMPTY_WITHIN_MS {
            Some("no entrant but its directors within an hour")
        } else {
            None
        }
    }

    /// It as anyone may see it: without the entrants' addresses.
    #[must_use]
    pub fn public(&self) -> Tournament {
        Tournament {
            addresses: BTreeMap::new(),
            made_from: None,
            ..self.clone()
        }
    }

    /// Notes that `name` registers from client address `address` (its games' seats are
    /// made from it).
    pub(crate) fn note_address(&mut self, name: &str, address: std::net::IpAddr) {
        self.addresses
            .insert(name.to_ascii_lowercase(), address.to_string());
    }

    /// The client address entrant `name` last registered from, if known.
    #[must_use]
    pub(crate) fn address_of(&self, name: &str) -> Option<std::net::IpAddr> {
        self.addresses.get(&name.to_ascii_lowercase())?.parse().ok()
    }

    /// Pauses (`true`) or resumes it, by director `by`: no round is paired while paused.
    ///
    /// # Errors
    /// [`TournamentError::NotDirector`], [`TournamentError::WrongState`] unless running and
    /// not already so.
    pub fn pause(&mut self, by: &str, paused: bool, now_ms: u64) -> Result<(), TournamentError> {
        self.director(by)?;
        if self.status != Status::Running || self.paused == paused {
            return Err(TournamentError::WrongState(format!(
                "the tournament is {}{}",
                self.status.word(),
                if self.paused { " and paused" } else { "" }
            )));
        }
        self.paused = paused;
        let action = if paused { "paused" } else { "resumed" };
        self.note(now_ms, by, action, String::new());
        Ok(())
    }

    /// Moves the current round's cutoff `minutes` later, by director `by`; returns the new
    /// cutoff and the games not yet decided (their setup time is to follow it).
    ///
    /// # Errors
    /// [`TournamentError::NotDirector`], [`TournamentError::Invalid`] outside 1 … 1440,
    /// [`TournamentError::WrongState`] with no round under way.
    pub fn extend(
        &mut self,
        by: &str,
        minutes: u32,
        now_ms: u64,
    ) -> Result<(u64, Vec<String>), TournamentError> {
        self.director(by)?;
        if !(1..=1440).contains(&minutes) {
            return Err(TournamentError::invalid("minutes must be 1 … 1440"));
        }
        let Some(r) = self.current_round() else {
            return Err(TournamentError::WrongState(
                "no round is under way".to_owned(),
            ));
        };
        let round = &mut self.rounds[r];
        round.cutoff_ms += u64::from(minutes) * 60_000;
        let cutoff = round.cutoff_ms;
        let games = round
            .boards
            .iter()
            .filter(|b| b.result.is_none())
            .filter_map(|b| b.game.clone())
            .collect();
        self.note(
            now_ms,
            by,
            "extended",
            format!("round {} cutoff +{minutes} min", r + 1),
        );
        Ok((cutoff, games))
    }

    /// The round under way: the last paired one with a board undecided (an arena's last).
    #[must_use]
    pub(crate) fn current_round(&self) -> Option<usize> {
        self.rounds
            .iter()
            .rposition(|r| r.paired_ms > 0 && r.boards.iter().any(|b| b.result.is_none()))
    }

    /// The game board `board` of round `round` is played in, once made.
    #[must_use]
    pub(crate) fn board_game(&self, (round, board): (usize, usize)) -> Option<&str> {
        self.rounds.get(round)?.boards.get(board)?.game.as_deref()
    }

    /// Decides board `board` of round `round` by director `by`: a default to `present` (or
    /// to neither), or void; `reason` said in the log. A director never decides a board it
    /// plays; a board whose game ended (`over`: its game's row says so, or the board has a
    /// result) is never defaulted, and voided only with a reason.
    ///
    /// # Errors
    /// [`TournamentError::NotDirector`] (not a director, or its own board),
    /// [`TournamentError::NoBoard`], [`TournamentError::WrongState`] (the tournament is over,
    /// the game ended), [`TournamentError::Invalid`] for a result other than a default or void,
    /// or a void of an ended game without a reason.
    pub(crate) fn direct(
        &mut self,
        by: &str,
        (round, board): (usize, usize),
        (result, reason): (ResultWords, Option<&str>),
        over: bool,
        now_ms: u64,
    ) -> Result<(), TournamentError> {
        self.director(by)?;
        if self.status == Status::Finished {
            return Err(TournamentError::WrongState(
                "the tournament is over".to_owned(),
            ));
        }
        if !matches!(result, ResultWords::Default { .. } | ResultWords::Void) {
            return Err(TournamentError::invalid(
                "a director awards a default or voids a game",
            ));
        }
        let b = self
            .rounds
            .get(round)
            .and_then(|r| r.boards.get(board))
            .ok_or(TournamentError::NoBoard)?;
        if [b.white, b.black]
            .iter()
            .any(|&e| self.entrants[e].name.eq_ignore_ascii_case(by))
        {
            return Err(TournamentError::OwnBoard);
        }
        let reason = reason.map(str::trim).filter(|r| !r.is_empty());
        if reason.is_some_and(|r| r.chars().count() > MAX_REASON) {
            return Err(TournamentError::invalid(format!(
                "a reason has at most {MAX_REASON} characters"
            )));
        }
        if over || b.result.is_some() {
            let had = match b.result {
                Some(had) => self.board_words(round, board, had),
                None => format!("round {} board {}", round + 1, board + 1),
            };
            if result != ResultWords::Void || b.result == Some(ResultWords::Void) {
                return Err(TournamentError::WrongState(format!(
                    "{had}: its game ended; only a void, with its reason, changes it"
                )));
            }
            if reason.is_none() {
                return Err(TournamentError::invalid(
                    "a void of a game that ended needs its reason",
                ));
            }
        }
        self.rounds[round].boards[board].result = Some(result);
        let action = if result == ResultWords::Void {
            "void"
        } else {
            "default"
        };
        let mut detail = self.board_words(round, board, result);
        if let Some(reason) = reason {
            detail = format!("{detail} ({reason})");
        }
        self.note(now_ms, by, action, detail);
        Ok(())
    }

    pub(super) fn board_words(&self, round: usize, board: usize, result: ResultWords) -> String {
        let b = &self.rounds[round].boards[board];
        let (w, bl) = (&self.entrants[b.white].name, &self.entrants[b.black].name);
        let said = match result {
            ResultWords::WhiteWon => "1-0".to_owned(),
            ResultWords::BlackWon => "0-1".to_owned(),
            ResultWords::Draw => "draw".to_owned(),
            ResultWords::Default {
                present: Some(side),
            } => {
                let present = if side == Side::White {
                    b.white
                } else {
                    b.black
                };
                format!("default to {}", self.entrants[present].name)
            }
            ResultWords::Default { present: None } => "default to neither".to_owned(),
            ResultWords::Void => "void".to_owned(),
        };
        format!(
            "round {} board {}: {w} v {bl}, {said}",
            round + 1,
            board + 1
        )
    }

    /// Board `board` of round `round`'s game ended with `result` (as the server saw it):
    /// decided unless a director decided it first. Returns whether it changed anything.
    pub fn game_ended(
        &mut self,
        (round, board): (usize, usize),
        result: ResultWords,
        now_ms: u64,
    ) -> bool {
        let Some(b) = self
            .rounds
            .get_mut(round)
            .and_then(|r| r.boards.get_mut(board))
        else {
            return false;
        };
        if b.result.is_some() {
            return false;
        }
        b.result = Some(result);
        let action = if matches!(result, ResultWords::Default { .. }) {
            "default"
        } else {
            "result"
        };
        let detail = self.board_words(round, board, result);
        self.note(now_ms, "server", action, detail);
        true
    }

    /// Notes that board `board` of round `round` is played in game `game`.
    pub fn made(&mut self, (round, board): (usize, usize), game: String) {
        if let Some(b) = self
            .rounds
            .get_mut(round)
            .and_then(|r| r.boards.get_mut(board))
        {
            b.game = Some(game);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(kind: Kind) -> Settings {
        Settings {
            name: "Test cup".into(),
            kind,
            rounds: 3,
            target: 4,
            minutes: 60,
            round_ms: 60_000,
            clock: None,
            setup_rows: None,
            move_limit: None,
            rated: false,
            eligibility: Eligibility::default(),
            max_entrants: 64,
            watching: false,
        }
    }

    fn with(kind: Kind, n: usize) -> Tournament {
        let mut t = Tournament::new("t1".into(), settings(kind), "td", &[], 1).unwrap();
        for i in 0..n {
            t.register(&format!("p{i}"), (1500.0 - i as f64, "Recruit"), 2)
                .unwrap();
        }
        t
    }

    /// Registration checks eligibility by rating and title, and closes at the start; only a
    /// director starts, pauses and decides; each change is a line of the log.
    #[test]
    fn eligibility_directors_and_the_log() {
        let mut s = settings(Kind::Swiss);
        s.eligibility.max_title = Some("Major".into());
        s.eligibility.min_rating = Some(1000.0);
        let mut t = Tournament::new("t".into(), s, "td", &["Deputy".into()], 1).unwrap();
        assert!(matches!(
            t.register("high", (1900.0, "Colonel"), 2),
            Err(TournamentError::NotEligible(_))
        ));
        assert!(matches!(
            t.register("low", (900.0, "Private"), 2),
            Err(TournamentError::NotEligible(_))
        ));
        t.register("major", (1650.0, "Major"), 2).unwrap();
        t.register("recruit", (1500.0, "Recruit"), 2).unwrap();
        assert_eq!(t.start("major", 3), Err(TournamentError::NotDirector));
        t.start("deputy", 3).unwrap();
        assert!(matches!(
            t.register("late", (1500.0, "Recruit"), 4),
            Err(TournamentError::WrongState(_))
        ));
        let made = t.pair(4);
        assert_eq!(made.len(), 1);
        t.pause("td", true, 5).unwrap();
        assert_eq!(
            t.direct("major", (0, 0), (ResultWords::Void, None), false, 6),
            Err(TournamentError::NotDirector)
        );
        t.direct("td", (0, 0), (ResultWords::Void, None), false, 6)
            .unwrap();
        // Paused: the next round waits.
        assert!(t.pair(7).is_empty());
        assert!(!t.finish_if_done(7));
        t.pause("td", false, 8).unwrap();
        assert_eq!(t.pair(9).len(), 1, "round two");
        let actions: Vec<&str> = t.log.iter().map(|l| l.action.as_str()).collect();
        assert_eq!(
            actions,
            [
                "created",
                "registered",
                "registered",
                "started",
                "paired",
                "paused",
                "void",
                "resumed",
                "paired"
            ]
        );
    }

    /// The cutoff moves with `extend`; a withdrawn entrant's board is a default to its
    /// opponent at once, with no game to make.
    #[test]
    fn extend_and_withdrawal() {
        let mut t = with(Kind::RoundRobin, 4);
        t.start("td", 10).unwrap();
        assert_eq!(t.rounds.len(), 3, "a round robin's rounds from the start");
        assert_eq!(t.unmade().len(), 0, "none paired yet");
        assert_eq!(t.pair(10).len(), 2);
        assert_eq!(t.unmade().len(), 2, "round one's, not the later rounds'");
        let cutoff = t.rounds[0].cutoff_ms;
        assert_eq!(cutoff, 10 + 60_000);
        let (moved, games) = t.extend("td", 5, 11).unwrap();
        assert_eq!(moved, cutoff + 5 * 60_000);
        assert!(games.is_empty(), "no game made yet");
        for board in 0..2 {
            t.game_ended((0, board), ResultWords::WhiteWon, 12);
        }
        t.withdraw("p3", 13).unwrap();
        let made = t.pair(14);
        assert_eq!(made.len(), 1, "p3's board is decided at once");
        let defaulted = t.rounds[1]
            .boards
            .iter()
            .find(|b| b.white == 3 || b.black == 3)
            .unwrap();
        let present = if defaulted.white == 3 {
            Side::Black
        } else {
            Side::White
        };
        assert_eq!(
            defaulted.result,
            Some(ResultWords::Default {
                present: Some(present)
            })
        );
        // A director's decision stands over the game's own end.
        let open = (0..2)
            .find(|&b| t.rounds[1].boards[b].result.is_none())
            .unwrap();
        t.direct("td", (1, open), (ResultWords::Void, None), false, 15)
            .unwrap();
        assert!(!t.game_ended((1, open), ResultWords::Draw, 16));
        assert_eq!(t.rounds[1].boards[open].result, Some(ResultWords::Void));
    }

    #[test]
    fn a_player_comes_back_three_times_and_entrants_never_flush_the_directors_lines() {
        let mut t = Tournament::new("r".into(), settings(Kind::Swiss), "td", &[], 1).unwrap();
        for n in 0..=MAX_RETURNS {
            t.register("ana", (1500.0, "Private"), 2).unwrap();
            t.withdraw("ana", 3).unwrap();
            assert_eq!(t.withdrawals["ana"], n + 1);
        }
        let refused = t.register("Ana", (1500.0, "Private"), 4);
        assert!(
            matches!(refused, Err(TournamentError::NotEligible(ref m)) if m.contains("at most 3"))
        );
        t.register("ben", (1500.0, "Private"), 5).unwrap();
        t.register("cid", (1500.0, "Private"), 5).unwrap();
        t.start("td", 6).unwrap();
        // A full log loses entrants' lines first: the director's stay.
        t.pause("td", true, 6).unwrap();
        for n in 0..MAX_LOG {
            t.note(7 + n as u64, "ben", "withdrew", String::new());
        }
        assert_eq!(t.log.len(), MAX_LOG);
        assert_eq!(t.log[0].action, "created");
        assert!(t.log.iter().any(|l| l.by == "td" && l.action == "paused"));
        assert_eq!(t.log.last().unwrap().at_ms, 7 + MAX_LOG as u64 - 1);
    }

    #[test]
    fn an_upcoming_tournament_expires_unstarted_a_day_on_or_an_hour_on_if_empty() {
        let made = 1_000;
        let mut empty =
            Tournament::new("e".into(), settings(Kind::Swiss), "td", &[], made).unwrap();
        // Its director's own entry is no entrant.
        empty.register("td", (1500.0, "Private"), made + 1).unwrap();
        assert!(!empty.expire_if_due(made + EMPTY_WITHIN_MS - 1));
        assert!(empty.expire_if_due(made + EMPTY_WITHIN_MS));
        assert_eq!(empty.status, Status::Finished);
        assert_eq!(empty.finished_ms, Some(made + EMPTY_WITHIN_MS));
        let last = empty.log.last().unwrap();
        assert_eq!(
            (last.by.as_str(), last.action.as_str()),
            ("server", "expired")
        );
        assert!(!empty.expire_if_due(made + START_WITHIN_MS), "once");

        let mut entered =
            Tournament::new("f".into(), settings(Kind::Swiss), "td", &[], made).unwrap();
        entered
            .register("ana", (1500.0, "Private"), made + 1)
            .unwrap();
        assert!(!entered.expire_if_due(made + EMPTY_WITHIN_MS));
        assert!(!entered.expire_if_due(made + START_WITHIN_MS - 1));
        let mut started = entered.clone();
        assert!(entered.expire_if_due(made + START_WITHIN_MS));
        assert!(entered.log.last().unwrap().detail.contains("within a day"));
        // A started one never expires so.
        started
            .register("ben", (1500.0, "Private"), made + 2)
            .unwrap();
        started.start("td", made + 3).unwrap();
        assert!(!started.expire_if_due(made + 10 * START_WITHIN_MS));
    }

    #[test]
    fn a_director_decides_neither_its_own_board_nor_against_a_played_result() {
        let mut t = Tournament::new(
            "t".into(),
            settings(Kind::Swiss),
            "td",
            &["Deputy".into()],
            1,
        )
        .unwrap();
        for (i, name) in ["td", "ana", "ben", "cid"].into_iter().enumerate() {
            t.register(name, (1500.0 + i as f64, "Private"), 2).unwrap();
        }
        t.start("td", 3).unwrap();
        assert_eq!(t.pair(4).len(), 2);
        let board_of = |t: &Tournament, name: &str| {
            (0..2)
                .find(|&b| {
                    let b = &t.rounds[0].boards[b];
                    [b.white, b.black]
                        .iter()
                        .any(|&e| t.entrants[e].name == name)
                })
                .unwrap()
        };
        let own = board_of(&t, "td");
        let other = 1 - own;
        let default = ResultWords::Default { present: None };
        // Its own board, in play or ended: never, whatever the result; another director may.
        for result in [default, ResultWords::Void] {
            for over in [false, true] {
                assert_eq!(
                    t.direct("td", (0, own), (result, Some("why")), over, 5),
                    Err(TournamentError::OwnBoard)
                );
            }
        }
        let before = t.clone();
        // A game that ended (its row says so, not told yet): no default; a void needs a reason.
        assert!(matches!(
            t.direct("deputy", (0, other), (default, Some("no show")), true, 6),
            Err(TournamentError::WrongState(_))
        ));
        assert!(matches!(
            t.direct("deputy", (0, other), (ResultWords::Void, None), true, 6),
            Err(TournamentError::Invalid(_))
        ));
        assert!(matches!(
            t.direct(
                "deputy",
                (0, other),
                (ResultWords::Void, Some(" ")),
                true,
                6
            ),
            Err(TournamentError::Invalid(_))
        ));
        assert!(matches!(
            t.direct(
                "deputy",
                (0, other),
                (ResultWords::Void, Some(&"x".repeat(MAX_REASON + 1))),
                true,
                6
            ),
            Err(TournamentError::Invalid(_))
        ));
        assert_eq!(t, before, "a refusal changes nothing");
        // Its result told: the same, then a void with its reason, in the log.
        assert!(t.game_ended((0, other), ResultWords::WhiteWon, 7));
        assert!(matches!(
            t.direct("deputy", (0, other), (default, Some("x")), false, 8),
            Err(TournamentError::WrongState(_))
        ));
        t.direct(
            "deputy",
            (0, other),
            (ResultWords::Void, Some("a shared account")),
            false,
            9,
        )
        .unwrap();
        assert_eq!(t.rounds[0].boards[other].result, Some(ResultWords::Void));
        let last = t.log.last().unwrap();
        assert_eq!((last.by.as_str(), last.action.as_str()), ("deputy", "void"));
        assert!(
            last.detail.ends_with("void (a shared account)"),
            "{}",
            last.detail
        );
        // Voided once, it stays so.
        assert!(matches!(
            t.direct(
                "td",
                (0, other),
                (ResultWords::Void, Some("again")),
                false,
                10
            ),
            Err(TournamentError::WrongState(_))
        ));
        // The director's own board, in play, is another director's to decide.
        t.direct("deputy", (0, own), (default, None), false, 11)
            .unwrap();
    }

    /// A series runs until a player reaches the target and leads, colours alternating.
    #[test]
    fn a_series_runs_to_its_target() {
        let mut t = with(Kind::Series, 2);
        assert!(matches!(
            t.register("third", (1500.0, "Recruit"), 3),
            Err(TournamentError::NotEligible(_))
        ));
        t.start("td", 10).unwrap();
        let mut whites = Vec::new();
        for k in 0..2 {
            assert_eq!(t.pair(20 + k).len(), 1);
            let r = t.rounds.len() - 1;
            let b = &t.rounds[r].boards[0];
            whites.push(b.white);
            // p0 wins every game.
            let result = if b.white == 0 {
                ResultWords::WhiteWon
            } else {
                ResultWords::BlackWon
            };
            t.game_ended((r, 0), result, 30);
        }
        assert_eq!(whites, [0, 1], "colours alternate");
        assert!(t.pair(40).is_empty(), "race to 4 won 4-0");
        assert!(t.finish_if_done(41));
        assert_eq!(t.status, Status::Finished);
        assert_eq!(t.leaders(1), ["p0"]);
    }

    /// Settings out of range are refused, naming the value: the sizes that bound what a
    /// tournament holds among them.
    #[test]
    fn settings_out_of_range_are_refused() {
        let mut s = settings(Kind::RoundRobin);
        s.max_entrants = 21;
        assert!(matches!(s.check(0), Err(TournamentError::Invalid(m)) if m.contains("at most 20")));
        let mut s = settings(Kind::Arena);
        s.minutes = 241;
        assert!(matches!(s.check(0), Err(TournamentError::Invalid(m)) if m.contains("240")));
        let mut s = settings(Kind::Swiss);
        s.round_ms = 500;
        assert!(
            matches!(s.check(1000), Err(TournamentError::Invalid(m)) if m.contains("round_ms"))
        );
        s.round_ms = 1000;
        s.name = "ab".into();
        assert!(matches!(s.check(1000), Err(TournamentError::Invalid(m)) if m.contains("name")));
        s.name = "Cup".into();
        s.eligibility.max_title = Some("Admiral".into());
        assert!(matches!(s.check(1000), Err(TournamentError::Invalid(m)) if m.contains("Admiral")));
        s.eligibility.max_title = Some("major".into());
        assert_eq!(s.check(1000), Ok(()));
    }

    /// An arena pairs whoever is free as games end, never two who just met at once, takes
    /// entrants while it runs, and ends when its time is up and its games are decided.
    #[test]
    fn an_arena_pairs_whoever_is_free_until_its_time_is_up() {
        let mut t = with(Kind::Arena, 4);
        t.start("td", 1_000).unwrap();
        assert_eq!(t.pair(1_000).len(), 2);
        assert!(t.pair(1_001).is_empty(), "everyone is playing");
        let (first, second) = (t.rounds[0].boards[0].clone(), t.rounds[0].boards[1].clone());
        t.game_ended((0, 0), ResultWords::WhiteWon, 2_000);
        assert!(t.pair(2_000).is_empty(), "the two free just met: they wait");
        t.register("late", (1500.0, "Recruit"), 2_500).unwrap();
        let made = t.pair(2_500);
        assert_eq!(made.len(), 1, "the newcomer meets one of the two free");
        let b = t.rounds[made[0].round].boards[0].clone();
        assert!([b.white, b.black].contains(&4));
        assert!(
            [first.white, first.black].contains(&b.white)
                || [first.white, first.black].contains(&b.black)
        );
        t.game_ended((0, 1), ResultWords::Draw, 3_000);
        let round = made[0].round;
        t.game_ended((round, 0), ResultWords::BlackWon, 3_000);
        let end = t.arena_end();
        assert_eq!(end, 1_000 + 60 * 60_000);
        assert!(
            !t.pair(end).iter().any(|_| true),
            "no pairing once its time is up"
        );
        assert!(!t.finish_if_done(end - 1), "not before its time");
        assert!(t.finish_if_done(end));
        let score = |name: &str| {
            let e = t.entrant(name).unwrap();
            t.standings().iter().find(|s| s.entrant == e).unwrap().score
        };
        // Black won the newcomer's game: 2 more for whoever was Black there.
        let more = |e: usize| if b.black == e { 2 } else { 0 };
        for (e, points) in [
            (first.white, 2),
            (first.black, 0),
            (second.white, 1),
            (4, 0),
        ] {
            assert_eq!(
                score(&t.entrants[e].name.clone()),
                points + more(e),
                "entrant {e}"
            );
        }
    }

    /// The JSON says sides as the contract does.
    #[test]
    fn results_read_and_write_the_contract_s_words() {
        let words = ResultWords::Default {
            present: Some(Side::Black),
        };
        let json = serde_json::to_string(&words).unwrap();
        assert_eq!(json, r#"{"result":"default","present":"black"}"#);
        assert_eq!(serde_json::from_str::<ResultWords>(&json).unwrap(), words);
    }
}
