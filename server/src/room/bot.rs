//! The server's own player: its seat's tracker, and the turns it takes off the async threads.

use salpakan::{Move, Side, Tracker};
use tokio::time::Instant;

use super::data::BotTurn;
use super::{Change, Room};

impl Room {
    pub(super) fn follow_bot(&mut self) {
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
}
