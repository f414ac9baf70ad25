//! One game as the server holds it: the seats, the formations, the arbiter's [`Game`], the
//! clock, the standing draw offer, presence, and the game's numbered events. A [`Room`] is a
//! plain state machine with no I/O: each request either changes it, appending events, or is
//! refused with a [`Refusal`] and changes nothing. The async layer ([`crate::hub`]) commits
//! the new events to the database before anyone hears of them.
//!
//! What leaves a room towards a client is built by [`Room::render`] and [`Room::state`] from
//! the recipient's [`View`](salpakan::View) (or the [`PublicView`](salpakan::PublicView))
//! and the public events; the formations of the two seats are only revealed in the game
//! record of the `over` event.

use core::str::FromStr;

use salpakan::{AgentKind, DeclaredEnd, Game, Move, Outcome, Rules, Setup, Side, Status, Tracker};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::time::{Duration, Instant};

use crate::clock::{Clock, ClockSettings, Reading};
use crate::wire::{self, Refusal};

/// Who plays a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    /// A person (or an external bot) with the seat's token.
    Human,
    /// The server's own agent.
    Bot(AgentKind),
}

impl Player {
    /// `"human"` or the agent's word (`"random"`, `"greedy"`, `"ismcts"`).
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            Player::Human => "human",
            Player::Bot(kind) => kind.word(),
        }
    }

    /// Reads [`Player::word`].
    ///
    /// # Errors
    /// The word, if it is none of them.
    pub fn from_word(word: &str) -> Result<Player, String> {
        match word {
            "human" => Ok(Player::Human),
            other => AgentKind::from_str(other).map(Player::Bot).map_err(|_| {
                format!("opponent must be human, random, greedy or ismcts, not {other:?}")
            }),
        }
    }
}

/// What a game is made with: everything the `games` table holds of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    /// The game's public id.
    pub id: String,
    /// The rules.
    pub rules: Rules,
    /// The side that moves first.
    pub first: Side,
    /// Who plays White and Black.
    pub players: [Player; 2],
    /// The clock, for a timed game.
    pub clock: Option<ClockSettings>,
    /// The SHA-256 of each seat's token, once the seat is taken (a bot's stays `None`).
    pub tokens: [Option<String>; 2],
    /// The SHA-256 of the invite code, for a game against a person.
    pub invite: Option<String>,
    /// The bot's seed (its formation and its choices follow from it).
    pub bot_seed: u64,
}

/// A game's numbered event, shared by every recipient (each sees it through its own eyes:
/// [`Room::render`]). Stored as JSON in the database, in this form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "kebab-case")]
pub enum Event {
    /// A side's formation was accepted.
    Ready {
        /// The side.
        side: Side,
    },
    /// Both formations are in; play starts.
    Start {
        /// The side to move first.
        first: Side,
        /// The clock at the start.
        clock: Option<Reading>,
    },
    /// A ply was played.
    Ply {
        /// The ply's number (1 for the first move).
        ply: u32,
        /// The side that moved.
        side: Side,
        /// The move.
        mv: Move,
        /// The arbiter's announcement, for a challenge.
        outcome: Option<Outcome>,
        /// The status after it.
        status: Status,
        /// The clock after it.
        clock: Option<Reading>,
    },
    /// A side offers a draw.
    DrawOffer {
        /// The side.
        side: Side,
    },
    /// The game ended.
    Over {
        /// How.
        status: Status,
    },
}

/// Who a message is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Recipient {
    /// A seat.
    Seat(Side),
    /// A spectator.
    Spectator,
}

impl Recipient {
    fn side(self) -> Option<Side> {
        match self {
            Recipient::Seat(side) => Some(side),
            Recipient::Spectator => None,
        }
    }
}

/// A room's answer to one frame from a client ([`Room::handle`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Refused: the `error` frame for the sender; nothing changed.
    Refused(Refusal),
    /// New events from this index of [`Room::events`]: commit them, then send them to all.
    Events(usize),
    /// Frames for the sender only (a pong, missed events, a resent move's event).
    Frames(Vec<String>),
}

/// How a request changed a room.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// New events were appended from this index of [`Room::events`].
    Events(usize),
    /// The seat's last move sent again: the event with this version answers it.
    Resend(u64),
}

/// The phase of a game: `"setup"`, `"playing"`, `"over"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Formations are being submitted.
    Setup,
    /// The game goes on.
    Playing,
    /// It has ended.
    Over,
}

impl Phase {
    /// The contract's word.
    #[must_use]
    pub fn word(self) -> &'static str {
        match self {
            Phase::Setup => "setup",
            Phase::Playing => "playing",
            Phase::Over => "over",
        }
    }
}

/// The server's own player, between its moves.
struct BotSeat {
    side: Side,
    kind: AgentKind,
    /// `None` while it thinks (the tracker is with the thinking task).
    tracker: Option<Tracker>,
}

/// A bot's turn: what a blocking task needs to choose the bot's move.
pub struct BotTurn {
    /// The bot's side.
    pub side: Side,
    /// The ply it moves at (plies already played).
    pub ply: u64,
    /// Its knowledge (never the game).
    pub tracker: Tracker,
    /// The agent, seeded from the game's bot seed and the ply.
    pub agent: Box<dyn salpakan::Agent + Send>,
}

impl BotTurn {
    /// Chooses the move: blocking, run off the async threads.
    #[must_use]
    pub fn think(mut self) -> (Tracker, Option<Move>) {
        let mv = self.agent.choose(&self.tracker);
        (self.tracker, mv)
    }
}

/// One game.
pub struct Room {
    spec: Spec,
    setups: [Option<Setup>; 2],
    game: Option<Game>,
    events: Vec<Event>,
    clock: Option<Clock>,
    draw_offer: Option<Side>,
    /// Each side's last move: its `ply` field, the move, and the version of its event.
    last_move: [Option<(u64, Move, u64)>; 2],
    sockets: [u32; 2],
    away_since: [Instant; 2],
    grace: Duration,
    bot: Option<BotSeat>,
    bot_budget: u32,
}

/// What a room is restored from: its spec, formations and events, as the database holds
/// them.
#[derive(Debug, Clone)]
pub struct Saved {
    /// The spec.
    pub spec: Spec,
    /// Each side's accepted formation, as cell values.
    pub setups: [Option<Vec<u8>>; 2],
    /// The events, in order of version.
    pub events: Vec<Event>,
}

impl Room {
    /// A new game. A bot seat submits its formation at once (the `ready` event, version 1).
    #[must_use]
    pub fn new(spec: Spec, grace: Duration, bot_budget: u32, now: Instant) -> Room {
        let mut room = Room::empty(spec, grace, bot_budget, now);
        if let Some(bot) = &room.bot {
            let side = bot.side;
            let setup = Setup::random(side, room.spec.rules, room.spec.bot_seed);
            room.setups[side.index()] = Some(setup);
            room.events.push(Event::Ready { side });
        }
        room
    }

    fn empty(spec: Spec, grace: Duration, bot_budget: u32, now: Instant) -> Room {
        let bot = Side::ALL
            .into_iter()
            .find_map(|side| match spec.players[side.index()] {
                Player::Bot(kind) => Some(BotSeat {
                    side,
                    kind,
                    tracker: None,
                }),
                Player::Human => None,
            });
        Room {
            clock: spec.clock.map(|settings| Clock::new(settings, now)),
            spec,
            setups: [None, None],
            game: None,
            events: Vec::new(),
            draw_offer: None,
            last_move: [None, None],
            sockets: [0, 0],
            away_since: [now; 2],
            grace,
            bot,
            bot_budget,
        }
    }

    /// A room as the database left it: the events replayed on the formations, the clock
    /// resumed from its last reading at `now`.
    ///
    /// # Errors
    /// What does not fit, if the stored game is not one the rules allow.
    pub fn restore(
        saved: Saved,
        grace: Duration,
        bot_budget: u32,
        now: Instant,
    ) -> Result<Room, String> {
        let mut room = Room::empty(saved.spec, grace, bot_budget, now);
        let rules = room.spec.rules;
        for side in Side::ALL {
            if let Some(cells) = &saved.setups[side.index()] {
                let setup = Setup::from_cell_values(side, rules, cells)
                    .map_err(|e| format!("{side}'s formation: {e}"))?;
                room.setups[side.index()] = Some(setup);
            }
        }
        let mut reading = None;
        for event in saved.events {
            let v = room.events.len() as u64 + 1;
            match &event {
                Event::Ready { side } => {
                    if room.setups[side.index()].is_none() {
                        return Err(format!("{side} is ready without a formation"));
                    }
                }
                Event::Start { first, clock } => {
                    room.start_game(*first)?;
                    reading = *clock;
                }
                Event::Ply {
                    side,
                    mv,
                    outcome,
                    status,
                    clock,
                    ..
                } => {
                    let game = room.game.as_mut().ok_or("a ply before the start")?;
                    let report = game.play(*mv).map_err(|e| format!("event {v}: {e}"))?;
                    if report.outcome != *outcome || report.status != *status {
                        return Err(format!("event {v}: the replay differs"));
                    }
                    if room.draw_offer == Some(side.other()) {
                        room.draw_offer = None;
                    }
                    let ply = game.history().len() as u64 - 1;
                    room.last_move[side.index()] = Some((ply, *mv, v));
                    reading = *clock;
                }
                Event::DrawOffer { side } => room.draw_offer = Some(*side),
                Event::Over { status } => {
                    let game = room.game.as_mut().ok_or("the end before the start")?;
                    if game.status().is_ongoing() {
                        let end = DeclaredEnd::of(*status).ok_or("an end no one declares")?;
                        game.declare(end).map_err(|e| e.to_string())?;
                    }
                    if game.status() != *status {
                        return Err(format!("event {v}: the end differs"));
                    }
                    room.draw_offer = None;
                }
            }
            room.events.push(event);
        }
        let playing = room.phase() == Phase::Playing;
        if let (Some(clock), Some(reading)) = (&mut room.clock, reading) {
            let mut resumed = Clock::resume(clock.settings(), reading, now);
            if !playing {
                resumed.stop(now);
            }
            *clock = resumed;
        }
        room.follow_bot();
        Ok(room)
    }

    /// The game's spec.
    #[must_use]
    pub fn spec(&self) -> &Spec {
        &self.spec
    }

    /// Records that `side`'s seat is now held by a token whose digest is `token`.
    pub fn take_seat(&mut self, side: Side, token: String) {
        self.spec.tokens[side.index()] = Some(token);
    }

    /// The events so far (version `v` is at index `v - 1`).
    #[must_use]
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The latest version (0 before any event).
    #[must_use]
    pub fn version(&self) -> u64 {
        self.events.len() as u64
    }

    /// `side`'s accepted formation.
    #[must_use]
    pub fn setup(&self, side: Side) -> Option<&Setup> {
        self.setups[side.index()].as_ref()
    }

    /// The phase.
    #[must_use]
    pub fn phase(&self) -> Phase {
        match &self.game {
            None => Phase::Setup,
            Some(game) if game.status().is_ongoing() => Phase::Playing,
            Some(_) => Phase::Over,
        }
    }

    /// The status (ongoing until play ends).
    #[must_use]
    pub fn status(&self) -> Status {
        self.game.as_ref().map_or(Status::Ongoing, Game::status)
    }

    /// Plies played.
    #[must_use]
    pub fn ply(&self) -> u64 {
        self.game.as_ref().map_or(0, |g| g.history().len() as u64)
    }

    /// The side to move's legal moves (none outside play). They depend on the squares
    /// alone, which both sides see.
    #[must_use]
    pub fn legal_moves(&self) -> salpakan::MoveList {
        match &self.game {
            Some(game) if game.status().is_ongoing() => game.legal_moves(),
            _ => salpakan::MoveList::new(),
        }
    }

    /// The game record (both formations), once the game is over.
    #[must_use]
    pub fn record(&self) -> Option<String> {
        let game = self.game.as_ref()?;
        (!game.status().is_ongoing()).then(|| game.record())
    }

    /// The clock's reading at `now`, for a timed game.
    #[must_use]
    pub fn clock(&self, now: Instant) -> Option<Reading> {
        self.clock.map(|c| c.reading(now))
    }

    fn present(&self, side: Side) -> bool {
        matches!(self.spec.players[side.index()], Player::Bot(_)) || self.sockets[side.index()] > 0
    }

    /// A socket of `side`'s seat opened. Returns whether the seat was away until now.
    pub fn connect(&mut self, side: Side) -> bool {
        self.sockets[side.index()] += 1;
        self.sockets[side.index()] == 1
    }

    /// A socket of `side`'s seat closed at `now`. Returns whether the seat is now away.
    pub fn disconnect(&mut self, side: Side, now: Instant) -> bool {
        let count = &mut self.sockets[side.index()];
        *count = count.saturating_sub(1);
        if *count == 0 {
            self.away_since[side.index()] = now;
            true
        } else {
            false
        }
    }

    fn ongoing_game(&self) -> Result<&Game, Refusal> {
        match &self.game {
            None => Err(Refusal::new(
                "wrong-phase",
                "the game is in its setup phase",
            )),
            Some(game) if !game.status().is_ongoing() => Err(Refusal::new(
                "game-over",
                format!("the game is over ({})", game.status()),
            )),
            Some(game) => Ok(game),
        }
    }

    fn start_game(&mut self, first: Side) -> Result<(), String> {
        let (Some(white), Some(black)) = (&self.setups[0], &self.setups[1]) else {
            return Err("the game starts with both formations".into());
        };
        let game = Game::new(white.clone(), black.clone(), first, self.spec.rules)
            .map_err(|e| e.to_string())?;
        self.game = Some(game);
        Ok(())
    }

    /// One frame's text from a socket for `to`, at `now`: parsed, then refused, answered to
    /// the sender alone, or applied.
    pub fn handle(&mut self, to: Recipient, text: &str, now: Instant) -> Answer {
        let message = match wire::ClientMessage::parse(text) {
            Ok(message) => message,
            Err(e) => return Answer::Refused(Refusal::new("bad-message", e)),
        };
        let result = match (message, to) {
            (wire::ClientMessage::Ping, _) => {
                return Answer::Frames(vec![r#"{"t":"pong"}"#.to_owned()]);
            }
            (wire::ClientMessage::Hello { v }, _) => {
                return Answer::Frames(if v <= self.version() {
                    (v + 1..=self.version())
                        .map(|k| self.render(k, to))
                        .collect()
                } else {
                    vec![self.state(to, now)]
                });
            }
            (_, Recipient::Spectator) => Err(Refusal::new(
                "bad-message",
                "a spectator may send only hello and ping",
            )),
            (wire::ClientMessage::Setup { cells }, Recipient::Seat(side)) => {
                self.submit_setup(side, &cells, now)
            }
            (wire::ClientMessage::Move { mv, ply }, Recipient::Seat(side)) => {
                self.play(side, &mv, ply, now)
            }
            (wire::ClientMessage::Resign, Recipient::Seat(side)) => self.resign(side, now),
            (wire::ClientMessage::Draw, Recipient::Seat(side)) => self.draw(side, now),
        };
        match result {
            Err(refusal) => Answer::Refused(refusal),
            Ok(Change::Resend(v)) => Answer::Frames(vec![self.render(v, to)]),
            Ok(Change::Events(from)) => Answer::Events(from),
        }
    }

    /// What the database holds of this room: [`Room::restore`] makes it again.
    #[must_use]
    pub fn saved(&self) -> Saved {
        Saved {
            spec: self.spec.clone(),
            setups: [0, 1].map(|i| self.setups[i].as_ref().map(|s| s.cell_values().to_vec())),
            events: self.events.clone(),
        }
    }

    /// `side` submits its formation (72 cell values).
    ///
    /// # Errors
    /// `wrong-phase` once the seat has a formation or play has started, `bad-setup` for a
    /// formation the rules refuse (naming what is wrong with it).
    pub fn submit_setup(
        &mut self,
        side: Side,
        cells: &[i64],
        now: Instant,
    ) -> Result<Change, Refusal> {
        if self.game.is_some() {
            return Err(Refusal::new("wrong-phase", "play has started"));
        }
        if self.setups[side.index()].is_some() {
            return Err(Refusal::new("wrong-phase", "your formation is already in"));
        }
        let setup = Setup::from_cell_values(side, self.spec.rules, cells)
            .map_err(|e| Refusal::new("bad-setup", e.to_string()))?;
        let from = self.events.len();
        self.setups[side.index()] = Some(setup);
        self.events.push(Event::Ready { side });
        if self.setups.iter().all(Option::is_some) {
            let first = self.spec.first;
            // Both formations were validated on their own, and they stand in opposite zones.
            self.start_game(first)
                .map_err(|e| Refusal::new("bad-setup", e))?;
            if let Some(clock) = &mut self.clock {
                clock.start(first, now);
            }
            self.events.push(Event::Start {
                first,
                clock: self.clock(now),
            });
            self.follow_bot();
        }
        Ok(Change::Events(from))
    }

    /// `side` plays `text` after `ply` plies.
    ///
    /// # Errors
    /// `bad-message` for text that is no move, `wrong-phase`, `game-over`, `stale-ply`,
    /// `not-your-turn`, `illegal-move`: in that order.
    pub fn play(
        &mut self,
        side: Side,
        text: &str,
        ply: u64,
        now: Instant,
    ) -> Result<Change, Refusal> {
        let mv = Move::from_str(text)
            .map_err(|_| Refusal::new("bad-message", format!("not a move: {text:?}")))?;
        if let Some((last_ply, last_mv, v)) = self.last_move[side.index()]
            && last_ply == ply
            && last_mv == mv
        {
            return Ok(Change::Resend(v));
        }
        let game = self.ongoing_game()?;
        let played = game.history().len() as u64;
        let to_move = game.side_to_move();
        let legal = game.legal_moves().contains(&mv);
        if ply != played {
            return Err(Refusal::new(
                "stale-ply",
                format!("{played} plies have been played, not {ply}"),
            ));
        }
        if to_move != side {
            return Err(Refusal::new(
                "not-your-turn",
                format!("it is {}'s move", side.other()),
            ));
        }
        let from = self.events.len();
        if self.flag_time(now) {
            return Ok(Change::Events(from));
        }
        // Legality depends on the squares only (which the mover sees), never on a rank.
        if !legal {
            return Err(Refusal::new(
                "illegal-move",
                format!("{mv} is not a legal move for {side}"),
            ));
        }
        self.apply_move(side, mv, ply, now);
        Ok(Change::Events(from))
    }

    fn apply_move(&mut self, side: Side, mv: Move, ply: u64, now: Instant) {
        let Some(game) = self.game.as_mut() else {
            return;
        };
        let Ok(report) = game.play(mv) else { return };
        if let Some(clock) = &mut self.clock {
            clock.moved(now);
            if !report.status.is_ongoing() {
                clock.stop(now);
            }
        }
        if self.draw_offer == Some(side.other()) {
            self.draw_offer = None;
        }
        if let Some(BotSeat {
            tracker: Some(tracker),
            ..
        }) = &mut self.bot
        {
            // The bot's tracker follows the game; a report the game made always fits.
            let _ = tracker.observe(&report);
        }
        self.events.push(Event::Ply {
            ply: (ply + 1) as u32,
            side,
            mv,
            outcome: report.outcome,
            status: report.status,
            clock: self.clock(now),
        });
        self.last_move[side.index()] = Some((ply, mv, self.events.len() as u64));
        if !report.status.is_ongoing() {
            self.draw_offer = None;
            self.events.push(Event::Over {
                status: report.status,
            });
        }
    }

    /// `side` resigns.
    ///
    /// # Errors
    /// `wrong-phase` before play, `game-over` after it.
    pub fn resign(&mut self, side: Side, now: Instant) -> Result<Change, Refusal> {
        self.ongoing_game()?;
        let from = self.events.len();
        self.end(DeclaredEnd::Resignation { loser: side }, now);
        Ok(Change::Events(from))
    }

    /// `side` offers a draw, or accepts the opponent's standing offer.
    ///
    /// # Errors
    /// `wrong-phase` before play or while the side's own offer stands, `game-over` after
    /// play.
    pub fn draw(&mut self, side: Side, now: Instant) -> Result<Change, Refusal> {
        self.ongoing_game()?;
        let from = self.events.len();
        match self.draw_offer {
            Some(offer) if offer == side => {
                return Err(Refusal::new(
                    "wrong-phase",
                    "your draw offer already stands",
                ));
            }
            Some(_) => self.end(DeclaredEnd::Agreement, now),
            None => {
                self.draw_offer = Some(side);
                self.events.push(Event::DrawOffer { side });
            }
        }
        Ok(Change::Events(from))
    }

    fn end(&mut self, end: DeclaredEnd, now: Instant) {
        let Some(game) = self.game.as_mut() else {
            return;
        };
        let Ok(status) = game.declare(end) else {
            return;
        };
        if let Some(clock) = &mut self.clock {
            clock.stop(now);
        }
        self.draw_offer = None;
        self.events.push(Event::Over { status });
    }

    fn flag_time(&mut self, now: Instant) -> bool {
        let loser = match (&self.clock, self.phase()) {
            (Some(clock), Phase::Playing) => clock.flagged(now),
            _ => None,
        };
        if let Some(loser) = loser {
            self.end(DeclaredEnd::Time { loser }, now);
        }
        loser.is_some()
    }

    fn abandoned(&self, now: Instant) -> Option<Side> {
        if self.phase() != Phase::Playing {
            return None;
        }
        Side::ALL.into_iter().find(|&side| {
            !self.present(side)
                && self.present(side.other())
                && now >= self.away_since[side.index()] + self.grace
        })
    }

    /// Decides what time has decided by `now`: a loss on time, or by abandonment (a seat
    /// with no socket for the grace while its opponent has one). Returns the new events'
    /// start, if any.
    pub fn expire(&mut self, now: Instant) -> Option<usize> {
        let from = self.events.len();
        if self.flag_time(now) {
            return Some(from);
        }
        let loser = self.abandoned(now)?;
        self.end(DeclaredEnd::Abandoned { loser }, now);
        Some(from)
    }

    /// When [`Room::expire`] next has something to decide (as things stand now).
    #[must_use]
    pub fn deadline(&self) -> Option<Instant> {
        if self.phase() != Phase::Playing {
            return None;
        }
        let flag = self.clock.and_then(|c| c.deadline());
        let away = Side::ALL
            .into_iter()
            .filter(|&side| !self.present(side) && self.present(side.other()))
            .map(|side| self.away_since[side.index()] + self.grace)
            .min();
        flag.into_iter().chain(away).min()
    }

    fn follow_bot(&mut self) {
        let Some(game) = &self.game else { return };
        if let Some(bot) = &mut self.bot
            && bot.tracker.is_none()
        {
            bot.tracker = game.tracker(bot.side).ok();
        }
    }

    /// The bot's turn, if it is the bot's move and it is not already thinking: its tracker
    /// and agent, taken out of the room until [`Room::bot_done`].
    pub fn bot_turn(&mut self) -> Option<BotTurn> {
        let game = self.game.as_ref()?;
        let ply = game.history().len() as u64;
        let bot = self.bot.as_mut()?;
        if !game.status().is_ongoing() || game.side_to_move() != bot.side {
            return None;
        }
        let tracker = bot.tracker.take()?;
        let seed = self.spec.bot_seed ^ ply.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        Some(BotTurn {
            side: bot.side,
            ply,
            agent: bot.kind.build(seed, self.bot_budget),
            tracker,
        })
    }

    /// The bot chose `mv` for `ply`: played if the game is still at that ply (it may have
    /// ended meanwhile). Returns the new events' start, if any.
    pub fn bot_done(
        &mut self,
        side: Side,
        ply: u64,
        tracker: Tracker,
        mv: Option<Move>,
        now: Instant,
    ) -> Option<usize> {
        if let Some(bot) = &mut self.bot {
            bot.tracker = Some(tracker);
        }
        let mv = mv?;
        match self.play(side, &mv.to_string(), ply, now) {
            Ok(Change::Events(from)) => Some(from),
            _ => None,
        }
    }

    /// The event with version `v` as `to` receives it.
    ///
    /// # Panics
    /// If there is no such event (`v` is `1 ..= version()`).
    #[must_use]
    pub fn render(&self, v: u64, to: Recipient) -> String {
        let event = &self.events[(v - 1) as usize];
        let frame = match event {
            Event::Ready { side } => json!({"t": "ready", "v": v, "side": wire::side(*side)}),
            Event::Start { first, clock } => json!({
                "t": "start",
                "v": v,
                "first": wire::side(*first),
                "view": self.start_view(to),
                "clock": wire::clock(*clock),
            }),
            Event::Ply {
                ply,
                side,
                mv,
                outcome,
                status,
                clock,
            } => json!({
                "t": "ply",
                "v": v,
                "ply": ply,
                "side": wire::side(*side),
                "move": mv.to_string(),
                "challenge": outcome.is_some(),
                "outcome": outcome.map(Outcome::name),
                "status": wire::status(*status),
                "clock": wire::clock(*clock),
            }),
            Event::DrawOffer { side } => {
                json!({"t": "draw-offer", "v": v, "side": wire::side(*side)})
            }
            Event::Over { status } => json!({
                "t": "over",
                "v": v,
                "status": wire::status(*status),
                "record": self.record(),
            }),
        };
        frame.to_string()
    }

    fn start_view(&self, to: Recipient) -> Value {
        let (Some(white), Some(black)) = (&self.setups[0], &self.setups[1]) else {
            return Value::Null;
        };
        let Ok(start) = Game::new(
            white.clone(),
            black.clone(),
            self.spec.first,
            self.spec.rules,
        ) else {
            return Value::Null;
        };
        match to.side() {
            Some(side) => wire::seat_view(&start.view(side)),
            None => wire::public_view(&start.public_view()),
        }
    }

    /// The `state` message for `to` at `now`.
    #[must_use]
    pub fn state(&self, to: Recipient, now: Instant) -> String {
        let view = match (&self.game, to.side()) {
            (Some(game), Some(side)) => wire::seat_view(&game.view(side)),
            (Some(game), None) => wire::public_view(&game.public_view()),
            (None, Some(side)) => self.setups[side.index()]
                .as_ref()
                .map_or(Value::Null, wire::formation_view),
            (None, None) => Value::Null,
        };
        let presence: serde_json::Map<String, Value> = Side::ALL
            .into_iter()
            .map(|side| (side.word().to_owned(), Value::from(self.present(side))))
            .collect();
        json!({
            "t": "state",
            "v": self.version(),
            "side": to.side().map(Side::word),
            "phase": self.phase().word(),
            "view": view,
            "status": wire::status(self.status()),
            "clock": wire::clock(self.clock(now)),
            "draw_offer": self.draw_offer.map(Side::word),
            "presence": presence,
            "rules": wire::rules(self.spec.rules),
        })
        .to_string()
    }

    /// The reply to `GET /api/games/{id}` at `now`.
    #[must_use]
    pub fn summary(&self, now: Instant) -> Value {
        let players: serde_json::Map<String, Value> = Side::ALL
            .into_iter()
            .map(|side| {
                let word = match self.spec.players[side.index()] {
                    Player::Human => "human",
                    Player::Bot(_) => "bot",
                };
                (side.word().to_owned(), Value::from(word))
            })
            .collect();
        json!({
            "game": self.spec.id,
            "phase": self.phase().word(),
            "ply": self.ply(),
            "status": wire::status(self.status()),
            "clock": wire::clock(self.clock(now)),
            "players": players,
            "rules": wire::rules(self.spec.rules),
            "first": self.spec.first.word(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(players: [Player; 2], clock: Option<ClockSettings>) -> Spec {
        Spec {
            id: "g".into(),
            rules: Rules::default(),
            first: Side::White,
            players,
            clock,
            tokens: [None, None],
            invite: None,
            bot_seed: 5,
        }
    }

    fn cells(side: Side, seed: u64) -> Vec<i64> {
        Setup::random(side, Rules::default(), seed)
            .cell_values()
            .iter()
            .map(|&c| i64::from(c))
            .collect()
    }

    fn started(clock: Option<ClockSettings>, now: Instant) -> Room {
        let mut room = Room::new(
            spec([Player::Human; 2], clock),
            Duration::from_secs(60),
            100,
            now,
        );
        room.submit_setup(Side::White, &cells(Side::White, 1), now)
            .unwrap();
        room.submit_setup(Side::Black, &cells(Side::Black, 2), now)
            .unwrap();
        room
    }

    #[test]
    fn refusals_change_nothing() {
        let now = Instant::now();
        let mut room = started(None, now);
        let before = (
            room.version(),
            room.state(Recipient::Seat(Side::White), now),
        );
        let game = room.game.clone().unwrap();
        let mv = game.legal_moves()[0].to_string();
        let black_mv = game.legal_moves()[0].to_string();
        for (side, text, ply, code) in [
            (Side::White, "zz", 0, "bad-message"),
            (Side::White, mv.as_str(), 1, "stale-ply"),
            (Side::Black, black_mv.as_str(), 0, "not-your-turn"),
            (Side::White, "a1-a8", 0, "illegal-move"),
        ] {
            assert_eq!(room.play(side, text, ply, now).unwrap_err().code, code);
        }
        assert_eq!(
            room.submit_setup(Side::White, &cells(Side::White, 3), now)
                .unwrap_err()
                .code,
            "wrong-phase"
        );
        assert_eq!(
            (
                room.version(),
                room.state(Recipient::Seat(Side::White), now)
            ),
            before
        );
        assert_eq!(room.game.as_ref(), Some(&game));
    }

    #[test]
    fn a_resent_move_is_answered_with_its_event_and_not_played_again() {
        let now = Instant::now();
        let mut room = started(None, now);
        let mv = room.game.as_ref().unwrap().legal_moves()[0].to_string();
        assert_eq!(room.play(Side::White, &mv, 0, now), Ok(Change::Events(3)));
        assert_eq!(room.play(Side::White, &mv, 0, now), Ok(Change::Resend(4)));
        assert_eq!(room.ply(), 1);
    }

    #[test]
    fn an_offer_stands_until_the_opponent_moves() {
        let now = Instant::now();
        let mut room = started(None, now);
        room.draw(Side::White, now).unwrap();
        assert_eq!(room.draw(Side::White, now).unwrap_err().code, "wrong-phase");
        let mv = room.game.as_ref().unwrap().legal_moves()[0].to_string();
        room.play(Side::White, &mv, 0, now).unwrap();
        assert_eq!(
            room.draw_offer,
            Some(Side::White),
            "the offerer's own move keeps it"
        );
        let mv = room.game.as_ref().unwrap().legal_moves()[0].to_string();
        room.play(Side::Black, &mv, 1, now).unwrap();
        assert_eq!(room.draw_offer, None, "the opponent's move declines it");
        room.draw(Side::Black, now).unwrap();
        room.draw(Side::White, now).unwrap();
        assert_eq!(room.status().reason_token(), Some("agreement"));
    }

    #[test]
    fn time_and_absence_are_decided_by_the_room() {
        let t0 = Instant::now();
        let settings = ClockSettings {
            initial_ms: 1_000,
            increment_ms: 0,
        };
        let mut room = started(Some(settings), t0);
        assert_eq!(room.deadline(), Some(t0 + Duration::from_millis(1_000)));
        assert_eq!(room.expire(t0 + Duration::from_millis(999)), None);
        assert!(room.expire(t0 + Duration::from_millis(1_000)).is_some());
        assert_eq!(room.status().reason_token(), Some("time"));
        assert_eq!(room.status().winner(), Some(Side::Black));

        let mut room = started(None, t0);
        assert_eq!(room.deadline(), None, "nobody is present: nobody is away");
        room.connect(Side::Black);
        assert_eq!(room.deadline(), Some(t0 + Duration::from_secs(60)));
        assert!(room.expire(t0 + Duration::from_secs(60)).is_some());
        assert_eq!(room.status().reason_token(), Some("abandoned"));
        assert_eq!(room.status().winner(), Some(Side::Black));
    }

    #[test]
    fn a_restored_room_is_the_room() {
        let now = Instant::now();
        let mut room = started(None, now);
        for ply in 0..40 {
            let game = room.game.as_ref().unwrap();
            let side = game.side_to_move();
            let mv = game.legal_moves()[(ply * 7) % game.legal_moves().len()].to_string();
            room.play(side, &mv, ply as u64, now).unwrap();
        }
        room.draw(Side::White, now).unwrap();
        let back = Room::restore(room.saved(), Duration::from_secs(60), 100, now).unwrap();
        for to in [
            Recipient::Seat(Side::White),
            Recipient::Seat(Side::Black),
            Recipient::Spectator,
        ] {
            assert_eq!(back.state(to, now), room.state(to, now));
            for v in 1..=room.version() {
                assert_eq!(back.render(v, to), room.render(v, to));
            }
        }
        assert_eq!(back.last_move, room.last_move);
    }
}
