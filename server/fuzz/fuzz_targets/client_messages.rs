//! Client frames against one game: any sequence of frames from either seat or a spectator.
//!
//! Input: lines. A line's first byte picks the sender (`w`, `b`, anything else a
//! spectator); the rest is the frame's text, except `#N`, which sends the side to move's
//! N-th legal move (so that play goes deep), and `@`, which sends both formations at once.
//!
//! Each frame is driven as the server drives it: read once at the edge into a typed request
//! (`Request::read`), then a seat's command executed by the room, a `hello` answered by it;
//! a chat request never reaches the room.
//!
//! Checked: nothing panics; a refused frame changes nothing any recipient can see; a seat's
//! frames never show an enemy rank before the end; the room restored from what it would
//! have stored is the same room.
#![no_main]

use libfuzzer_sys::fuzz_target;
use salpakan::{Rules, Setup, Side};
use salpakan_server::room::{Catchup, Change, Player, Recipient, Room, Spec};
use salpakan_server::socket::request::Request;
use tokio::time::{Duration, Instant};

const ALL: [Recipient; 3] = [
    Recipient::Seat(Side::White),
    Recipient::Seat(Side::Black),
    Recipient::Spectator,
];

/// What anyone can see of the room, cheaply: its version, plies, status, phase and the legal
/// moves (the full states are compared at the end, against the restored room).
fn seen(room: &Room) -> (u64, u64, String, String, Vec<String>) {
    (
        room.version(),
        room.ply(),
        room.status().token(),
        room.phase().word().to_owned(),
        room.legal_moves().iter().map(ToString::to_string).collect(),
    )
}

/// Everything every recipient sees.
fn seen_by_all(room: &Room, now: Instant) -> Vec<String> {
    ALL.iter()
        .map(|&to| room.state(to, now).to_json())
        .collect()
}

/// Whether `frame`, sent to `side`, shows a rank of the enemy's.
fn shows_enemy_rank(frame: &str, side: Side) -> bool {
    let enemy = format!(r#"{{"side":"{}","rank":""#, side.other().word());
    frame.contains(&enemy)
}

fn formation(side: Side, seed: u64) -> String {
    let cells: Vec<String> = Setup::random(side, Rules::default(), seed)
        .cell_values()
        .iter()
        .map(u8::to_string)
        .collect();
    format!(r#"{{"t":"setup","cells":[{}]}}"#, cells.join(","))
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let now = Instant::now();
    let spec = Spec::plain("0000000000000000", [Player::Human; 2], 1);
    let grace = Duration::from_secs(60);
    let mut room = Room::new(spec, grace, 10, now);
    for (i, line) in text.lines().take(300).enumerate() {
        // The sender is the line's first character (which may be more than one byte).
        let mut chars = line.chars();
        let (to, frame) = match chars.next() {
            Some('w') => (Recipient::Seat(Side::White), chars.as_str()),
            Some('b') => (Recipient::Seat(Side::Black), chars.as_str()),
            Some(_) => (Recipient::Spectator, chars.as_str()),
            None => continue,
        };
        let mut frames = vec![];
        if frame == "@" {
            frames.push((
                Recipient::Seat(Side::White),
                formation(Side::White, i as u64),
            ));
            frames.push((
                Recipient::Seat(Side::Black),
                formation(Side::Black, i as u64),
            ));
        } else if let Some(n) = frame
            .strip_prefix('#')
            .and_then(|n| n.parse::<usize>().ok())
        {
            let moves = room.legal_moves();
            if moves.is_empty() {
                continue;
            }
            let mv = moves[n % moves.len()];
            frames.push((
                to,
                format!(r#"{{"t":"move","move":"{mv}","ply":{}}}"#, room.ply()),
            ));
        } else {
            frames.push((to, frame.to_owned()));
        }
        for (to, frame) in frames {
            let before = seen(&room);
            let version = room.version();
            let request = match Request::read(&frame, to) {
                Ok(request) => request,
                Err(refusal) => {
                    assert!(!refusal.message.is_empty());
                    continue;
                }
            };
            match request {
                Request::Ping | Request::Chat(_) => {}
                Request::Hello { v } => {
                    let frames = match room.since(v, to, now) {
                        Catchup::Frames(frames) => frames,
                        Catchup::State(state) => vec![state.to_json().into()],
                    };
                    if let Recipient::Seat(side) = to
                        && room.record().is_none()
                    {
                        assert!(!frames.iter().any(|f| shows_enemy_rank(f, side)));
                    }
                }
                Request::Play(command) => match room.execute(&command, now) {
                    Err(refusal) => {
                        assert!(!refusal.message.is_empty());
                        assert_eq!(room.version(), version, "a refusal added an event");
                        assert_eq!(seen(&room), before, "a refusal changed the game");
                    }
                    Ok(Change::Events(from)) => {
                        assert_eq!(from as u64, version);
                        assert!(room.version() > version, "a change with no event");
                        if room.record().is_none() {
                            for side in Side::ALL {
                                for v in version + 1..=room.version() {
                                    let frame = room.render(v, Recipient::Seat(side)).to_json();
                                    assert!(!shows_enemy_rank(&frame, side));
                                }
                            }
                        }
                    }
                    Ok(Change::Resend(_) | Change::Rematch(_)) => {
                        assert_eq!(room.version(), version);
                        assert_eq!(seen(&room), before, "a resend changed the game");
                    }
                },
            }
        }
        // Each seat's state, every few lines (rendering it is a run's costly part).
        if i % 8 == 0 && room.record().is_none() {
            for side in Side::ALL {
                assert!(!shows_enemy_rank(
                    &room.state(Recipient::Seat(side), now).to_json(),
                    side
                ));
            }
        }
    }
    let back = Room::restore(room.saved(), grace, 10, now).expect("a stored room restores");
    assert_eq!(seen_by_all(&back, now), seen_by_all(&room, now));
});
