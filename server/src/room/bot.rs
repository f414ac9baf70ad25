//! The server's own player: its seat's tracker, and the turns it takes off the async threads.

use salpakan::{Agent, Bot, Move, Report, Side, Tracker};
use tokio::time::Instant;

use super::{Command, Player, Room, Spec};

/// The server's own player, between its moves.
pub(super) struct BotSeat {
    pub(super) side: Side,
    pub(super) kind: Bot,
    /// `None` while it thinks (the tracker is with the thinking task).
    tracker: Option<Tracker>,
}

impl BotSeat {
    /// The bot seat of a game, if one of its players is the server's.
    pub(super) fn of(spec: &Spec) -> Option<BotSeat> {
        Side::ALL
            .into_iter()
            .find_map(|side| match spec.players[side.index()] {
                Player::Bot(kind) => Some(BotSeat {
                    side,
                    kind,
                    tracker: None,
                }),
                Player::Human => None,
            })
    }
}

/// The stream of the game's bot seed its formation is drawn from.
pub(super) const FORMATION: &str = "formation";
/// The stream its moves' draws come from (one seed a ply): another stream than its
/// formation's, so that nothing of one can be read from the other.
pub(super) const MOVES: &str = "moves";

/// A bot's turn: what a blocking task needs to choose the bot's move.
pub(crate) struct BotTurn {
    /// The bot's side.
    pub side: Side,
    /// The ply it moves at (plies already played).
    pub ply: u64,
    /// The agent's seed for this ply (kept where the tests check which stream it comes
    /// from).
    #[cfg(test)]
    pub seed: u64,
    /// Its knowledge (never the game).
    pub tracker: Tracker,
    /// The agent, seeded for this ply (from the game's bot seed, another stream than the
    /// formation's).
    pub agent: Box<dyn Agent + Send>,
}

impl BotTurn {
    /// Chooses the move: blocking, run off the async threads.
    #[must_use]
    pub fn think(mut self) -> (Tracker, Option<Move>) {
        let mv = self.agent.choose(&self.tracker);
        (self.tracker, mv)
    }
}

impl Room {
    /// The bot's tracker, made when play starts (from the game: the bot's own formation and
    /// the public history only).
    pub(super) fn follow_bot(&mut self) {
        let Some(game) = &self.game else { return };
        if let Some(bot) = &mut self.bot
            && bot.tracker.is_none()
        {
            bot.tracker = game.tracker(bot.side).ok();
        }
    }

    /// The bot's tracker takes in a ply (unless the bot is thinking, which it does only on
    /// its own move).
    pub(super) fn bot_observes(&mut self, report: &Report) {
        if let Some(BotSeat {
            tracker: Some(tracker),
            ..
        }) = &mut self.bot
        {
            // The bot's tracker follows the game; a report the game made always fits.
            let _ = tracker.observe(report);
        }
    }

    /// The bot's turn, if it is the bot's move and it is not already thinking: its tracker
    /// and agent, taken out of the room until [`Room::bot_done`].
    pub(crate) fn bot_turn(&mut self) -> Option<BotTurn> {
        let game = self.game.as_ref()?;
        let ply = game.history().len() as u64;
        let bot = self.bot.as_mut()?;
        if self.aborted.is_some() || !game.status().is_ongoing() || game.side_to_move() != bot.side
        {
            return None;
        }
        let tracker = bot.tracker.take()?;
        let seed = crate::secret::derive(self.spec.bot_seed, MOVES, ply);
        Some(BotTurn {
            side: bot.side,
            ply,
            #[cfg(test)]
            seed,
            agent: bot.kind.build(seed, self.bot_budget),
            tracker,
        })
    }

    /// The bot chose `mv` for `ply`: played if the game is still at that ply (it may have
    /// ended meanwhile). Returns the new events' start, if any.
    pub(crate) fn bot_done(
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
        let command = Command::Move { side, mv: mv?, ply };
        match self.execute(&command, now) {
            Ok(super::Change::Events(from)) => Some(from),
            _ => None,
        }
    }
}
