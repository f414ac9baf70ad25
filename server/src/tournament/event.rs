//! One tournament as a value: its settings, entrants, rounds, games and public log, and every
//! change a player, its director or time makes to it. No I/O: the tournaments service makes
//! the games this asks for, reports how they ended, and keeps the value (as JSON) in the
//! database after each change.

use std::cmp::Reverse;

use salpakan::Side;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::series::{Series, SeriesState};
use super::standings::{Standing, standings};
use super::swiss::{self, Seed};
use super::{Entrant, Outcome, Pairing, Round, Scoring, arena, round_robin};
use crate::clock::ClockSettings;

/// The kinds of tournament.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// `rounds` rounds paired by score then rating.
    Swiss,
    /// Every entrant meets every other once.
    RoundRobin,
    /// Two entrants race to `target` points, at most `rounds` games.
    Series,
    /// For `minutes`, whoever is free is paired at once.
    Arena,
}

/// Who may register.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Eligibility {
    /// The lowest rating allowed.
    pub min_rating: Option<f64>,
    /// The highest rating allowed.
    pub max_rating: Option<f64>,
    /// The highest title allowed (`"Major"`: "Major or below"); a provisional player
    /// (`"Recruit"`) is below every title.
    pub max_title: Option<String>,
}

/// A tournament's settings, fixed at its creation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Its name, 3 to 60 characters.
    pub name: String,
    /// Its kind.
    pub kind: Kind,
    /// Swiss: its rounds; series: the most games.
    pub rounds: u32,
    /// Series: the points that win it.
    pub target: u32,
    /// Arena: how long it runs, in minutes.
    pub minutes: u32,
    /// From a round's pairing to its cutoff, in milliseconds: a game not started by then
    /// (both formations in) is a default.
    pub round_ms: u64,
    /// Each game's clock.
    pub clock: Option<ClockSettings>,
    /// Each game's setup rows (3, the official rule, when absent).
    pub setup_rows: Option<i64>,
    /// Each game's move limit (the server's default when absent).
    pub move_limit: Option<i64>,
    /// Whether its games are rated.
    pub rated: bool,
    /// Who may register.
    pub eligibility: Eligibility,
    /// The most entrants.
    pub max_entrants: u32,
    /// Whether spectators may watch its games while it runs (the public board only: their
    /// records and openings stay sealed to all but the players until it ends).
    #[serde(default)]
    pub watching: bool,
}

/// Where a tournament is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Taking registrations.
    Upcoming,
    /// Started (paused or not).
    Running,
    /// Over: its games' records, replays and openings are public.
    Finished,
}

impl Status {
    /// `"upcoming"`, `"running"` or `"finished"`.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            Status::Upcoming => "upcoming",
            Status::Running => "running",
            Status::Finished => "finished",
        }
    }
}

/// A registered player.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EntrantRow {
    /// Its name.
    pub name: String,
    /// Its rating at registration (at the start for those registered before it).
    pub rating: f64,
    /// Whether it withdrew after the start (it is paired no more; its results stand).
    pub withdrawn: bool,
}

/// How a board ended, as the tournament's JSON says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "result")]
pub enum ResultWords {
    /// White won.
    WhiteWon,
    /// Black won.
    BlackWon,
    /// Drawn.
    Draw,
    /// Not started by the cutoff: `present` (if either was) scores the default.
    Default {
        /// The side present: `"white"`, `"black"` or null.
        #[serde(with = "side_words::optional")]
        present: Option<Side>,
    },
    /// Voided by a director.
    Void,
}

impl ResultWords {
    /// The outcome the standings count.
    #[must_use]
    pub fn outcome(self) -> Outcome {
        match self {
            ResultWords::WhiteWon => Outcome::Won(Side::White),
            ResultWords::BlackWon => Outcome::Won(Side::Black),
            ResultWords::Draw => Outcome::Drawn,
            ResultWords::Default { present } => Outcome::Default(present),
            ResultWords::Void => Outcome::Void,
        }
    }

    /// The words of `outcome`.
    #[must_use]
    pub fn of(outcome: Outcome) -> ResultWords {
        match outcome {
            Outcome::Won(Side::White) => ResultWords::WhiteWon,
            Outcome::Won(Side::Black) => ResultWords::BlackWon,
            Outcome::Drawn => ResultWords::Draw,
            Outcome::Default(present) => ResultWords::Default { present },
            Outcome::Void => ResultWords::Void,
        }
    }
}

/// A game of a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    /// White's entrant.
    pub white: Entrant,
    /// Black's entrant.
    pub black: Entrant,
    /// The side that moves first: `"white"` or `"black"`.
    #[serde(with = "side_words")]
    pub first: Side,
    /// Its game, once made.
    pub game: Option<String>,
    /// How it ended, once decided.
    pub result: Option<ResultWords>,
}

/// A round: its boards, its bye, its cutoff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRow {
    /// Its boards.
    pub boards: Vec<Board>,
    /// Who sits it out.
    pub bye: Option<Entrant>,
    /// When it was paired (milliseconds since the Unix epoch; 0 for a round robin's round
    /// not yet under way).
    pub paired_ms: u64,
    /// Its cutoff: a game not started by then is a default.
    pub cutoff_ms: u64,
}

/// One line of the public log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogLine {
    /// When, in milliseconds since the Unix epoch.
    pub at_ms: u64,
    /// Who: a player's name, or `"server"`.
    pub by: String,
    /// What was done: `created`, `registered`, `withdrew`, `started`, `paused`, `resumed`,
    /// `extended`, `paired`, `default`, `void`, `result`, `finished`, `director`.
    pub action: String,
    /// Its details.
    pub detail: String,
}

/// The most lines a tournament's log keeps (the oldest go first, the first line stays).
pub const MAX_LOG: usize = 2_000;

/// The most entrants a tournament may take.
pub const MAX_ENTRANTS: u32 = 256;

/// The most directors a tournament may name.
pub const MAX_DIRECTORS: usize = 8;

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
}

/// A change refused; nothing changed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TournamentError {
    /// A setting out of range.
    #[error("{0}")]
    Invalid(String),
    /// Not one of its directors.
    #[error("only a director of this tournament may do that")]
    NotDirector,
    /// Not now: the tournament's state does not allow it.
    #[error("{0}")]
    WrongState(String),
    /// The player may not register.
    #[error("{0}")]
    NotEligible(String),
    /// No such round or board.
    #[error("no such round or board")]
    NoBoard,
}

/// A board the service is to make a game for: round `round`, board `board`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToMake {
    /// The round's index.
    pub round: usize,
    /// The board's index.
    pub board: usize,
}

fn invalid(text: impl Into<String>) -> TournamentError {
    TournamentError::Invalid(text.into())
}

/// The titles, lowest first, as eligibility compares them.
fn title_rank(title: &str) -> Option<usize> {
    ["Recruit", "Private"]
        .into_iter()
        .chain(crate::rating::TITLES.iter().copied())
        .position(|t| t.eq_ignore_ascii_case(title))
}

impl Settings {
    /// Checks the settings: names, counts and times in range.
    ///
    /// # Errors
    /// [`TournamentError::Invalid`] naming the value out of range.
    pub fn check(&self, min_round_ms: u64) -> Result<(), TournamentError> {
        let length = self.name.chars().count();
        if !(3..=60).contains(&length) || self.name.chars().any(char::is_control) {
            return Err(invalid("name must be 3 to 60 characters, none a control"));
        }
        match self.kind {
            Kind::Swiss if !(1..=20).contains(&self.rounds) => {
                return Err(invalid("a Swiss has 1 to 20 rounds"));
            }
            Kind::Series if !(1..=10).contains(&self.target) => {
                return Err(invalid("a series' target is 1 to 10 points"));
            }
            Kind::Series if !(1..=30).contains(&self.rounds) => {
                return Err(invalid("a series has at most 1 to 30 games (rounds)"));
            }
            Kind::Arena if !(1..=24 * 60).contains(&self.minutes) => {
                return Err(invalid("an arena lasts 1 to 1440 minutes"));
            }
            _ => {}
        }
        const WEEK_MS: u64 = 7 * 24 * 60 * 60 * 1000;
        if !(min_round_ms..=WEEK_MS).contains(&self.round_ms) {
            return Err(invalid(format!(
                "round_ms must be {min_round_ms} … {WEEK_MS} (from a round's pairing to its \
                 cutoff), not {}",
                self.round_ms
            )));
        }
        if !(2..=MAX_ENTRANTS).contains(&self.max_entrants) {
            return Err(invalid(format!("max_entrants must be 2 … {MAX_ENTRANTS}")));
        }
        if let Some(title) = &self.eligibility.max_title
            && title_rank(title).is_none()
        {
            return Err(invalid(format!("no such title: {title:?}")));
        }
        Ok(())
    }
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
            return Err(invalid(format!("at most {MAX_DIRECTORS} directors")));
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
        };
        let detail = format!("directors {}", t.directors.join(", "));
        t.note(now_ms, creator, "created", detail);
        Ok(t)
    }

    fn note(&mut self, at_ms: u64, by: &str, action: &str, detail: String) {
        if self.log.len() >= MAX_LOG {
            self.log.remove(1);
        }
        self.log.push(LogLine {
            at_ms,
            by: by.to_owned(),
            action: action.to_owned(),
            detail,
        });
    }

    /// Whether `name` is one of its directors.
    #[must_use]
    pub fn is_director(&self, name: &str) -> bool {
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
            return Err(invalid("minutes must be 1 … 1440"));
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
    pub fn current_round(&self) -> Option<usize> {
        self.rounds
            .iter()
            .rposition(|r| r.paired_ms > 0 && r.boards.iter().any(|b| b.result.is_none()))
    }

    /// Decides board `board` of round `round` by director `by`: a default to `present` (or
    /// to neither) with `Some(result)` a default, or void.
    ///
    /// # Errors
    /// [`TournamentError::NotDirector`], [`TournamentError::NoBoard`],
    /// [`TournamentError::Invalid`] for a result other than a default or void.
    pub fn direct(
        &mut self,
        by: &str,
        (round, board): (usize, usize),
        result: ResultWords,
        now_ms: u64,
    ) -> Result<(), TournamentError> {
        self.director(by)?;
        if self.status == Status::Finished {
            return Err(TournamentError::WrongState(
                "the tournament is over".to_owned(),
            ));
        }
        if !matches!(result, ResultWords::Default { .. } | ResultWords::Void) {
            return Err(invalid("a director awards a default or voids a game"));
        }
        let b = self
            .rounds
            .get_mut(round)
            .and_then(|r| r.boards.get_mut(board))
            .ok_or(TournamentError::NoBoard)?;
        b.result = Some(result);
        let action = if result == ResultWords::Void {
            "void"
        } else {
            "default"
        };
        let detail = self.board_words(round, board, result);
        self.note(now_ms, by, action, detail);
        Ok(())
    }

    fn board_words(&self, round: usize, board: usize, result: ResultWords) -> String {
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

    /// The rounds as the pairing and standings rules read them.
    #[must_use]
    pub fn plain_rounds(&self) -> Vec<Round> {
        self.rounds
            .iter()
            .filter(|r| r.paired_ms > 0)
            .map(|r| Round {
                pairings: r
                    .boards
                    .iter()
                    .map(|b| Pairing {
                        white: b.white,
                        black: b.black,
                        outcome: b.result.map(ResultWords::outcome),
                    })
                    .collect(),
                bye: r.bye,
            })
            .collect()
    }

    /// The standings now.
    #[must_use]
    pub fn standings(&self) -> Vec<Standing> {
        standings(
            self.entrants.len(),
            &self.plain_rounds(),
            &Scoring::default(),
        )
    }

    /// When an arena ends (milliseconds since the Unix epoch; 0 before its start).
    #[must_use]
    pub fn arena_end(&self) -> u64 {
        self.started_ms
            .map_or(0, |s| s + u64::from(self.settings.minutes) * 60_000)
    }

    fn busy(&self) -> Vec<bool> {
        let mut busy = vec![false; self.entrants.len()];
        for round in &self.rounds {
            for b in round
                .boards
                .iter()
                .filter(|b| b.result.is_none() && round.paired_ms > 0)
            {
                busy[b.white] = true;
                busy[b.black] = true;
            }
        }
        busy
    }

    /// Pairs what is due at `now_ms`, when running and not paused: the next round once the
    /// last is decided (an arena: whoever is free), each board of a withdrawn entrant decided
    /// at once as a default to its opponent. Returns the boards whose games are to be made.
    pub fn pair(&mut self, now_ms: u64) -> Vec<ToMake> {
        if self.status != Status::Running || self.paused {
            return Vec::new();
        }
        let cutoff_ms = now_ms + self.settings.round_ms;
        let scoring = Scoring::default();
        let plain = self.plain_rounds();
        let all_decided = plain
            .iter()
            .all(|r| r.pairings.iter().all(|p| p.outcome.is_some()));
        let next: Option<RoundRow> = match self.settings.kind {
            Kind::Arena => {
                if now_ms >= self.arena_end() {
                    None
                } else {
                    let busy = self.busy();
                    let waiting: Vec<arena::Waiting> = (0..self.entrants.len())
                        .filter(|&e| !busy[e] && !self.entrants[e].withdrawn)
                        .map(|e| self.arena_waiting(e, &plain))
                        .collect();
                    let (pairings, _) = arena::pair(&waiting);
                    (!pairings.is_empty()).then(|| {
                        row_of(
                            &Round {
                                pairings,
                                bye: None,
                            },
                            Side::White,
                            now_ms,
                        )
                    })
                }
            }
            _ if !all_decided => None,
            Kind::Swiss => (plain.len() < self.settings.rounds as usize).then(|| {
                let seeds: Vec<Seed> = (0..self.entrants.len())
                    .filter(|&e| !self.entrants[e].withdrawn)
                    .map(|e| Seed {
                        entrant: e,
                        rating: self.entrants[e].rating,
                    })
                    .collect();
                row_of(&swiss::pair(&seeds, &plain, &scoring), Side::White, now_ms)
            }),
            Kind::RoundRobin => {
                if let Some(r) = self.rounds.iter().position(|r| r.paired_ms == 0) {
                    self.rounds[r].paired_ms = now_ms;
                    self.rounds[r].cutoff_ms = cutoff_ms;
                    return self.open_round(r, now_ms);
                }
                None
            }
            Kind::Series => match self.series_state(&plain) {
                SeriesState::Playing { next, .. } => {
                    let g = Series::game(next);
                    let (white, black) = if g.white == 0 { (0, 1) } else { (1, 0) };
                    Some(row_of(
                        &Round {
                            pairings: vec![Pairing::new(white, black)],
                            bye: None,
                        },
                        g.first,
                        now_ms,
                    ))
                }
                SeriesState::Over { .. } => None,
            },
        };
        let Some(mut row) = next else {
            return Vec::new();
        };
        if row.boards.is_empty() && row.bye.is_none() {
            return Vec::new();
        }
        row.cutoff_ms = cutoff_ms;
        self.rounds.push(row);
        let r = self.rounds.len() - 1;
        self.open_round(r, now_ms)
    }

    /// Round `r` is paired: logs it, decides the boards of withdrawn entrants, returns the
    /// boards to make.
    fn open_round(&mut self, r: usize, now_ms: u64) -> Vec<ToMake> {
        let mut make = Vec::new();
        let mut words = Vec::new();
        for (i, b) in self.rounds[r].boards.clone().iter().enumerate() {
            words.push(format!(
                "{} v {}",
                self.entrants[b.white].name, self.entrants[b.black].name
            ));
            let gone = [b.white, b.black].map(|e| self.entrants[e].withdrawn);
            if gone[0] || gone[1] {
                let present = match gone {
                    [true, false] => Some(Side::Black),
                    [false, true] => Some(Side::White),
                    _ => None,
                };
                self.game_ended((r, i), ResultWords::Default { present }, now_ms);
            } else {
                make.push(ToMake { round: r, board: i });
            }
        }
        if let Some(bye) = self.rounds[r].bye {
            words.push(format!("bye {}", self.entrants[bye].name));
        }
        let detail = format!("round {}: {}", r + 1, words.join(", "));
        self.note(now_ms, "server", "paired", detail);
        make
    }

    fn arena_waiting(&self, e: Entrant, plain: &[Round]) -> arena::Waiting {
        let scoring = Scoring::default();
        let (mut score, mut balance, mut last) = (0, 0, None);
        for p in plain.iter().flat_map(|r| &r.pairings) {
            let Some(side) = p.side_of(e) else { continue };
            balance += if side == Side::White { 1 } else { -1 };
            last = Some(p.of(side.other()));
            if let Some(outcome) = p.outcome {
                score += scoring.points(outcome, side).0;
            }
        }
        arena::Waiting {
            entrant: e,
            score,
            rating: self.entrants[e].rating,
            balance,
            last,
        }
    }

    /// Ends it at `now_ms` if every round is played (an arena: its time is up and every game
    /// decided; a series: decided). Returns whether it ended now.
    pub fn finish_if_done(&mut self, now_ms: u64) -> bool {
        if self.status != Status::Running || self.paused {
            return false;
        }
        let plain = self.plain_rounds();
        let decided = plain
            .iter()
            .all(|r| r.pairings.iter().all(|p| p.outcome.is_some()));
        if !decided {
            return false;
        }
        let done = match self.settings.kind {
            Kind::Swiss => plain.len() >= self.settings.rounds as usize,
            Kind::RoundRobin => self.rounds.iter().all(|r| r.paired_ms > 0),
            Kind::Arena => now_ms >= self.arena_end(),
            Kind::Series => matches!(self.series_state(&plain), SeriesState::Over { .. }),
        };
        if !done {
            return false;
        }
        self.status = Status::Finished;
        self.finished_ms = Some(now_ms);
        let top: Vec<String> = self
            .standings()
            .iter()
            .filter(|s| s.place == 1)
            .map(|s| self.entrants[s.entrant].name.clone())
            .collect();
        self.note(
            now_ms,
            "server",
            "finished",
            format!("won by {}", top.join(", ")),
        );
        true
    }

    /// Where a series stands after the decided games of `plain`.
    fn series_state(&self, plain: &[Round]) -> SeriesState {
        let series = Series {
            target: self.settings.target,
            max_games: self.settings.rounds,
        };
        let outcomes: Vec<Outcome> = plain
            .iter()
            .filter_map(|r| r.pairings.first().and_then(|p| p.outcome))
            .collect();
        series.state(&outcomes, &Scoring::default())
    }

    /// Every game of it, with its round and board.
    pub fn games(&self) -> impl Iterator<Item = ((usize, usize), &Board)> {
        self.rounds.iter().enumerate().flat_map(|(r, round)| {
            round
                .boards
                .iter()
                .enumerate()
                .map(move |(i, b)| ((r, i), b))
        })
    }

    /// The boards of rounds under way whose games are still to be made (a round robin's
    /// later rounds wait until they are paired).
    #[must_use]
    pub fn unmade(&self) -> Vec<ToMake> {
        self.games()
            .filter(|&((round, _), b)| {
                self.rounds[round].paired_ms > 0 && b.game.is_none() && b.result.is_none()
            })
            .map(|((round, board), _)| ToMake { round, board })
            .collect()
    }

    /// The boards in play with a game made, with their round and board.
    #[must_use]
    pub fn in_play(&self) -> Vec<((usize, usize), String)> {
        self.games()
            .filter(|(_, b)| b.result.is_none())
            .filter_map(|(at, b)| b.game.clone().map(|g| (at, g)))
            .collect()
    }

    /// Entrants ordered best first, as its list shows the leaders.
    #[must_use]
    pub fn leaders(&self, n: usize) -> Vec<String> {
        let mut s = self.standings();
        s.sort_by_key(|s| (s.place, Reverse(s.score)));
        s.into_iter()
            .take(n)
            .map(|s| self.entrants[s.entrant].name.clone())
            .collect()
    }
}

/// A round's row from its plain value, paired at `paired_ms`, `first` to move first.
fn row_of(round: &Round, first: Side, paired_ms: u64) -> RoundRow {
    RoundRow {
        boards: round
            .pairings
            .iter()
            .map(|p| Board {
                white: p.white,
                black: p.black,
                first,
                game: None,
                result: None,
            })
            .collect(),
        bye: round.bye,
        paired_ms,
        cutoff_ms: 0,
    }
}

/// A side as the contract writes it, `"white"` or `"black"`.
mod side_words {
    use salpakan::Side;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(side: &Side, to: S) -> Result<S::Ok, S::Error> {
        to.serialize_str(side.word())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(from: D) -> Result<Side, D::Error> {
        let word = String::deserialize(from)?;
        word.parse().map_err(serde::de::Error::custom)
    }

    /// An optional side: a side's word, or null.
    pub mod optional {
        use salpakan::Side;
        use serde::{Deserialize, Deserializer, Serializer};

        pub fn serialize<S: Serializer>(side: &Option<Side>, to: S) -> Result<S::Ok, S::Error> {
            match side {
                Some(side) => to.serialize_str(side.word()),
                None => to.serialize_none(),
            }
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(from: D) -> Result<Option<Side>, D::Error> {
            let word = Option::<String>::deserialize(from)?;
            word.map(|w| w.parse().map_err(serde::de::Error::custom))
                .transpose()
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
            t.direct("major", (0, 0), ResultWords::Void, 6),
            Err(TournamentError::NotDirector)
        );
        t.direct("td", (0, 0), ResultWords::Void, 6).unwrap();
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
        t.direct("td", (1, open), ResultWords::Void, 15).unwrap();
        assert!(!t.game_ended((1, open), ResultWords::Draw, 16));
        assert_eq!(t.rounds[1].boards[open].result, Some(ResultWords::Void));
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
