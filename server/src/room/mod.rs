//! One game as the server holds it: the seats, the formations, the arbiter's [`Game`], the
//! clock, the standing draw offer, presence, and the game's numbered events. A [`Room`] is a
//! plain state machine with no I/O, in the shape of an event-sourced aggregate: each request
//! is a [`Command`], [`Room::decide`]d into [`Event`]s (or refused with a [`Refusal`],
//! changing nothing), and `Room::apply` is the one place an event changes the room;
//! [`Room::restore`] folds `apply` over the stored events. The async layer
//! (`crate::services::games`) commits new events to the database before anyone hears of them.
//!
//! What leaves a room towards a client is built by [`Room::render`] and [`Room::state`] from
//! the recipient's [`View`](salpakan::View) (or the [`PublicView`](salpakan::PublicView))
//! and the public events; the formations of the two seats are only revealed in the game
//! record of the `over` event.

mod bot;
mod event;
mod presence;
mod render;
mod spec;

pub(crate) use bot::BotTurn;
pub use event::End;
pub use event::Event;
#[cfg(test)]
use presence::BOTH_AWAY;
pub use spec::{Player, Spec};
pub(crate) use spec::{Saved, SavedChat};

pub use crate::wire::Phase;

use std::sync::Arc;

use salpakan::commitment::Commitment;
use salpakan::{DeclaredEnd, Game, Move, Setup, Side, Status};
use thiserror::Error;
use tokio::time::{Duration, Instant};

use crate::clock::{Clock, Reading};
use crate::wire::{AbortReason, Code, Refusal, ServerMessage};
use bot::BotSeat;
use presence::Presence;

/// Who a message is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Recipient {
    /// A seat.
    Seat(Side),
    /// A spectator.
    Spectator,
}

impl Recipient {
    /// The seat's side; `None` for a spectator.
    #[must_use]
    pub fn side(self) -> Option<Side> {
        match self {
            Recipient::Seat(side) => Some(side),
            Recipient::Spectator => None,
        }
    }
}

/// A request that may change the game, from a seat (or the seat's bot).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `side` submits its formation, 72 cell values.
    Setup {
        /// The seat.
        side: Side,
        /// The cells, indexed by square.
        cells: Vec<i64>,
    },
    /// `side` plays `mv` after `ply` plies.
    Move {
        /// The seat.
        side: Side,
        /// The move.
        mv: Move,
        /// Plies already played when it was chosen.
        ply: u64,
    },
    /// `side` resigns.
    Resign {
        /// The seat.
        side: Side,
    },
    /// `side` offers a draw, or accepts the opponent's standing offer.
    Draw {
        /// The seat.
        side: Side,
    },
    /// `side` calls the game off (until the first ply).
    Abort {
        /// The seat.
        side: Side,
    },
    /// After the end, `side` asks for a rematch (or accepts the opponent's standing request).
    Rematch {
        /// The seat.
        side: Side,
    },
}

impl Command {
    /// The seat that sent it.
    #[must_use]
    pub fn side(&self) -> Side {
        match *self {
            Command::Setup { side, .. }
            | Command::Move { side, .. }
            | Command::Resign { side }
            | Command::Draw { side }
            | Command::Abort { side }
            | Command::Rematch { side } => side,
        }
    }
}

/// How long a rematch offer stands.
/// Plies each side makes before a rated game counts (the contract's "unrated until played").
pub const PLIES_TO_COUNT: usize = 2;

pub(crate) const REMATCH_LAPSE: Duration = Duration::from_secs(5 * 60);

/// What a request decides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// These new events, to apply, commit and send.
    Events(Vec<Event>),
    /// The seat's last move sent again: the event with this version answers it, nothing else
    /// happens.
    Resend(u64),
    /// A seat asks again for its seat in the rematch already made: the hub gives it one.
    Rematch(Side),
}

/// How a request changed a room.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// New events were appended from this index of [`Room::events`].
    Events(usize),
    /// The seat's last move sent again: the event with this version answers it.
    Resend(u64),
    /// A seat asks again for its seat in the rematch already made.
    Rematch(Side),
}

/// What a `hello` from a socket with the events up to some version gets ([`Room::since`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Catchup {
    /// The later events' frames (rendered once, shared).
    Frames(Vec<Arc<str>>),
    /// A fresh `state`: the version asked for is past the latest.
    State(ServerMessage),
}

/// A stored game that does not fit the rules: it cannot be restored.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RestoreError {
    /// A stored formation the rules refuse.
    #[error("{side}'s formation: {reason}")]
    Formation {
        /// Whose.
        side: Side,
        /// What is wrong with it.
        reason: String,
    },
    /// An event that cannot follow the ones before it.
    #[error("event {v}: {reason}")]
    Event {
        /// Its version.
        v: u64,
        /// Why it does not fit.
        reason: String,
    },
}

/// One game.
pub struct Room {
    spec: Spec,
    setups: [Option<Setup>; 2],
    game: Option<Game>,
    /// Each side's formation commitment, from the start on (for a game with salts).
    commitments: Option<[Commitment; 2]>,
    events: Vec<Event>,
    /// Each event's frame, rendered once when it was applied (a replay only copies them).
    frames: Vec<render::Frame>,
    clock: Option<Clock>,
    draw_offer: Option<Side>,
    /// Each side's last move: its `ply` field, the move, and the version of its event.
    last_move: [Option<(u64, Move, u64)>; 2],
    presence: Presence,
    bot: Option<BotSeat>,
    bot_budget: u32,
    /// When a game whose seats are not both taken expires ([`Room::expire_setup`]).
    setup_deadline: Option<Instant>,
    /// When the setup time runs out, once both seats are taken ([`Room::expire_setup`]).
    abort_at: Option<Instant>,
    /// Why and by whom the game was aborted, if it was.
    aborted: Option<(AbortReason, Side)>,
    /// Each side's standing rematch offer, since when.
    rematch_offers: [Option<Instant>; 2],
    /// The rematch's id, once it was made.
    rematched: Option<String>,
    /// Since when the side to move has been to move (an absence counts only from then).
    turn_since: Instant,
    /// The server's pauses already taken out of the clock and the absences.
    absorbed: Duration,
}

impl Room {
    /// A new game. A bot seat submits its formation at once (the `ready` event, version 1).
    #[must_use]
    pub fn new(spec: Spec, grace: Duration, bot_budget: u32, now: Instant) -> Room {
        let mut room = Room::empty(spec, grace, bot_budget, now);
        if let Some((side, kind)) = room.bot.as_ref().map(|bot| (bot.side, bot.kind)) {
            let seed = crate::secret::derive(room.spec.bot_seed, bot::FORMATION, 0);
            // The bot's own way to deploy: the levels like people, the agents uniformly.
            let formation = kind
                .build(seed, room.bot_budget)
                .deploy(side, room.spec.rules, seed);
            room.apply(
                Event::Ready {
                    side,
                    formation: Some(formation),
                },
                now,
            );
        }
        room
    }

    fn empty(spec: Spec, grace: Duration, bot_budget: u32, now: Instant) -> Room {
        Room {
            clock: spec.clock.map(|settings| Clock::new(settings, now)),
            presence: Presence::new(spec.players, grace, now),
            bot: BotSeat::of(&spec),
            spec,
            setups: [None, None],
            game: None,
            commitments: None,
            events: Vec::new(),
            frames: Vec::new(),
            draw_offer: None,
            last_move: [None, None],
            bot_budget,
            setup_deadline: None,
            abort_at: None,
            aborted: None,
            rematch_offers: [None, None],
            rematched: None,
            turn_since: now,
            absorbed: Duration::ZERO,
        }
    }

    /// A room as the database left it: the stored formations put back on their `ready`
    /// events, each event checked against the room so far and applied, the clock resumed
    /// from its last reading at `now` (time while the server was down is charged to nobody).
    ///
    /// # Errors
    /// [`RestoreError`] if the stored game is not one the rules allow.
    pub fn restore(
        saved: Saved,
        grace: Duration,
        bot_budget: u32,
        now: Instant,
    ) -> Result<Room, RestoreError> {
        let mut room = Room::empty(saved.spec, grace, bot_budget, now);
        let mut formations = [None, None];
        for side in Side::ALL {
            if let Some(cells) = &saved.setups[side.index()] {
                let setup = Setup::from_cell_values(side, room.spec.rules, cells).map_err(|e| {
                    RestoreError::Formation {
                        side,
                        reason: e.to_string(),
                    }
                })?;
                formations[side.index()] = Some(setup);
            }
        }
        for mut event in saved.events {
            if let Event::Ready { side, formation } = &mut event {
                *formation = formations[side.index()].take();
            }
            let v = room.version() + 1;
            room.check(&event)
                .map_err(|reason| RestoreError::Event { v, reason })?;
            room.apply(event, now);
        }
        Ok(room)
    }

    /// Whether a stored `event` can follow the room's events: what [`Room::decide`] makes
    /// sure of for a new one.
    fn check(&self, event: &Event) -> Result<(), String> {
        match event {
            Event::Ready { side, formation } => match formation {
                None => Err(format!("{side} is ready without a formation")),
                Some(setup) if setup.side() != *side => {
                    Err(format!("{side}'s formation is the other side's"))
                }
                Some(_) if self.setups[side.index()].is_some() => {
                    Err(format!("{side} is ready twice"))
                }
                Some(_) => Ok(()),
            },
            Event::Start { first, .. } => {
                let (Some(white), Some(black)) = (&self.setups[0], &self.setups[1]) else {
                    return Err("the game starts with both formations".into());
                };
                if self.game.is_some() {
                    return Err("the game starts twice".into());
                }
                Game::new(white.clone(), black.clone(), *first, self.spec.rules)
                    .map(drop)
                    .map_err(|e| e.to_string())
            }
            Event::Ply {
                ply,
                side,
                mv,
                outcome,
                status,
                ..
            } => {
                let game = self.game.as_ref().ok_or("a ply before the start")?;
                if game.side_to_move() != *side || u64::from(*ply) != self.ply() + 1 {
                    return Err(format!("ply {ply} by {side} out of order"));
                }
                let mut position = *game.position();
                let report = position.play(*mv).map_err(|e| e.to_string())?;
                if report.outcome != *outcome || report.status != *status {
                    return Err("the replay differs".into());
                }
                Ok(())
            }
            Event::DrawOffer { .. } => self.ongoing_game().map(drop).map_err(|r| r.message),
            Event::Aborted { .. } => self.abortable().map_err(|r| r.message),
            Event::RematchOffer { .. } => {
                if self.phase() == Phase::Over && self.rematched.is_none() {
                    Ok(())
                } else {
                    Err("a rematch offer outside the end".into())
                }
            }
            Event::Rematched { .. } => {
                if self.phase() == Phase::Over && self.rematched.is_none() {
                    Ok(())
                } else {
                    Err("a rematch made twice, or before the end".into())
                }
            }
            Event::Over { status, .. } => {
                let game = self.game.as_ref().ok_or("the end before the start")?;
                if game.status().is_ongoing() {
                    let end = DeclaredEnd::of(*status).ok_or("an end no one declares")?;
                    let mut position = *game.position();
                    position.declare(end).map_err(|e| e.to_string())?;
                    return Ok(());
                }
                if game.status() == *status {
                    Ok(())
                } else {
                    Err("the end differs".into())
                }
            }
        }
    }

    /// Changes the room as `event` says: the one mutator of the game's state. The event was
    /// decided from this room ([`Room::decide`]) or checked against it ([`Room::restore`]).
    /// A clock reading in the event becomes the clock from `now`.
    pub(crate) fn apply(&mut self, event: Event, now: Instant) {
        match &event {
            Event::Ready { side, formation } => {
                self.setups[side.index()].clone_from(formation);
            }
            Event::Start { first, clock } => {
                if let (Some(white), Some(black)) = (&self.setups[0], &self.setups[1]) {
                    self.game =
                        Game::new(white.clone(), black.clone(), *first, self.spec.rules).ok();
                    self.commit_formations();
                }
                self.set_clock(*clock, now);
                self.turn_since = now;
                self.follow_bot();
            }
            Event::Ply {
                side, mv, clock, ..
            } => {
                let Some(report) = self.game.as_mut().and_then(|game| game.play(*mv).ok()) else {
                    return;
                };
                if self.draw_offer == Some(side.other()) {
                    self.draw_offer = None;
                }
                self.bot_observes(&report);
                let ply = self.ply() - 1;
                self.last_move[side.index()] = Some((ply, *mv, self.version() + 1));
                self.set_clock(*clock, now);
                self.turn_since = now;
            }
            Event::DrawOffer { side } => self.draw_offer = Some(*side),
            Event::RematchOffer { side } => self.rematch_offers[side.index()] = Some(now),
            Event::Rematched { game } => self.rematched = Some(game.clone()),
            Event::Aborted { reason, side } => {
                self.aborted = Some((*reason, *side));
                self.draw_offer = None;
                if let Some(clock) = &mut self.clock {
                    clock.stop(now);
                }
            }
            Event::Over { status, clock } => {
                if let (Some(game), Some(end)) = (self.game.as_mut(), DeclaredEnd::of(*status))
                    && game.status().is_ongoing()
                {
                    let _ = game.declare(end);
                }
                // The end opens the commitments: the salts go into the record, beside the
                // formations it always carried. (An aborted game has no `over`: its salts
                // are never released.)
                if let (Some(game), Some(salts)) = (self.game.as_mut(), &self.spec.salts) {
                    for side in Side::ALL {
                        game.open_commitment(side, &salts[side.index()]);
                    }
                }
                self.draw_offer = None;
                self.set_clock(*clock, now);
                if let Some(clock) = &mut self.clock {
                    clock.stop(now);
                }
            }
        }
        self.events.push(event);
        let frame = self.render_frame(self.version());
        self.frames.push(frame);
    }

    /// At the start, each side's commitment from its formation and salt: kept for the
    /// frames and written into the game's tags (the record carries them).
    fn commit_formations(&mut self) {
        let (Some(salts), Some(game)) = (&self.spec.salts, self.game.as_mut()) else {
            return;
        };
        let white = game.commit(Side::White, &salts[0]);
        let black = game.commit(Side::Black, &salts[1]);
        self.commitments = white.ok().zip(black.ok()).map(|(w, b)| [w, b]);
    }

    /// The clock from `reading` at `now`, if the event has one.
    fn set_clock(&mut self, reading: Option<Reading>, now: Instant) {
        if let (Some(clock), Some(reading)) = (&mut self.clock, reading) {
            *clock = Clock::resume(clock.settings(), reading, now);
        }
    }

    /// What `command` decides at `now`, changing nothing.
    ///
    /// # Errors
    /// The [`Refusal`] of a request the rules or the phase refuse.
    pub fn decide(&self, command: &Command, now: Instant) -> Result<Decision, Refusal> {
        match *command {
            Command::Setup { side, ref cells } => self.decide_setup(side, cells, now),
            Command::Move { side, mv, ply } => self.decide_move(side, mv, ply, now),
            Command::Resign { side } => {
                self.ongoing_game()?;
                Ok(self.declared(DeclaredEnd::Resignation { loser: side }, now))
            }
            Command::Draw { side } => {
                self.ongoing_game()?;
                Ok(match self.draw_offer {
                    Some(offer) if offer == side => {
                        return Err(Refusal::new(
                            Code::WrongPhase,
                            "your draw offer already stands",
                        ));
                    }
                    Some(_) => self.declared(DeclaredEnd::Agreement, now),
                    None => Decision::Events(vec![Event::DrawOffer { side }]),
                })
            }
            Command::Rematch { side } => self.decide_rematch(side, now),
            Command::Abort { side } => {
                self.abortable()?;
                Ok(Decision::Events(vec![Event::Aborted {
                    reason: AbortReason::Abort,
                    side,
                }]))
            }
        }
    }

    /// A rematch asked for by `side` at `now`: its offer (and at once a bot opponent's), or,
    /// once the rematch is made, the seat's place in it again.
    fn decide_rematch(&self, side: Side, now: Instant) -> Result<Decision, Refusal> {
        if self.spec.sealed {
            return Err(Refusal::new(
                Code::WrongPhase,
                "a tournament's game has no rematch: its next game is the next round's",
            ));
        }
        if self.phase() != Phase::Over {
            return Err(Refusal::new(
                Code::WrongPhase,
                "a rematch is asked for after the end",
            ));
        }
        if self.rematched.is_some() {
            return Ok(Decision::Rematch(side));
        }
        if self.offer_stands(side, now) {
            return Err(Refusal::new(Code::WrongPhase, "your rematch offer stands"));
        }
        let mut events = vec![Event::RematchOffer { side }];
        let other = side.other();
        if matches!(self.spec.players[other.index()], Player::Bot(_))
            && !self.offer_stands(other, now)
        {
            // A server bot accepts at once.
            events.push(Event::RematchOffer { side: other });
        }
        Ok(Decision::Events(events))
    }

    /// Whether `side`'s rematch offer stands at `now` (made, not lapsed).
    fn offer_stands(&self, side: Side, now: Instant) -> bool {
        self.rematch_offers[side.index()]
            .is_some_and(|at| now.saturating_duration_since(at) < REMATCH_LAPSE)
    }

    /// Whether both seats' rematch offers stand at `now` and the rematch is still to be made.
    #[must_use]
    pub(crate) fn rematch_due(&self, now: Instant) -> bool {
        self.rematched.is_none() && Side::ALL.into_iter().all(|s| self.offer_stands(s, now))
    }

    /// The rematch's id, once it was made.
    #[must_use]
    pub(crate) fn rematched(&self) -> Option<&str> {
        self.rematched.as_deref()
    }

    /// Whether the game may still be aborted: not ended, and its first ply not played.
    fn abortable(&self) -> Result<(), Refusal> {
        self.not_ended()?;
        if self.ply() > 0 {
            return Err(Refusal::new(
                Code::WrongPhase,
                "a game can be aborted only before its first ply",
            ));
        }
        Ok(())
    }

    /// `game-over` for a game that ended or was aborted.
    fn not_ended(&self) -> Result<(), Refusal> {
        if self.aborted.is_some() {
            return Err(Refusal::new(Code::GameOver, "the game was aborted"));
        }
        match &self.game {
            Some(game) if !game.status().is_ongoing() => Err(Refusal::new(
                Code::GameOver,
                format!("the game is over ({})", game.status()),
            )),
            _ => Ok(()),
        }
    }

    /// Decides `command` at `now` and applies what it decides.
    ///
    /// # Errors
    /// The [`Refusal`] of a request the rules or the phase refuse; nothing changed.
    pub fn execute(&mut self, command: &Command, now: Instant) -> Result<Change, Refusal> {
        Ok(match self.decide(command, now)? {
            Decision::Resend(v) => Change::Resend(v),
            Decision::Rematch(side) => Change::Rematch(side),
            Decision::Events(events) => Change::Events(self.apply_all(events, now)),
        })
    }

    /// Applies `events`; returns the index of the first.
    fn apply_all(&mut self, events: Vec<Event>, now: Instant) -> usize {
        let from = self.events.len();
        for event in events {
            self.apply(event, now);
        }
        from
    }

    fn decide_setup(&self, side: Side, cells: &[i64], now: Instant) -> Result<Decision, Refusal> {
        self.not_ended()?;
        if self.game.is_some() {
            return Err(Refusal::new(Code::WrongPhase, "play has started"));
        }
        if self.setups[side.index()].is_some() {
            return Err(Refusal::new(
                Code::WrongPhase,
                "your formation is already in",
            ));
        }
        let formation = Setup::from_cell_values(side, self.spec.rules, cells)
            .map_err(|e| Refusal::new(Code::BadSetup, e.to_string()))?;
        let mut events = vec![Event::Ready {
            side,
            formation: Some(formation),
        }];
        if self.setups[side.other().index()].is_some() {
            // Both formations were validated on their own, and they stand in opposite zones.
            let first = self.spec.first;
            let clock = self.clock.map(|mut clock| {
                clock.start(first, now);
                clock.reading(now)
            });
            events.push(Event::Start { first, clock });
        }
        Ok(Decision::Events(events))
    }

    /// `wrong-phase`, `game-over`, `stale-ply`, `not-your-turn`, `illegal-move`: in that order.
    /// A move at or after the mover's time ran out ends the game on time instead.
    fn decide_move(
        &self,
        side: Side,
        mv: Move,
        ply: u64,
        now: Instant,
    ) -> Result<Decision, Refusal> {
        if let Some((last_ply, last_mv, v)) = self.last_move[side.index()]
            && last_ply == ply
            && last_mv == mv
        {
            return Ok(Decision::Resend(v));
        }
        let game = self.ongoing_game()?;
        let played = self.ply();
        if ply != played {
            return Err(Refusal::new(
                Code::StalePly,
                format!("{played} plies have been played, not {ply}"),
            ));
        }
        if game.side_to_move() != side {
            return Err(Refusal::new(
                Code::NotYourTurn,
                format!("it is {}'s move", side.other()),
            ));
        }
        if let Some(timeout) = self.flag_fall(now) {
            return Ok(timeout);
        }
        // Legality depends on the squares only (which the mover sees), never on a rank.
        let mut position = *game.position();
        let Ok(report) = position.play(mv) else {
            return Err(Refusal::new(
                Code::IllegalMove,
                format!("{mv} is not a legal move for {side}"),
            ));
        };
        let clock = self.clock.map(|mut clock| {
            clock.moved(now);
            if !report.status.is_ongoing() {
                clock.stop(now);
            }
            clock.reading(now)
        });
        let mut events = vec![Event::Ply {
            ply: u32::try_from(ply + 1).unwrap_or(u32::MAX),
            side,
            mv,
            outcome: report.outcome,
            status: report.status,
            clock,
        }];
        if !report.status.is_ongoing() {
            events.push(Event::Over {
                status: report.status,
                clock,
            });
        }
        Ok(Decision::Events(events))
    }

    /// The `over` event of a declared end at `now`, the clock stopped.
    fn declared(&self, end: DeclaredEnd, now: Instant) -> Decision {
        let clock = self.clock.map(|mut clock| {
            clock.stop(now);
            clock.reading(now)
        });
        Decision::Events(vec![Event::Over {
            status: end.status(),
            clock,
        }])
    }

    /// The loss on time due at `now`, if the side to move's time has run out.
    fn flag_fall(&self, now: Instant) -> Option<Decision> {
        if self.phase() != Phase::Playing {
            return None;
        }
        let loser = self.clock?.flagged(now)?;
        Some(self.declared(DeclaredEnd::Time { loser }, now))
    }

    /// The server's pauses so far total `paused`: what of them is new is charged to nobody,
    /// the running clock and every absence moved on by it (never past `now`).
    pub(crate) fn absorb_pauses(&mut self, paused: Duration, now: Instant) {
        let new = paused.saturating_sub(self.absorbed);
        if new.is_zero() {
            return;
        }
        self.absorbed = paused;
        if let Some(clock) = &mut self.clock {
            clock.forgive(new, now);
        }
        self.presence.forgive(new, now);
        if let Some(at) = &mut self.abort_at {
            *at += new;
        }
        self.turn_since = (self.turn_since + new).min(now).max(self.turn_since);
    }

    /// The side to move, and since when, while the game is played.
    fn turn(&self) -> Option<(Side, Instant)> {
        let game = self
            .game
            .as_ref()
            .filter(|_| self.phase() == Phase::Playing)?;
        Some((game.side_to_move(), self.turn_since))
    }

    /// The events from index `from` were committed and sent at `now`: a clock they started
    /// (the start, a ply) runs from `now`, so that the commit's delay is charged to nobody.
    pub fn sent(&mut self, from: usize, now: Instant) {
        let restarted = self.events[from..]
            .iter()
            .any(|e| matches!(e, Event::Start { .. } | Event::Ply { .. }));
        if restarted {
            self.turn_since = self.turn_since.max(now);
        }
        if let (true, Some(clock)) = (restarted, &mut self.clock) {
            clock.start_over_at(now);
        }
    }

    /// The game's spec.
    #[must_use]
    pub fn spec(&self) -> &Spec {
        &self.spec
    }

    /// Records that `side`'s seat is now held by a token whose digest is `token`, by the
    /// player `name` (or anonymously); when that takes the last open seat, at `wall_ms`
    /// (milliseconds since the Unix epoch), the setup time starts running from `now`.
    pub(crate) fn take_seat(
        &mut self,
        side: Side,
        token: String,
        name: Option<String>,
        wall_ms: u64,
        now: Instant,
    ) {
        self.spec.tokens[side.index()] = Some(token);
        self.spec.names[side.index()] = name;
        if self.spec.seated_ms.is_none() && self.spec.all_seated() {
            self.spec.seated_ms = Some(wall_ms);
            self.expire_setup(Duration::ZERO, wall_ms, now);
        }
    }

    /// Marks whether `side`'s named player is a bot account (its seat is shown as a bot's,
    /// and its moves keep the bots' think-time floor).
    pub(crate) fn mark_bot_account(&mut self, side: Side, bot: bool) {
        self.spec.bot_accounts[side.index()] = bot;
    }

    /// When the side to move began its turn (the last ply, or the start, sent), with the
    /// pauses taken out: a bot account's move is applied no sooner than the floor after it.
    #[must_use]
    pub(crate) fn turn_since(&self) -> Instant {
        self.turn_since
    }

    /// The game is played unrated from now on, for `why` (a bound of rated games was reached
    /// when its second seat was taken).
    pub(crate) fn unrate(&mut self, why: crate::wire::Unrated) {
        self.spec.rated = false;
        self.spec.unrated = Some(why);
    }

    /// Plies made by each side so far, White's first.
    #[must_use]
    pub fn plies_made(&self) -> [usize; 2] {
        let mut made = [0; 2];
        for event in &self.events {
            if let Event::Ply { side, .. } = event {
                made[side.index()] += 1;
            }
        }
        made
    }

    /// Whether each side has made [`PLIES_TO_COUNT`] plies: a rated game ended sooner is
    /// not rated (the contract's "unrated until played").
    #[must_use]
    pub fn played_enough(&self) -> bool {
        self.plies_made().iter().all(|&n| n >= PLIES_TO_COUNT)
    }

    /// Why the game, asked rated, is not rated: decided when its pair was known, or, once it
    /// is over, because it ended before [`Room::played_enough`]; `None` for a game rated (or
    /// asked casual), and for an aborted game (it is neither).
    #[must_use]
    pub fn unrated(&self) -> Option<crate::wire::Unrated> {
        match self.phase() {
            Phase::Aborted => None,
            Phase::Over if self.spec.rated && !self.played_enough() => {
                Some(crate::wire::Unrated::Early)
            }
            _ => self.spec.unrated,
        }
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

    /// How the game ended, if it has.
    #[must_use]
    pub fn end(&self) -> Option<End> {
        End::of(
            &self.events,
            Side::ALL.map(|side| self.setup(side).is_some()),
        )
    }

    /// The phase.
    #[must_use]
    pub fn phase(&self) -> Phase {
        if self.aborted.is_some() {
            return Phase::Aborted;
        }
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
            Some(game) if self.phase() == Phase::Playing => game.legal_moves(),
            _ => salpakan::MoveList::new(),
        }
    }

    /// The game record (both formations), once the game is over; never for an aborted game.
    #[must_use]
    pub fn record(&self) -> Option<String> {
        if self.aborted.is_some() {
            return None;
        }
        let game = self.game.as_ref()?;
        (!game.status().is_ongoing()).then(|| game.record())
    }

    /// The clock's reading at `now`, for a timed game.
    #[must_use]
    pub fn clock(&self, now: Instant) -> Option<Reading> {
        self.clock.map(|c| c.reading(now))
    }

    /// Whether `side`'s seat is present: a bot, or a socket open.
    #[must_use]
    pub fn present(&self, side: Side) -> bool {
        self.presence.present(side)
    }

    /// `side`'s seat's open sockets.
    #[must_use]
    pub fn sockets(&self, side: Side) -> usize {
        self.presence.sockets(side)
    }

    /// A socket of `side`'s seat opened. Returns whether the seat was away until now.
    pub fn connect(&mut self, side: Side) -> bool {
        self.presence.connect(side)
    }

    /// A socket of `side`'s seat closed at `now`. Returns whether the seat is now away.
    pub(crate) fn disconnect(&mut self, side: Side, now: Instant) -> bool {
        self.presence.disconnect(side, now)
    }

    fn ongoing_game(&self) -> Result<&Game, Refusal> {
        self.not_ended()?;
        self.game
            .as_ref()
            .ok_or_else(|| Refusal::new(Code::WrongPhase, "the game is in its setup phase"))
    }

    /// What a `hello` after version `v` gets: every later event's frame (each rendered
    /// once, when it was applied), or a fresh `state` if `v` is past the latest.
    #[must_use]
    pub fn since(&self, v: u64, to: Recipient, now: Instant) -> Catchup {
        if v <= self.version() {
            Catchup::Frames(
                (v + 1..=self.version())
                    .map(|k| self.frame(k, to))
                    .collect(),
            )
        } else {
            Catchup::State(self.state(to, now))
        }
    }

    /// What the database holds of this room: [`Room::restore`] makes it again. (The room does
    /// not know its creator's address nor its seats': `creator` and `ips` are `None`.)
    #[must_use]
    pub fn saved(&self) -> Saved {
        Saved {
            spec: self.spec.clone(),
            setups: [0, 1].map(|i| self.setups[i].as_ref().map(|s| s.cell_values().to_vec())),
            events: self
                .events
                .iter()
                .cloned()
                .map(|mut event| {
                    if let Event::Ready { formation, .. } = &mut event {
                        *formation = None;
                    }
                    event
                })
                .collect(),
            creator: None,
            ips: [None, None],
            chat: SavedChat::default(),
        }
    }

    /// Sets the game's setup deadlines, reckoned from the wall clock's `wall_ms` at `now` (a
    /// time stamped in the future counts as now): while a seat is open, the game expires
    /// `expiry` after its creation (`Spec::created_ms`); once both are taken, a side has
    /// `Spec::setup_ms` from then (`Spec::seated_ms`) to have its formation accepted.
    pub(crate) fn expire_setup(&mut self, expiry: Duration, wall_ms: u64, now: Instant) {
        let since = |ms: u64| Duration::from_millis(wall_ms.saturating_sub(ms));
        match self.spec.seated_ms {
            None => {
                let age = since(self.spec.created_ms);
                self.setup_deadline = Some(now + expiry.saturating_sub(age));
                self.abort_at = None;
            }
            Some(seated) => {
                let setup = Duration::from_millis(self.spec.setup_ms);
                self.setup_deadline = None;
                self.abort_at = Some(now + setup.saturating_sub(since(seated)));
            }
        }
    }

    /// The setup time is now `setup_ms` from when both seats were taken (a tournament
    /// round's cutoff moved), reckoned from the wall clock's `wall_ms` at `now`.
    pub(crate) fn set_setup_time(&mut self, setup_ms: u64, wall_ms: u64, now: Instant) {
        self.spec.setup_ms = setup_ms;
        self.expire_setup(Duration::ZERO, wall_ms, now);
    }

    /// What is left of the setup time at `now`, in milliseconds rounded up to a whole second,
    /// while it runs.
    #[must_use]
    pub fn setup_left(&self, now: Instant) -> Option<u64> {
        if self.phase() != Phase::Setup {
            return None;
        }
        let left = self.abort_at?.saturating_duration_since(now).as_millis();
        Some(u64::try_from(left.div_ceil(1000) * 1000).unwrap_or(u64::MAX))
    }

    /// Whether the game, its seats not both taken, is still in its setup phase at its expiry
    /// ([`Room::expire_setup`]): it is to be deleted.
    #[must_use]
    pub(crate) fn setup_expired(&self, now: Instant) -> bool {
        self.phase() == Phase::Setup && self.setup_deadline.is_some_and(|at| now >= at)
    }

    /// The side whose setup time has run out at `now`, if one has (White's first when
    /// neither side's formation is in).
    fn out_of_setup_time(&self, now: Instant) -> Option<Side> {
        if self.phase() != Phase::Setup || self.abort_at.is_none_or(|at| now < at) {
            return None;
        }
        Side::ALL
            .into_iter()
            .find(|side| self.setups[side.index()].is_none())
    }

    /// What time decides by `now`: a loss on time, a loss by abandonment (a seat with no
    /// socket for the grace, counted while it is to move, while its opponent has one), or a
    /// draw when both seats have been
    /// away for [`BOTH_AWAY`] graces, as events; none if nothing is due.
    #[must_use]
    pub(crate) fn decide_time(&self, now: Instant) -> Option<Decision> {
        if let Some(timeout) = self.flag_fall(now) {
            return Some(timeout);
        }
        if let Some(side) = self.out_of_setup_time(now) {
            return Some(Decision::Events(vec![Event::Aborted {
                reason: AbortReason::SetupTime,
                side,
            }]));
        }
        if self.phase() != Phase::Playing {
            return None;
        }
        if self.presence.both_abandon_at().is_some_and(|at| now >= at) {
            return Some(self.declared(DeclaredEnd::AbandonedByBoth, now));
        }
        let loser = Side::ALL.into_iter().find(|&side| {
            self.presence
                .abandons_at(side, self.turn())
                .is_some_and(|at| now >= at)
        })?;
        Some(self.declared(DeclaredEnd::Abandoned { loser }, now))
    }

    /// Applies what time decides by `now` (`Room::decide_time`). Returns the new events'
    /// start, if any.
    pub fn expire(&mut self, now: Instant) -> Option<usize> {
        match self.decide_time(now)? {
            Decision::Events(events) => Some(self.apply_all(events, now)),
            Decision::Resend(_) | Decision::Rematch(_) => None,
        }
    }

    /// When [`Room::expire`] (or, in the setup phase, `Room::setup_expired`) next has
    /// something to decide, as things stand now.
    #[must_use]
    pub fn deadline(&self) -> Option<Instant> {
        match self.phase() {
            Phase::Setup => return self.setup_deadline.or(self.abort_at),
            Phase::Over | Phase::Aborted => return None,
            Phase::Playing => {}
        }
        let flag = self.clock.and_then(|c| c.deadline());
        let away = Side::ALL
            .into_iter()
            .filter_map(|side| self.presence.abandons_at(side, self.turn()))
            .chain(self.presence.both_abandon_at())
            .min();
        flag.into_iter().chain(away).min()
    }
}

#[cfg(test)]
mod tests;
