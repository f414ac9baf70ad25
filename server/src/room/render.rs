//! What a room sends: each event, the `state` and the summary, as one recipient sees them,
//! built from that recipient's `View`, the `PublicView` or public facts only.

use std::sync::Arc;

use salpakan::{Game, Side};
use tokio::time::Instant;

use super::{Event, Phase, Player, Recipient, Room};
use crate::wire::{
    Bots, ClockWords, Commitments, LastChallenge, LiveEntry, LiveRatings, MoveText, Names,
    OutcomeWord, Players, Presence, RulesWords, ServerMessage, SideWord, StatusWords, Summary,
    ViewWords,
};

/// An event's frame as sent: the same bytes for every recipient, or (the start, which shows
/// each seat its own formation) one per recipient: White, Black, a spectator.
#[derive(Debug, Clone)]
pub(super) enum Frame {
    /// The same for all.
    Same(Arc<str>),
    /// White's, Black's and a spectator's.
    PerRecipient([Arc<str>; 3]),
}

/// The index of a recipient's frame in [`Frame::PerRecipient`].
fn slot(to: Recipient) -> usize {
    to.side().map_or(2, Side::index)
}

impl Room {
    /// The frame of event `v` as `to` receives it, as rendered when it was applied.
    ///
    /// # Panics
    /// If there is no such event (`v` is `1 ..= version()`).
    #[must_use]
    pub fn frame(&self, v: u64, to: Recipient) -> Arc<str> {
        match &self.frames[(v - 1) as usize] {
            Frame::Same(text) => Arc::clone(text),
            Frame::PerRecipient(texts) => Arc::clone(&texts[slot(to)]),
        }
    }

    /// Renders event `v`'s frame once for everyone (once per recipient for the start).
    pub(super) fn render_frame(&self, v: u64) -> Frame {
        let text = |to| Arc::from(self.render(v, to).to_json());
        let per_recipient = match self.events[(v - 1) as usize] {
            Event::Start { .. } => true,
            // A sealed game's end opens the formations to its seats only.
            Event::Over { .. } => self.spec.sealed,
            _ => false,
        };
        match per_recipient {
            true => Frame::PerRecipient(
                [
                    Recipient::Seat(Side::White),
                    Recipient::Seat(Side::Black),
                    Recipient::Spectator,
                ]
                .map(text),
            ),
            false => Frame::Same(text(Recipient::Spectator)),
        }
    }

    /// The event with version `v` as `to` receives it.
    ///
    /// # Panics
    /// If there is no such event (`v` is `1 ..= version()`).
    #[must_use]
    pub fn render(&self, v: u64, to: Recipient) -> ServerMessage {
        match &self.events[(v - 1) as usize] {
            Event::Ready { side, .. } => ServerMessage::Ready {
                v,
                side: SideWord(*side),
            },
            Event::Start { first, clock } => ServerMessage::Start {
                v,
                first: SideWord(*first),
                view: self.start_view(to),
                clock: clock.map(ClockWords::from),
                commitments: self.commitment_words(),
            },
            Event::Ply {
                ply,
                side,
                mv,
                outcome,
                status,
                clock,
            } => ServerMessage::Ply {
                v,
                ply: *ply,
                side: SideWord(*side),
                mv: MoveText(*mv),
                challenge: outcome.is_some(),
                outcome: outcome.map(OutcomeWord),
                status: StatusWords(*status),
                clock: clock.map(ClockWords::from),
            },
            Event::DrawOffer { side } => ServerMessage::DrawOffer {
                v,
                side: SideWord(*side),
            },
            Event::RematchOffer { side } => ServerMessage::RematchOffer {
                v,
                side: SideWord(*side),
            },
            Event::Rematched { game } => ServerMessage::RematchMade {
                v,
                game: game.clone(),
            },
            Event::Aborted { reason, side } => ServerMessage::Aborted {
                v,
                reason: *reason,
                side: SideWord(*side),
            },
            Event::Over { status, .. } => ServerMessage::Over {
                v,
                status: StatusWords(*status),
                record: if self.spec.sealed && to == Recipient::Spectator {
                    None
                } else {
                    self.record()
                },
                unrated: self.unrated(),
            },
        }
    }

    fn start_view(&self, to: Recipient) -> Option<ViewWords> {
        let (Some(white), Some(black)) = (&self.setups[0], &self.setups[1]) else {
            return None;
        };
        let start = Game::new(
            white.clone(),
            black.clone(),
            self.spec.first,
            self.spec.rules,
        )
        .ok()?;
        Some(match to.side() {
            Some(side) => ViewWords::seat(&start.view(side)),
            None => ViewWords::public(&start.public_view()),
        })
    }

    /// The `state` message for `to` at `now`.
    #[must_use]
    pub fn state(&self, to: Recipient, now: Instant) -> ServerMessage {
        let view = match (&self.game, to.side()) {
            (Some(game), Some(side)) => Some(ViewWords::seat(&game.view(side))),
            (Some(game), None) => Some(ViewWords::public(&game.public_view())),
            (None, Some(side)) => self.setups[side.index()].as_ref().map(ViewWords::formation),
            (None, None) => None,
        };
        ServerMessage::State {
            v: self.version(),
            side: to.side().map(SideWord),
            phase: self.phase(),
            view,
            status: StatusWords(self.status()),
            clock: self.clock(now).map(ClockWords::from),
            draw_offer: self.draw_offer.map(SideWord),
            presence: Presence {
                white: self.presence.present(Side::White),
                black: self.presence.present(Side::Black),
            },
            rules: RulesWords::from(self.spec.rules),
            setup_ms: self.spec.setup_ms,
            setup_left_ms: self.setup_left(now),
            names: self.names(),
            rated: self.spec.rated,
            unrated: self.unrated(),
            bots: self.bots(),
            chat: None,
            commitments: self.commitment_words().map(Box::new),
        }
    }

    /// The reply to `GET /api/games/{id}` at `now`.
    #[must_use]
    pub fn summary(&self, now: Instant) -> Summary {
        let [white, black] = self.spec.players.map(|p| p.kind_word().to_owned());
        Summary {
            game: self.spec.id.clone(),
            phase: self.phase(),
            ply: self.ply(),
            status: StatusWords(self.status()),
            clock: self.clock(now).map(ClockWords::from),
            players: Players { white, black },
            rules: RulesWords::from(self.spec.rules),
            first: SideWord(self.spec.first),
            setup_ms: self.spec.setup_ms,
            names: self.names(),
            rated: self.spec.rated,
            unrated: self.unrated(),
            bots: self.bots(),
            listed: self.spec.listed,
            commitments: self.commitment_words(),
        }
    }

    /// The commitments' words, once play has started.
    fn commitment_words(&self) -> Option<Commitments> {
        self.commitments.as_ref().map(Commitments::of)
    }

    /// The game as the live list shows it (its ratings left for the list to fill in), while
    /// it is in play and listed; `None` otherwise. Public facts only: the names, the clock
    /// and the plies of the last event, the last challenge's announcement.
    #[must_use]
    pub fn listing(&self) -> Option<LiveEntry> {
        if self.phase() != Phase::Playing || !self.spec.listed {
            return None;
        }
        let mut clock = None;
        let mut last = None;
        // The clock of the newest ply (or the start); the newest challenge, looked for
        // among the last 400 events at most.
        for event in self.events.iter().rev().take(400) {
            match event {
                Event::Ply {
                    ply,
                    side,
                    outcome,
                    clock: at,
                    ..
                } => {
                    if clock.is_none() {
                        clock = Some(*at);
                    }
                    if let Some(outcome) = outcome {
                        last = Some(LastChallenge {
                            ply: *ply,
                            side: SideWord(*side),
                            outcome: OutcomeWord(*outcome),
                        });
                        break;
                    }
                }
                Event::Start { clock: at, .. } => {
                    if clock.is_none() {
                        clock = Some(*at);
                    }
                    break;
                }
                _ => {}
            }
        }
        Some(LiveEntry {
            game: self.spec.id.clone(),
            names: self.names(),
            bots: self.bots(),
            ratings: LiveRatings::default(),
            rated: self.spec.rated,
            rules: RulesWords::from(self.spec.rules),
            clock: clock.flatten().map(ClockWords::from),
            ply: self.ply(),
            last,
        })
    }

    /// Whether each seat's player is a bot: the server's own, or a bot account.
    #[must_use]
    pub fn bots(&self) -> Bots {
        let [white, black] = Side::ALL.map(|side| {
            matches!(self.spec.players[side.index()], Player::Bot(_))
                || self.spec.bot_accounts[side.index()]
        });
        Bots { white, black }
    }

    /// Each seat's player's name.
    #[must_use]
    pub fn names(&self) -> Names {
        let [white, black] = self.spec.names.clone();
        Names { white, black }
    }
}
