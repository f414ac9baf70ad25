//! `GET /api/games/{id}/replay`: a finished game's challenges with the odds each attacker saw,
//! and each side's luck (the engine's `Replay`).

use serde::{Deserialize, Serialize};

use super::SideWord;

/// One challenge of a finished game, as the attacker saw it just before it attacked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct ChallengeWords {
    /// The ply (1-based).
    pub ply: u64,
    /// The side that attacked.
    pub attacker: SideWord,
    /// The attacking piece's rank, 0 (Flag) to 14 (Spy): the game is over, so it is public.
    pub rank: u8,
    /// The attacker's chance to win, from its beliefs just before.
    pub win: f64,
    /// To tie.
    pub tie: f64,
    /// To lose.
    pub lose: f64,
    /// What happened: `win`, `lose` or `tie`.
    pub outcome: String,
}

/// One side's luck over a game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct LuckWords {
    /// The challenges it made.
    pub challenges: u32,
    /// Their scores' sum (a win 1, a tie 0.5, a loss 0).
    pub score: f64,
    /// What its beliefs expected of them.
    pub expected: f64,
    /// `score - expected`.
    pub luck: f64,
}

/// Each side's luck.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct LuckBySide {
    /// White's.
    pub white: LuckWords,
    /// Black's.
    pub black: LuckWords,
}

/// `GET /api/games/{id}/replay`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct ReplayReply {
    /// The game.
    pub game: String,
    /// Its plies.
    pub plies: u64,
    /// Every challenge, in order.
    pub challenges: Vec<ChallengeWords>,
    /// Each side's luck.
    pub luck: LuckBySide,
}

impl ReplayReply {
    /// The reply for game `id` from the engine's replay of its record.
    #[must_use]
    pub fn of(id: &str, replay: &salpakan::Replay) -> ReplayReply {
        let luck = |side| {
            let l = replay.luck(side);
            LuckWords {
                challenges: l.challenges,
                score: l.score,
                expected: l.expected,
                luck: l.luck(),
            }
        };
        ReplayReply {
            game: id.to_owned(),
            plies: replay.plies() as u64,
            challenges: (1..=replay.plies())
                .filter_map(|ply| {
                    let o = replay.odds(ply)?;
                    Some(ChallengeWords {
                        ply: ply as u64,
                        attacker: SideWord(o.attacker),
                        rank: o.rank as u8,
                        win: o.win,
                        tie: o.tie,
                        lose: o.lose,
                        outcome: o.outcome.name().to_owned(),
                    })
                })
                .collect(),
            luck: LuckBySide {
                white: luck(salpakan::Side::White),
                black: luck(salpakan::Side::Black),
            },
        }
    }
}
