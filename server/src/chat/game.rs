//! One game's chat as a value with no I/O: each channel's lines, each seat's mode, mutes and
//! lines a minute, and each socket that hears it (its name, mode, mutes and rate). A request
//! is [`GameChat::decide`]d into a [`Decision`] (or refused, changing nothing but the rates
//! it spent); what a decision keeps is committed by the chat service, then applied here
//! ([`GameChat::said`], [`GameChat::set_mode`]), which names the sockets to tell.
//!
//! Who may say what: preset phrases always (unless a chat is off); free lines in the
//! players' channel only while both seats are at `free` (the default in a friend's game), in
//! the spectators' channel from a spectator named by its player's key. Rates: a socket's
//! lines in 10 s, a player's (or an anonymous seat's) in a minute over all its games
//! ([`Policy`]).

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use salpakan::Side;
use tokio::time::Instant;

use super::line::{Blocklist, Unclean};
use crate::budget::Rate;
use crate::config::Limits;
use crate::room::{Player, Recipient, SavedChat, Spec};
use crate::wire::{
    Channel, ChatLine, ChatMode, ChatModes, ChatSettings, Code, Phrase, Refusal, SideWord,
};

/// The lines a channel of one game keeps (and sends to a socket that opens): the next is
/// refused with `chat-full`. With `super::MAX_CHARS` it bounds what a game's chat holds in
/// memory (about 200 kB a channel at the most).
pub const MAX_LINES: usize = 200;

/// The lines one seat may say in the players' channel: half of it, so that one seat never
/// leaves the other nothing to say (the server bot's lines count as its seat's).
pub const SEAT_SHARE: usize = MAX_LINES / 2;

/// The lines one speaker (a named player) may say in the spectators' channel.
pub const SPEAKER_SHARE: usize = 20;

/// The most names one seat or socket may mute.
pub(crate) const MAX_MUTED: usize = 50;

/// The window of a socket's chat rate.
pub(crate) const SOCKET_WINDOW: Duration = Duration::from_secs(10);

/// A chat request from one socket: a frame of its own, never a game command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// A line: a preset `phrase`, or a free `text`.
    Say {
        /// The phrase.
        phrase: Option<Phrase>,
        /// A free line.
        text: Option<String>,
    },
    /// The seat's (or the spectator socket's) mode.
    Mode(ChatMode),
    /// Hide (`true`) or show again (`false`) the lines of a side or a player.
    Mute {
        /// Whose lines.
        who: String,
        /// Hide or show.
        on: bool,
    },
    /// Report line `n` of `channel` to the operator.
    Report {
        /// The channel.
        channel: Channel,
        /// The line's number.
        n: u64,
    },
    /// A spectator names itself with its player's key.
    Auth {
        /// The key.
        key: String,
    },
}

/// What a request decides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Nothing to keep or tell (the socket has gone).
    Nothing,
    /// Keep this line, then [`GameChat::said`] it.
    Say(ChatLine),
    /// Keep this seat's mode, then [`GameChat::set_mode`].
    Mode(Side, ChatMode),
    /// Keep this report by `reporter`, then tell the reporter `reported`.
    Report {
        /// A copy of the line reported.
        line: ChatLine,
        /// The reporter: its player's name, or its seat's side.
        reporter: String,
    },
    /// Look the key up; the name it gives goes to [`GameChat::name`].
    Auth(String),
    /// Nothing to keep: these sockets' settings changed (tell them).
    Settings(Vec<u64>),
}

/// The reports one reporter (a player, or an anonymous seat) may make in an hour, over all
/// its games.
pub const REPORTS_PER_HOUR: usize = 10;

/// What the chat shares across games: the operator's words, each player's lines a minute,
/// and each reporter's reports an hour.
pub(crate) struct Policy {
    /// The words a free line may not carry.
    pub blocklist: Blocklist,
    players: Mutex<HashMap<String, Rate>>,
    reporters: Mutex<HashMap<String, Rate>>,
}

impl Policy {
    /// The chat's policy with the words of `blocklist`.
    #[must_use]
    pub(crate) fn new(blocklist: Blocklist) -> Policy {
        Policy {
            blocklist,
            players: Mutex::new(HashMap::new()),
            reporters: Mutex::new(HashMap::new()),
        }
    }

    /// Counts a line of player `name` at `now`; `false` past its lines a minute.
    pub(crate) fn take(&self, name: &str, per_minute: usize, now: Instant) -> bool {
        take_rate(
            &self.players,
            name,
            (per_minute, Duration::from_secs(60)),
            now,
        )
    }

    /// Counts a report of `reporter` (a player's name, or an anonymous seat's own key) at
    /// `now`; `false` past [`REPORTS_PER_HOUR`].
    pub(crate) fn take_report(&self, reporter: &str, now: Instant) -> bool {
        let hour = Duration::from_secs(3600);
        take_rate(&self.reporters, reporter, (REPORTS_PER_HOUR, hour), now)
    }
}

/// One of `who`'s rate of `most` a `per` in `rates` at `now`, the full ones forgotten when
/// many are held.
fn take_rate(
    rates: &Mutex<HashMap<String, Rate>>,
    who: &str,
    (most, per): (usize, Duration),
    now: Instant,
) -> bool {
    let mut rates = rates.lock().unwrap_or_else(PoisonError::into_inner);
    if rates.len() >= 4096 {
        rates.retain(|_, rate| !rate.is_full(now));
    }
    rates
        .entry(who.to_ascii_lowercase())
        .or_insert_with(|| Rate::per(most, per, now))
        .take(now)
}

/// A socket that hears a game's chat.
struct Member {
    /// The socket's id among the game's.
    id: u64,
    /// Whom it is for.
    to: Recipient,
    /// The player it speaks as (a seat's player; a spectator once it sent its key).
    name: Option<String>,
    /// A spectator's mode (a seat's is the seat's).
    mode: ChatMode,
    /// Whose lines a spectator's socket hides.
    muted: Vec<String>,
    /// Its lines in 10 s.
    rate: Rate,
}

/// One game's chat.
pub(crate) struct GameChat {
    /// The game's id (an anonymous seat's reports are counted by game and seat).
    game: String,
    /// Each channel's lines, in order (index: [`Channel::index`]).
    lines: [Vec<ChatLine>; 2],
    /// Each seat's mode.
    modes: [ChatMode; 2],
    /// Whose lines each seat hides.
    muted: [Vec<String>; 2],
    /// Each seat's lines a minute (an anonymous seat's; a named player's are counted by
    /// player, over all its games).
    seats: [Rate; 2],
    /// The sockets that hear it.
    members: Vec<Member>,
    /// The server bot's seat and name, if one plays.
    bot: Option<(Side, Option<String>)>,
    limits: Limits,
}

fn refused<T>(code: Code, message: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal::new(code, message))
}

/// The channel `to` hears.
fn channel_of(to: Recipient) -> Channel {
    match to {
        Recipient::Seat(_) => Channel::Players,
        Recipient::Spectator => Channel::Spectators,
    }
}

impl GameChat {
    /// The chat of a game made with `spec`, as the database kept it, under `limits`.
    #[must_use]
    pub(crate) fn new(spec: &Spec, saved: SavedChat, limits: &Limits) -> GameChat {
        let mut lines = [Vec::new(), Vec::new()];
        for line in saved.lines {
            lines[line.room.index()].push(line);
        }
        // Free lines by default between friends (a game made with an invite), never with a
        // bot.
        let default = |side: Side| match spec.players[side.index()] {
            Player::Bot(_) => ChatMode::Presets,
            Player::Human if spec.invite.is_some() => ChatMode::Free,
            Player::Human => ChatMode::Presets,
        };
        let now = Instant::now();
        let bot = Side::ALL
            .into_iter()
            .find(|side| matches!(spec.players[side.index()], Player::Bot(_)))
            .map(|side| (side, spec.players[side.index()].bot_name()));
        GameChat {
            game: spec.id.clone(),
            lines,
            modes: Side::ALL.map(|side| saved.modes[side.index()].unwrap_or(default(side))),
            muted: [Vec::new(), Vec::new()],
            seats: [(); 2]
                .map(|()| Rate::per(limits.chat_lines_per_minute, Duration::from_secs(60), now)),
            members: Vec::new(),
            bot,
            limits: *limits,
        }
    }

    /// Socket `id` for `to`, speaking as `name` (a seat's player), hears the chat from now
    /// on. Returns its settings and the frames' lines it hears so far (none at all in a game
    /// where nobody spoke).
    pub(crate) fn join(
        &mut self,
        id: u64,
        to: Recipient,
        name: Option<String>,
    ) -> (ChatSettings, Vec<&ChatLine>) {
        let member = Member {
            id,
            to,
            name,
            mode: ChatMode::Presets,
            muted: Vec::new(),
            rate: Rate::per(
                self.limits.chat_lines_per_socket,
                SOCKET_WINDOW,
                Instant::now(),
            ),
        };
        let settings = self.settings_of(&member);
        self.members.push(member);
        let lines = self.lines[channel_of(to).index()]
            .iter()
            .filter(|line| self.hears(id, line, None))
            .collect();
        (settings, lines)
    }

    /// Socket `id` no longer hears the chat.
    pub(crate) fn leave(&mut self, id: u64) {
        self.members.retain(|m| m.id != id);
    }

    /// Whether socket `id` hears the chat.
    #[must_use]
    pub(crate) fn is_member(&self, id: u64) -> bool {
        self.members.iter().any(|m| m.id == id)
    }

    /// Socket `id`'s settings; `None` for no such socket.
    #[must_use]
    pub(crate) fn settings(&self, id: u64) -> Option<ChatSettings> {
        let member = self.members.iter().find(|m| m.id == id)?;
        Some(self.settings_of(member))
    }

    fn settings_of(&self, member: &Member) -> ChatSettings {
        match member.to {
            Recipient::Seat(side) => ChatSettings {
                mode: self.modes[side.index()],
                seats: Some(ChatModes {
                    white: self.modes[0],
                    black: self.modes[1],
                }),
                name: member.name.clone(),
                muted: self.muted[side.index()].clone(),
            },
            Recipient::Spectator => ChatSettings {
                mode: member.mode,
                seats: None,
                name: member.name.clone(),
                muted: member.muted.clone(),
            },
        }
    }

    /// Whether socket `id` hears `line` said by socket `speaker`.
    fn hears(&self, id: u64, line: &ChatLine, speaker: Option<u64>) -> bool {
        if speaker == Some(id) {
            return true;
        }
        let Some(member) = self.members.iter().find(|m| m.id == id) else {
            return false;
        };
        match (line.room, member.to) {
            (Channel::Players, Recipient::Seat(side)) => {
                line.side == Some(SideWord(side))
                    || (self.modes[side.index()] != ChatMode::Off
                        && !line.muted_by(&self.muted[side.index()]))
            }
            (Channel::Spectators, Recipient::Spectator) => {
                member.mode != ChatMode::Off && !line.muted_by(&member.muted)
            }
            _ => false,
        }
    }

    /// What socket `id`'s `command` at `now` decides, under `policy`.
    ///
    /// # Errors
    /// The refusal for the sender alone; nothing changed but the rates it spent.
    pub(crate) fn decide(
        &mut self,
        id: u64,
        command: Command,
        policy: &Policy,
        now: Instant,
    ) -> Result<Decision, Refusal> {
        if !self.is_member(id) {
            return Ok(Decision::Nothing);
        }
        match command {
            Command::Say { phrase, text } => self.say(id, (phrase, text), policy, now),
            Command::Mode(mode) => Ok(self.mode(id, mode)),
            Command::Mute { who, on } => self.mute(id, &who, on),
            Command::Report { channel, n } => self.report(id, (channel, n), policy, now),
            Command::Auth { key } => match self.member(id).to {
                Recipient::Seat(_) => refused(Code::BadMessage, "a seat speaks as its seat"),
                Recipient::Spectator => Ok(Decision::Auth(key)),
            },
        }
    }

    fn member(&mut self, id: u64) -> &mut Member {
        let at = self.members.iter().position(|m| m.id == id);
        &mut self.members[at.unwrap_or_default()]
    }

    fn say(
        &mut self,
        id: u64,
        (phrase, text): (Option<Phrase>, Option<String>),
        policy: &Policy,
        now: Instant,
    ) -> Result<Decision, Refusal> {
        let limits = self.limits;
        let modes = self.modes;
        let member = self.member(id);
        let (to, name) = (member.to, member.name.clone());
        let (channel, mode) = match to {
            Recipient::Seat(side) => (Channel::Players, modes[side.index()]),
            Recipient::Spectator => (Channel::Spectators, member.mode),
        };
        if mode == ChatMode::Off {
            return refused(Code::ChatNotAllowed, "your chat is off (chat-mode)");
        }
        if to == Recipient::Spectator && name.is_none() {
            return refused(
                Code::ChatNotAllowed,
                "anyone may listen; to talk, send your player's key (auth)",
            );
        }
        let text = match (phrase, text) {
            (Some(phrase), _) => phrase.text().to_owned(),
            (None, Some(text)) => {
                if channel == Channel::Players && modes.iter().any(|m| *m != ChatMode::Free) {
                    return refused(
                        Code::ChatNotAllowed,
                        "free lines need both players to allow them (chat-mode free); phrases are always allowed",
                    );
                }
                match policy.blocklist.line(&text) {
                    Ok(line) => line,
                    Err(Unclean::Empty) => return refused(Code::BadMessage, "an empty line"),
                    Err(e @ Unclean::TooLong(_)) => {
                        return refused(Code::ChatTooLong, e.to_string());
                    }
                    Err(e @ Unclean::Blocked) => return refused(Code::ChatBlocked, e.to_string()),
                }
            }
            (None, None) => return refused(Code::BadMessage, "a phrase or a text"),
        };
        let said = self.lines[channel.index()].len();
        if said >= MAX_LINES {
            return refused(
                Code::ChatFull,
                format!("this room keeps {MAX_LINES} lines, and has them"),
            );
        }
        let share = match channel {
            Channel::Players => SEAT_SHARE,
            Channel::Spectators => SPEAKER_SHARE,
        };
        if self.said_by(channel, to.side(), name.as_deref()) >= share {
            return refused(
                Code::ChatFull,
                format!("your share of this room is {share} lines, and you said them"),
            );
        }
        let per_minute = limits.chat_lines_per_minute;
        let player_ok = match (&name, to) {
            (Some(name), _) => policy.take(name, per_minute, now),
            (None, Recipient::Seat(side)) => self.seats[side.index()].take(now),
            (None, Recipient::Spectator) => false,
        };
        if !self.member(id).rate.take(now) || !player_ok {
            return refused(
                Code::ChatRateLimited,
                format!(
                    "at most {} lines in 10 s a socket, {per_minute} a minute a player",
                    limits.chat_lines_per_socket
                ),
            );
        }
        Ok(Decision::Say(ChatLine {
            room: channel,
            n: said as u64 + 1,
            side: to.side().map(SideWord),
            name,
            bot: false,
            phrase,
            text,
        }))
    }

    /// The lines said in `channel` by `side` (the players' channel) or by the player `name`
    /// (the spectators').
    fn said_by(&self, channel: Channel, side: Option<Side>, name: Option<&str>) -> usize {
        self.lines[channel.index()]
            .iter()
            .filter(|line| match channel {
                Channel::Players => line.side.map(|s| s.0) == side,
                Channel::Spectators => line.name.as_deref() == name,
            })
            .count()
    }

    /// Keeps `line` (committed) said by socket `speaker` (none for the server bot's), and
    /// names the sockets that hear it.
    pub(crate) fn said(&mut self, line: ChatLine, speaker: Option<u64>) -> Vec<u64> {
        let hear: Vec<u64> = self
            .members
            .iter()
            .map(|m| m.id)
            .filter(|&id| self.hears(id, &line, speaker))
            .collect();
        let i = line.room.index();
        self.lines[i].push(line);
        hear
    }

    /// The server bot's line for `phrase` (a greeting, "good game": public events alone
    /// decide it), if a server bot plays and the players' channel has room for it.
    #[must_use]
    pub(crate) fn bot_line(&self, phrase: Phrase) -> Option<ChatLine> {
        let (side, name) = self.bot.as_ref()?;
        let said = self.lines[Channel::Players.index()].len();
        let room =
            said < MAX_LINES && self.said_by(Channel::Players, Some(*side), None) < SEAT_SHARE;
        room.then(|| ChatLine {
            room: Channel::Players,
            n: said as u64 + 1,
            side: Some(SideWord(*side)),
            name: name.clone(),
            bot: true,
            phrase: Some(phrase),
            text: phrase.text().to_owned(),
        })
    }

    fn mode(&mut self, id: u64, mode: ChatMode) -> Decision {
        let member = self.member(id);
        match member.to {
            Recipient::Seat(side) => Decision::Mode(side, mode),
            Recipient::Spectator => {
                member.mode = mode;
                Decision::Settings(vec![id])
            }
        }
    }

    /// Sets `side`'s mode (committed); names the sockets to tell their settings (every
    /// seat's: free lines need both).
    pub(crate) fn set_mode(&mut self, side: Side, mode: ChatMode) -> Vec<u64> {
        self.modes[side.index()] = mode;
        self.members
            .iter()
            .filter(|m| m.to != Recipient::Spectator)
            .map(|m| m.id)
            .collect()
    }

    fn mute(&mut self, id: u64, who: &str, on: bool) -> Result<Decision, Refusal> {
        let who = who.trim().to_ascii_lowercase();
        if who.is_empty() || who.len() > 40 {
            return refused(Code::BadMessage, "mute names a side or a player");
        }
        let to = self.member(id).to;
        let muted = match to {
            Recipient::Seat(side) => &mut self.muted[side.index()],
            Recipient::Spectator => &mut self.member(id).muted,
        };
        if on && !muted.contains(&who) {
            if muted.len() >= MAX_MUTED {
                return refused(Code::TooManyMuted, format!("at most {MAX_MUTED} muted"));
            }
            muted.push(who);
        } else if !on {
            muted.retain(|m| *m != who);
        }
        // Every socket of the seat (or the one spectator's) is told its settings.
        Ok(Decision::Settings(
            self.members
                .iter()
                .filter(|m| match to {
                    Recipient::Seat(_) => m.to == to,
                    Recipient::Spectator => m.id == id,
                })
                .map(|m| m.id)
                .collect(),
        ))
    }

    fn report(
        &mut self,
        id: u64,
        (channel, n): (Channel, u64),
        policy: &Policy,
        now: Instant,
    ) -> Result<Decision, Refusal> {
        let to = self.member(id).to;
        let line = (channel == channel_of(to))
            .then(|| {
                n.checked_sub(1)
                    .and_then(|i| self.lines[channel.index()].get(i as usize))
            })
            .flatten()
            .cloned();
        let Some(line) = line else {
            return refused(
                Code::NotFound,
                format!("no line {n} in the {} room you hear", channel.word()),
            );
        };
        let game = self.game.clone();
        let member = self.member(id);
        let (reporter, counted) = match (&member.name, to) {
            (Some(name), _) => (name.clone(), name.clone()),
            (None, Recipient::Seat(side)) => (side.word().to_owned(), format!("{game} {side}")),
            (None, Recipient::Spectator) => {
                return refused(
                    Code::ChatNotAllowed,
                    "send your player's key (auth) to report",
                );
            }
        };
        let own = match to {
            Recipient::Seat(side) => line.side == Some(SideWord(side)),
            Recipient::Spectator => line
                .name
                .as_deref()
                .is_some_and(|said| said.eq_ignore_ascii_case(&reporter)),
        };
        if own {
            return refused(Code::BadMessage, "nobody reports its own lines");
        }
        if !member.rate.take(now) {
            return refused(
                Code::ChatRateLimited,
                "too many lines and reports from this socket",
            );
        }
        if !policy.take_report(&counted, now) {
            return refused(
                Code::ChatRateLimited,
                format!("at most {REPORTS_PER_HOUR} reports an hour"),
            );
        }
        Ok(Decision::Report { line, reporter })
    }

    /// Spectator socket `id` speaks as player `name` from now on; its settings changed.
    pub(crate) fn name(&mut self, id: u64, name: String) -> Decision {
        if !self.is_member(id) {
            return Decision::Nothing;
        }
        self.member(id).name = Some(name);
        Decision::Settings(vec![id])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHITE: Recipient = Recipient::Seat(Side::White);
    const BLACK: Recipient = Recipient::Seat(Side::Black);

    fn chat(invite: bool) -> GameChat {
        let mut spec = Spec::plain("0123456789abcdef", [Player::Human; 2], 1);
        spec.invite = invite.then(|| "digest".to_owned());
        spec.names = [Some("Maria_S".into()), None];
        GameChat::new(&spec, SavedChat::default(), &Limits::default())
    }

    fn say(text: &str) -> Command {
        Command::Say {
            phrase: None,
            text: Some(text.into()),
        }
    }

    fn code(decided: Result<Decision, Refusal>) -> Code {
        decided.expect_err("refused").code
    }

    #[test]
    fn free_lines_need_both_seats_free_and_phrases_never_do() {
        let policy = Policy::new(Blocklist::default());
        let now = Instant::now();
        let mut strangers = chat(false);
        strangers.join(1, WHITE, Some("Maria_S".into()));
        assert_eq!(
            code(strangers.decide(1, say("hi"), &policy, now)),
            Code::ChatNotAllowed
        );
        let phrase = Command::Say {
            phrase: Some(Phrase::GoodLuck),
            text: None,
        };
        let Ok(Decision::Say(line)) = strangers.decide(1, phrase, &policy, now) else {
            panic!("a phrase is always allowed");
        };
        assert_eq!((line.n, line.text.as_str()), (1, "Good luck!"));
        let mut friends = chat(true);
        friends.join(1, WHITE, Some("Maria_S".into()));
        assert!(matches!(
            friends.decide(1, say("  hi \n there "), &policy, now),
            Ok(Decision::Say(line)) if line.text == "hi there"
        ));
        assert_eq!(
            code(friends.decide(1, say("you b1tch"), &policy, now)),
            Code::ChatBlocked
        );
    }

    #[test]
    fn each_speaker_of_the_spectators_has_its_own_share() {
        let policy = Policy::new(Blocklist::default());
        let now = Instant::now();
        // Neither the socket's rate nor the player's a minute is what is measured here.
        let limits = Limits {
            chat_lines_per_socket: 1_000,
            chat_lines_per_minute: 1_000,
            ..Limits::default()
        };
        let spec = Spec::plain("0123456789abcdef", [Player::Human; 2], 1);
        let mut chat = GameChat::new(&spec, SavedChat::default(), &limits);
        for (id, name) in [(3, "Juan"), (4, "Ana")] {
            chat.join(id, Recipient::Spectator, None);
            chat.name(id, name.into());
        }
        let hello = || Command::Say {
            phrase: Some(Phrase::Hello),
            text: None,
        };
        for n in 1..=SPEAKER_SHARE {
            let Ok(Decision::Say(line)) = chat.decide(3, hello(), &policy, now) else {
                panic!("line {n} of Juan's share");
            };
            chat.said(line, Some(3));
        }
        let refusal = chat
            .decide(3, hello(), &policy, now)
            .expect_err("past the share");
        assert_eq!(refusal.code, Code::ChatFull);
        assert!(
            refusal.message.contains("your share"),
            "{}",
            refusal.message
        );
        let Ok(Decision::Say(line)) = chat.decide(4, hello(), &policy, now) else {
            panic!("Ana still has her whole share");
        };
        assert_eq!(line.n, SPEAKER_SHARE as u64 + 1);
    }

    #[test]
    fn a_spectator_talks_once_named_and_hears_only_its_channel() {
        let policy = Policy::new(Blocklist::default());
        let now = Instant::now();
        let mut chat = chat(true);
        chat.join(1, WHITE, Some("Maria_S".into()));
        chat.join(2, BLACK, None);
        chat.join(3, Recipient::Spectator, None);
        let hello = Command::Say {
            phrase: Some(Phrase::Hello),
            text: None,
        };
        assert_eq!(
            code(chat.decide(3, hello.clone(), &policy, now)),
            Code::ChatNotAllowed
        );
        assert_eq!(
            chat.decide(3, Command::Auth { key: "k".into() }, &policy, now),
            Ok(Decision::Auth("k".into()))
        );
        assert_eq!(chat.name(3, "Juan".into()), Decision::Settings(vec![3]));
        let Ok(Decision::Say(line)) = chat.decide(3, hello.clone(), &policy, now) else {
            panic!("a named spectator talks");
        };
        assert_eq!(chat.said(line, Some(3)), vec![3], "the seats never hear it");
        let Ok(Decision::Say(line)) = chat.decide(1, hello, &policy, now) else {
            panic!("a seat talks");
        };
        assert_eq!(
            chat.said(line, Some(1)),
            vec![1, 2],
            "the spectator never hears it"
        );
        // Black mutes White's player: its next line is heard by White alone.
        let mute = Command::Mute {
            who: "MARIA_S".into(),
            on: true,
        };
        assert_eq!(
            chat.decide(2, mute, &policy, now),
            Ok(Decision::Settings(vec![2]))
        );
        let Ok(Decision::Say(line)) = chat.decide(1, say("gl"), &policy, now) else {
            panic!("friends talk freely");
        };
        assert_eq!(line.n, 2);
        assert_eq!(chat.said(line, Some(1)), vec![1]);
        assert_eq!(
            chat.settings(2).map(|s| s.muted),
            Some(vec!["maria_s".into()])
        );
    }

    #[test]
    fn a_seat_off_says_nothing_and_a_socket_is_held_to_its_rate() {
        let policy = Policy::new(Blocklist::default());
        let now = Instant::now();
        let mut chat = chat(true);
        chat.join(1, BLACK, None);
        assert_eq!(
            chat.decide(1, Command::Mode(ChatMode::Off), &policy, now),
            Ok(Decision::Mode(Side::Black, ChatMode::Off))
        );
        assert_eq!(chat.set_mode(Side::Black, ChatMode::Off), vec![1]);
        assert_eq!(
            code(chat.decide(1, say("x"), &policy, now)),
            Code::ChatNotAllowed
        );
        chat.set_mode(Side::Black, ChatMode::Free);
        let per_socket = Limits::default().chat_lines_per_socket;
        for _ in 0..per_socket {
            let Ok(Decision::Say(line)) = chat.decide(1, say("x"), &policy, now) else {
                panic!("within the rate");
            };
            chat.said(line, Some(1));
        }
        assert_eq!(
            code(chat.decide(1, say("x"), &policy, now)),
            Code::ChatRateLimited
        );
        let report = Command::Report {
            channel: Channel::Players,
            n: 99,
        };
        assert_eq!(code(chat.decide(1, report, &policy, now)), Code::NotFound);
        assert_eq!(
            chat.decide(7, say("x"), &policy, now),
            Ok(Decision::Nothing)
        );
    }
}
