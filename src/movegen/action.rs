//! Action ids for AI users: every move as one number, and a set of them as a bit mask.

use super::list::Move;
use crate::square::{Direction, Square};
use crate::value_error::ValueError;

impl Move {
    /// The number of action ids: 72 squares × 4 directions.
    pub const NUM_ACTIONS: usize = 288;

    /// The move's action id, `from * 4 + direction` (0..288), or `None` if `to` is not one step
    /// from `from`. Directions are numbered as [`Direction`]: 0 up (towards row 8), 1 down,
    /// 2 left (towards file `a`), 3 right.
    ///
    /// ```
    /// use salpakan::Move;
    /// let mv: Move = "e3-e4".parse()?;
    /// assert_eq!(mv.action(), Some(22 * 4));
    /// assert_eq!(Move::from_action(22 * 4), Some(mv));
    /// # Ok::<_, salpakan::text::ParseError>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn action(self) -> Option<u16> {
        let direction = self.direction()?;
        Some(self.from.index() as u16 * 4 + direction as u16)
    }

    /// The move with action id `value` (`from * 4 + direction`).
    ///
    /// # Errors
    /// [`ValueError::Action`] for a number outside `0..288`, [`ValueError::ActionOffBoard`]
    /// (an illegal move) for an id whose step leaves the board.
    ///
    /// # Examples
    /// ```
    /// use salpakan::Move;
    /// use salpakan::bindings::{ErrorKind, ValueError};
    ///
    /// assert_eq!(Move::from_action_number(4 * 4)?.to_string(), "e1-e2");
    /// assert_eq!(Move::from_action_number(288), Err(ValueError::Action(288)));
    /// assert_eq!(Move::from_action_number(1).unwrap_err().kind(), ErrorKind::IllegalMove);
    /// # Ok::<_, ValueError>(())
    /// ```
    pub fn from_action_number(value: i64) -> Result<Move, ValueError> {
        let id = u16::try_from(value)
            .ok()
            .filter(|&id| usize::from(id) < Move::NUM_ACTIONS)
            .ok_or(ValueError::Action(value))?;
        Move::from_action(id).ok_or(ValueError::ActionOffBoard(id))
    }

    /// The move of an action id, or `None` if the id is 288 or more or the step leaves the board.
    #[inline]
    #[must_use]
    pub fn from_action(action: u16) -> Option<Move> {
        let from = Square::try_index(usize::from(action / 4))?;
        let direction = Direction::try_index(usize::from(action % 4))?;
        Move::step(from, direction)
    }
}

/// A set of action ids: bit `id % 8` of byte `id / 8`, the layout of the C ABI's
/// `salpakan_game_legal_action_mask`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ActionMask([u8; Move::NUM_ACTIONS / 8]);

impl Default for ActionMask {
    /// The empty set.
    fn default() -> ActionMask {
        ActionMask::EMPTY
    }
}

impl ActionMask {
    /// No actions.
    pub const EMPTY: ActionMask = ActionMask([0; Move::NUM_ACTIONS / 8]);

    /// Adds an action id (ids of 288 or more are ignored).
    #[inline]
    pub fn insert(&mut self, action: u16) {
        if let Some(byte) = self.0.get_mut(usize::from(action / 8)) {
            *byte |= 1 << (action % 8);
        }
    }

    /// Whether the set holds the action id.
    #[inline]
    #[must_use]
    pub fn contains(&self, action: u16) -> bool {
        self.0
            .get(usize::from(action / 8))
            .is_some_and(|byte| byte >> (action % 8) & 1 != 0)
    }

    /// The number of actions in the set.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.iter().map(|b| b.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|b| *b == 0)
    }

    /// The 36 bytes of the mask.
    #[inline]
    #[must_use]
    pub fn bytes(&self) -> &[u8; Move::NUM_ACTIONS / 8] {
        &self.0
    }

    /// Writes the set as one `bool` per action id (a NumPy mask's layout): `slots[id]` is
    /// whether `id` is in the set. Only the first 288 slots are written.
    ///
    /// ```
    /// use salpakan::{Game, Move, Rules, Setup, Side};
    ///
    /// let rules = Rules::default();
    /// let game = Game::dealt(Side::White, rules, 1);
    /// let mut slots = [false; Move::NUM_ACTIONS];
    /// game.legal_action_mask().write_bools(&mut slots);
    /// assert_eq!(slots.iter().filter(|&&legal| legal).count(), game.legal_moves().len());
    /// # Ok::<_, salpakan::SetupError>(())
    /// ```
    pub fn write_bools(&self, slots: &mut [bool]) {
        // Eight slots per byte of the mask, without a branch per action.
        for (slots, &byte) in slots.chunks_exact_mut(8).zip(&self.0) {
            for (bit, slot) in slots.iter_mut().enumerate() {
                *slot = byte >> bit & 1 != 0;
            }
        }
    }

    /// The action ids in the set, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        (0..Move::NUM_ACTIONS as u16).filter(|&id| self.contains(id))
    }
}
