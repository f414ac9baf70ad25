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

mod bot;
mod data;
mod render;

pub use data::{Answer, BotTurn, Change, Event, Phase, Player, Recipient, Saved, Spec};

use core::str::FromStr;

use salpakan::{DeclaredEnd, Game, Move, Setup, Side, Status};
use tokio::time::{Duration, Instant};

use crate::clock::{Clock, Reading};
use crate::wire::{self, Refusal};
use data::BotSeat;

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
    /// When a game still in its setup phase expires ([`Room::expire_setup`]).
    setup_deadline: Option<Instant>,
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
            setup_deadline: None,
        }
    }

    /// Sets when the game expires if it has not started by then: `expiry` after its
    /// creation (`Spec::created_ms`), reckoned from the wall clock's `wall_ms` at `now`. A
    /// creation stamped in the future counts as now.
    pub fn expire_setup(&mut self, expiry: Duration, wall_ms: u64, now: Instant) {
        let age = Duration::from_millis(wall_ms.saturating_sub(self.spec.created_ms));
        self.setup_deadline = Some(now + expiry.saturating_sub(age));
    }

    /// Whether the game is still in its setup phase at its expiry ([`Room::expire_setup`]):
    /// it is to be deleted.
    #[must_use]
    pub fn setup_expired(&self, now: Instant) -> bool {
        self.phase() == Phase::Setup && self.setup_deadline.is_some_and(|at| now >= at)
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

    /// What the database holds of this room: [`Room::restore`] makes it again. (The room does
    /// not know its creator's address: `creator` is `None`.)
    #[must_use]
    pub fn saved(&self) -> Saved {
        Saved {
            spec: self.spec.clone(),
            setups: [0, 1].map(|i| self.setups[i].as_ref().map(|s| s.cell_values().to_vec())),
            events: self.events.clone(),
            creator: None,
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

    /// When [`Room::expire`] (or, in the setup phase, [`Room::setup_expired`]) next has
    /// something to decide, as things stand now.
    #[must_use]
    pub fn deadline(&self) -> Option<Instant> {
        match self.phase() {
            Phase::Setup => return self.setup_deadline,
            Phase::Over => return None,
            Phase::Playing => {}
        }
        let flag = self.clock.and_then(|c| c.deadline());
        let away = Side::ALL
            .into_iter()
            .filter(|&side| !self.present(side) && self.present(side.other()))
            .map(|side| self.away_since[side.index()] + self.grace)
            .min();
        flag.into_iter().chain(away).min()
    }
}

#[cfg(test)]
mod tests;
