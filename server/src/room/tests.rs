//! The room's own tests: every request through exact instants, no sockets.
use super::*;
use crate::clock::ClockSettings;
use salpakan::Rules;

fn spec(players: [Player; 2], clock: Option<ClockSettings>) -> Spec {
    Spec {
        clock,
        ..Spec::plain("g", players, 5)
    }
}

/// A clock of `initial_ms` and no increment.
fn clock_of(initial_ms: u64) -> ClockSettings {
    ClockSettings {
        initial_ms,
        increment_ms: 0,
    }
}

fn cells(side: Side, seed: u64) -> Vec<i64> {
    Setup::random(side, Rules::default(), seed)
        .cell_values()
        .iter()
        .map(|&c| i64::from(c))
        .collect()
}

/// `side` submits the formation of `seed`.
fn set_up(room: &mut Room, side: Side, seed: u64, now: Instant) -> Result<Change, Refusal> {
    let cells = cells(side, seed);
    room.execute(&Command::Setup { side, cells }, now)
}

/// `side` plays `text` after `ply` plies.
fn play(
    room: &mut Room,
    side: Side,
    text: &str,
    ply: u64,
    now: Instant,
) -> Result<Change, Refusal> {
    let mv = text
        .parse()
        .map_err(|_| Refusal::new(Code::BadMessage, format!("not a move: {text:?}")))?;
    room.execute(&Command::Move { side, mv, ply }, now)
}

fn draw(room: &mut Room, side: Side, now: Instant) -> Result<Change, Refusal> {
    room.execute(&Command::Draw { side }, now)
}

/// A room of `spec` made at `now`, with a minute's abandon grace and 100 messages a window.
fn room_of(spec: Spec, now: Instant) -> Room {
    Room::new(spec, Duration::from_secs(60), 100, now)
}

/// A room where White is a person and Black the random bot.
fn against_a_bot(now: Instant) -> Room {
    let bot = Player::Bot(salpakan::Bot::Agent(salpakan::AgentKind::Random));
    room_of(spec([Player::Human, bot], None), now)
}

fn started(clock: Option<ClockSettings>, now: Instant) -> Room {
    let mut room = room_of(spec([Player::Human; 2], clock), now);
    set_up(&mut room, Side::White, 1, now).unwrap();
    set_up(&mut room, Side::Black, 2, now).unwrap();
    room
}

/// An untimed game started at `now` with both seats connected.
fn both_seated(now: Instant) -> Room {
    let mut room = started(None, now);
    for side in Side::ALL {
        room.connect(side);
    }
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
        (Side::White, "zz", 0, Code::BadMessage),
        (Side::White, mv.as_str(), 1, Code::StalePly),
        (Side::Black, black_mv.as_str(), 0, Code::NotYourTurn),
        (Side::White, "a1-a8", 0, Code::IllegalMove),
    ] {
        assert_eq!(
            play(&mut room, side, text, ply, now).unwrap_err().code,
            code
        );
    }
    assert_eq!(
        set_up(&mut room, Side::White, 3, now).unwrap_err().code,
        Code::WrongPhase
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
    assert_eq!(
        play(&mut room, Side::White, &mv, 0, now),
        Ok(Change::Events(3))
    );
    assert_eq!(
        play(&mut room, Side::White, &mv, 0, now),
        Ok(Change::Resend(4))
    );
    assert_eq!(room.ply(), 1);
}

#[test]
fn an_offer_stands_until_the_opponent_moves() {
    let now = Instant::now();
    let mut room = started(None, now);
    draw(&mut room, Side::White, now).unwrap();
    assert_eq!(
        draw(&mut room, Side::White, now).unwrap_err().code,
        Code::WrongPhase
    );
    let mv = room.game.as_ref().unwrap().legal_moves()[0].to_string();
    play(&mut room, Side::White, &mv, 0, now).unwrap();
    assert_eq!(
        room.draw_offer,
        Some(Side::White),
        "the offerer's own move keeps it"
    );
    let mv = room.game.as_ref().unwrap().legal_moves()[0].to_string();
    play(&mut room, Side::Black, &mv, 1, now).unwrap();
    assert_eq!(room.draw_offer, None, "the opponent's move declines it");
    draw(&mut room, Side::Black, now).unwrap();
    draw(&mut room, Side::White, now).unwrap();
    assert_eq!(room.status().reason_token(), Some("agreement"));
}

#[test]
fn time_and_absence_are_decided_by_the_room() {
    let t0 = Instant::now();
    let mut room = started(Some(clock_of(1_000)), t0);
    assert_eq!(room.deadline(), Some(t0 + Duration::from_millis(1_000)));
    assert_eq!(room.expire(t0 + Duration::from_millis(999)), None);
    assert!(room.expire(t0 + Duration::from_millis(1_000)).is_some());
    assert_eq!(room.status().reason_token(), Some("time"));
    assert_eq!(room.status().winner(), Some(Side::Black));

    let mut room = started(None, t0);
    assert_eq!(
        room.deadline(),
        Some(t0 + Duration::from_secs(60) * crate::room::BOTH_AWAY),
        "nobody is present: nobody loses, and the game is drawn if nobody comes"
    );
    room.connect(Side::Black);
    assert_eq!(room.deadline(), Some(t0 + Duration::from_secs(60)));
    assert!(room.expire(t0 + Duration::from_secs(60)).is_some());
    assert_eq!(room.status().reason_token(), Some("abandoned"));
    assert_eq!(room.status().winner(), Some(Side::Black));
}

#[test]
fn an_absence_counts_only_while_the_absent_side_is_to_move() {
    let t0 = Instant::now();
    let grace = Duration::from_secs(60);
    let mut room = both_seated(t0);
    // Black steps away at once, on White's turn: nothing is due for it.
    room.disconnect(Side::Black, t0);
    assert_eq!(room.deadline(), None);
    assert_eq!(room.expire(t0 + grace * 5), None, "not Black's turn");
    // White moves at 100 s: from then Black's absence counts.
    let moved = t0 + Duration::from_secs(100);
    let mv = room.game.as_ref().unwrap().legal_moves()[0].to_string();
    play(&mut room, Side::White, &mv, 0, moved).unwrap();
    assert_eq!(room.deadline(), Some(moved + grace));
    assert_eq!(room.expire(moved + grace - Duration::from_millis(1)), None);
    assert!(room.expire(moved + grace).is_some());
    assert_eq!(room.status().winner(), Some(Side::White));
    assert_eq!(room.status().reason_token(), Some("abandoned"));
}

#[test]
fn a_game_both_seats_left_is_drawn_after_ten_graces() {
    let t0 = Instant::now();
    let grace = Duration::from_secs(60);
    let mut room = both_seated(t0);
    assert_eq!(room.deadline(), None, "both present: nothing is due");
    room.disconnect(Side::White, t0 + Duration::from_secs(5));
    assert_eq!(room.deadline(), Some(t0 + Duration::from_secs(5) + grace));
    // Black leaves too before White's grace is out: nobody loses, the later departure counts.
    let later = t0 + Duration::from_secs(30);
    room.disconnect(Side::Black, later);
    let drawn_at = later + grace * crate::room::BOTH_AWAY;
    assert_eq!(room.deadline(), Some(drawn_at));
    assert_eq!(room.expire(drawn_at - Duration::from_millis(1)), None);
    // One seat back and away again starts the wait over.
    room.connect(Side::Black);
    assert_eq!(room.deadline(), Some(t0 + Duration::from_secs(5) + grace));
    room.disconnect(Side::Black, later + Duration::from_secs(1));
    let drawn_at = drawn_at + Duration::from_secs(1);
    assert_eq!(room.deadline(), Some(drawn_at));
    assert!(room.expire(drawn_at).is_some());
    assert_eq!(
        (room.status().state_word(), room.status().reason_token()),
        ("drawn", Some("abandoned"))
    );
    assert_eq!(room.deadline(), None);
}

#[test]
fn a_restored_room_is_the_room() {
    let now = Instant::now();
    let mut room = started(None, now);
    for ply in 0..40 {
        let game = room.game.as_ref().unwrap();
        let side = game.side_to_move();
        let mv = game.legal_moves()[(ply * 7) % game.legal_moves().len()].to_string();
        play(&mut room, side, &mv, ply as u64, now).unwrap();
    }
    draw(&mut room, Side::White, now).unwrap();
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

#[test]
fn no_clock_runs_while_the_server_is_down() {
    let t0 = Instant::now();
    let mut room = started(Some(clock_of(10_000)), t0);
    let mv = room.legal_moves()[0].to_string();
    let t1 = t0 + Duration::from_millis(2_500);
    play(&mut room, Side::White, &mv, 0, t1).unwrap();
    let last = room.clock(t1).unwrap();
    assert_eq!(last.remaining_ms, [7_500, 10_000]);
    // Restored an hour later: Black's time runs from the restore, not from its last move.
    let later = t1 + Duration::from_secs(3_600);
    let back = Room::restore(room.saved(), Duration::from_secs(60), 100, later).unwrap();
    assert_eq!(back.clock(later), Some(last));
    let then = later + Duration::from_millis(1_000);
    assert_eq!(back.clock(then).unwrap().remaining_ms, [7_500, 9_000]);
    assert_eq!(back.deadline(), Some(later + Duration::from_millis(10_000)));
}

#[test]
fn a_game_expires_only_in_its_setup_phase() {
    let now = Instant::now();
    let mut room = room_of(spec([Player::Human; 2], None), now);
    assert_eq!(room.deadline(), None, "no expiry until one is set");
    assert!(!room.setup_expired(now + Duration::from_secs(1_000_000)));
    // Created at 0 ms, seen at 4 s of wall time: 6 s are left of a 10 s expiry.
    room.expire_setup(Duration::from_secs(10), 4_000, now);
    assert_eq!(room.deadline(), Some(now + Duration::from_secs(6)));
    assert!(!room.setup_expired(now + Duration::from_millis(5_999)));
    assert!(room.setup_expired(now + Duration::from_secs(6)));
    // Older than the expiry: due at once.
    room.expire_setup(Duration::from_secs(10), 20_000, now);
    assert!(room.setup_expired(now));
    set_up(&mut room, Side::White, 1, now).unwrap();
    assert!(room.setup_expired(now), "one formation is not a start");
    set_up(&mut room, Side::Black, 2, now).unwrap();
    assert_eq!(room.phase(), Phase::Playing);
    assert!(!room.setup_expired(now + Duration::from_secs(60)));
    assert_eq!(
        room.deadline(),
        Some(now + Duration::from_secs(60) * crate::room::BOTH_AWAY),
        "untimed, nobody connected: only the draw of a game nobody comes to"
    );
}

#[test]
fn deciding_changes_nothing_and_applying_its_events_is_the_change() {
    let now = Instant::now();
    let mut room = started(None, now);
    let mut twin = started(None, now);
    for ply in 0..30u64 {
        let game = room.game.as_ref().unwrap();
        let (side, moves) = (game.side_to_move(), game.legal_moves());
        let command = Command::Move {
            side,
            mv: moves[(ply as usize * 5) % moves.len()],
            ply,
        };
        let before = (room.version(), room.state(Recipient::Spectator, now));
        let Decision::Events(events) = room.decide(&command, now).unwrap() else {
            panic!("a new move is not a resend");
        };
        assert_eq!(
            (room.version(), room.state(Recipient::Spectator, now)),
            before
        );
        for event in events {
            room.apply(event, now);
        }
        twin.execute(&command, now).unwrap();
        if room.phase() != Phase::Playing {
            break;
        }
    }
    assert_eq!(room.events(), twin.events());
    assert_eq!(room.game, twin.game);
}

#[test]
fn a_loss_on_time_keeps_its_clock_through_a_restore() {
    let t0 = Instant::now();
    let mut room = started(Some(clock_of(1_000)), t0);
    let due = t0 + Duration::from_millis(1_000);
    room.expire(due).unwrap();
    let end = room.clock(due).unwrap();
    assert_eq!(end.remaining_ms, [0, 1_000]);
    assert_eq!(end.running, None);
    let later = due + Duration::from_secs(3_600);
    let back = Room::restore(room.saved(), Duration::from_secs(60), 100, later).unwrap();
    assert_eq!(
        back.clock(later),
        Some(end),
        "not a full clock once reloaded"
    );
    assert_eq!(back.status(), room.status());
}

#[test]
fn a_stored_game_that_breaks_the_rules_is_refused_naming_the_event() {
    let now = Instant::now();
    let mut room = started(None, now);
    let mv = room.legal_moves()[0].to_string();
    play(&mut room, Side::White, &mv, 0, now).unwrap();
    let mut saved = room.saved();
    // A ply whose announced outcome is not the arbiter's.
    if let Some(Event::Ply { outcome, .. }) = saved.events.last_mut() {
        *outcome = Some(salpakan::Outcome::Tie);
    }
    let error = Room::restore(saved, Duration::from_secs(60), 100, now).err();
    assert_eq!(
        error,
        Some(RestoreError::Event {
            v: 4,
            reason: "the replay differs".into()
        })
    );
    let mut saved = room.saved();
    saved.setups[1] = None;
    assert!(matches!(
        Room::restore(saved, Duration::from_secs(60), 100, now),
        Err(RestoreError::Event { v: 2, .. })
    ));
}

#[test]
fn the_bots_formation_and_its_moves_come_from_separate_streams() {
    let now = Instant::now();
    let mut room = against_a_bot(now);
    let seed = room.spec().bot_seed;
    let formation = room.setup(Side::Black).unwrap().clone();
    // Not the seed itself: drawn from its own stream.
    assert_ne!(
        formation,
        Setup::random(Side::Black, Rules::default(), seed)
    );
    let formation_seed = crate::secret::derive(seed, "formation", 0);
    assert_eq!(
        formation,
        Setup::random(Side::Black, Rules::default(), formation_seed)
    );
    set_up(&mut room, Side::White, 1, now).unwrap();
    let mv = room.legal_moves()[0].to_string();
    play(&mut room, Side::White, &mv, 0, now).unwrap();
    let turn = room.bot_turn().expect("the bot's move");
    assert_ne!(turn.seed, seed);
    assert_ne!(turn.seed, formation_seed);
    assert_eq!(turn.seed, crate::secret::derive(seed, "moves", 1));
}

#[test]
fn a_move_limit_bounds_a_games_length_as_the_rules_words_say() {
    use crate::wire::RulesWords;
    // Long games: pieces walk towards the enemy, and each challenge is put off to the last
    // quiet plies the limit allows.
    for (seed, limit) in [(1u64, 12u16), (2, 16), (3, 20)] {
        let rules = Rules::new(3, limit).unwrap();
        let mut game = salpakan::Game::new(
            Setup::random(Side::White, rules, seed),
            Setup::random(Side::Black, rules, seed + 100),
            Side::White,
            rules,
        )
        .unwrap();
        let mut rng = salpakan::SplitMix64::new(seed);
        while game.status().is_ongoing() {
            let position = *game.position();
            let enemy = position.occupied(game.side_to_move().other());
            let (challenges, quiet): (Vec<Move>, Vec<Move>) =
                game.legal_moves().iter().partition(|mv| enemy.has(mv.to));
            let late = position.plies_since_challenge() + 2 >= limit;
            let distance = |mv: &Move| {
                enemy
                    .into_iter()
                    .map(|e| {
                        let (f, r) = (mv.to.index() % 9, mv.to.index() / 9);
                        let (g, s) = (e.index() % 9, e.index() / 9);
                        f.abs_diff(g) + r.abs_diff(s)
                    })
                    .min()
                    .unwrap_or(0)
            };
            let pick = if (late && !challenges.is_empty()) || quiet.is_empty() {
                challenges[rng.below(challenges.len() as u64) as usize]
            } else {
                let nearest = quiet.iter().map(distance).min().unwrap_or(0);
                let close: Vec<Move> = quiet
                    .into_iter()
                    .filter(|mv| distance(mv) <= nearest + 1)
                    .collect();
                close[rng.below(close.len() as u64) as usize]
            };
            game.play(pick).unwrap();
        }
        let plies = game.history().len() as u32;
        let bound = RulesWords::max_plies(Some(limit)).unwrap();
        assert!(
            plies <= bound,
            "{plies} plies under a limit of {limit}: over {bound}"
        );
        assert!(plies > 4 * u32::from(limit), "a long game: {plies} plies");
    }
}

/// A game of two people, created at 0 ms with `setup_ms`, both seats taken at `seated_ms`
/// of wall time, seen at `now`.
fn seated(setup_ms: u64, seated_ms: u64, now: Instant) -> Room {
    let mut room = room_of(
        Spec {
            setup_ms,
            ..spec([Player::Human; 2], Some(clock_of(60_000)))
        },
        now,
    );
    room.expire_setup(Duration::from_secs(24 * 3600), seated_ms, now);
    room.take_seat(Side::White, "w".into(), None, seated_ms, now);
    assert_eq!(room.spec().seated_ms, None, "one seat is not both");
    room.take_seat(
        Side::Black,
        "b".into(),
        Some("maria".into()),
        seated_ms,
        now,
    );
    assert_eq!(room.spec().seated_ms, Some(seated_ms));
    room
}

#[test]
fn a_side_without_a_formation_at_its_setup_time_aborts_the_game() {
    let t0 = Instant::now();
    let mut room = seated(10_000, 5_000, t0);
    assert_eq!(room.deadline(), Some(t0 + Duration::from_secs(10)));
    set_up(&mut room, Side::White, 1, t0).unwrap();
    let just_before = t0 + Duration::from_millis(9_999);
    assert_eq!(room.expire(just_before), None, "not a millisecond early");
    assert_eq!(room.phase(), Phase::Setup);
    let at = t0 + Duration::from_secs(10);
    let from = room.expire(at).expect("aborted at the setup time");
    assert_eq!(
        room.events()[from..],
        [Event::Aborted {
            reason: AbortReason::SetupTime,
            side: Side::Black,
        }]
    );
    assert_eq!(room.phase(), Phase::Aborted);
    assert_eq!(room.deadline(), None);
    assert_eq!(room.record(), None, "an aborted game reveals no formation");
    let frame = room.frame(room.version(), Recipient::Spectator);
    assert_eq!(
        &*frame,
        r#"{"t":"aborted","v":2,"reason":"setup-time","side":"black"}"#
    );
    // Nothing more happens in it: a late formation, a resignation, an abort.
    let refused = set_up(&mut room, Side::Black, 2, at).unwrap_err();
    assert_eq!(refused.code, Code::GameOver);
    for command in [
        Command::Resign { side: Side::White },
        Command::Abort { side: Side::White },
    ] {
        assert_eq!(room.execute(&command, at).unwrap_err().code, Code::GameOver);
    }
    // Restored, it is the same aborted game.
    let back = Room::restore(room.saved(), Duration::from_secs(60), 100, at).unwrap();
    assert_eq!(back.phase(), Phase::Aborted);
    assert_eq!(
        back.state(Recipient::Spectator, at),
        room.state(Recipient::Spectator, at)
    );
}

#[test]
fn setup_time_runs_from_when_both_seats_were_taken() {
    let t0 = Instant::now();
    // Seated at 5 s of wall time, seen at 65 s (a restart): 2 of 3 minutes are left.
    let mut room = room_of(
        Spec {
            seated_ms: Some(5_000),
            ..spec([Player::Human; 2], None)
        },
        t0,
    );
    room.expire_setup(Duration::from_secs(24 * 3600), 65_000, t0);
    assert_eq!(room.deadline(), Some(t0 + Duration::from_secs(120)));
    assert!(
        !room.setup_expired(t0 + Duration::from_secs(100_000)),
        "seated games never expire"
    );
    // Neither side has a formation in: White's is named.
    let from = room.expire(t0 + Duration::from_secs(120)).unwrap();
    assert_eq!(
        room.events()[from..],
        [Event::Aborted {
            reason: AbortReason::SetupTime,
            side: Side::White,
        }]
    );
    // With both in, play starts and no setup time runs any more.
    let mut room = seated(10_000, 0, t0);
    set_up(&mut room, Side::White, 1, t0).unwrap();
    set_up(&mut room, Side::Black, 2, t0).unwrap();
    assert_eq!(room.expire(t0 + Duration::from_secs(11)), None);
    assert_eq!(room.phase(), Phase::Playing);
}

#[test]
fn a_pause_of_the_server_is_not_taken_from_the_setup_time() {
    let t0 = Instant::now();
    let mut room = seated(10_000, 0, t0);
    room.absorb_pauses(Duration::from_secs(3), t0 + Duration::from_secs(4));
    assert_eq!(room.deadline(), Some(t0 + Duration::from_secs(13)));
}

#[test]
fn a_seat_may_abort_until_the_first_ply_and_not_after() {
    let now = Instant::now();
    for moves in [0, 1] {
        let mut room = started(Some(clock_of(60_000)), now);
        if moves == 1 {
            let mv = room.legal_moves()[0].to_string();
            play(&mut room, Side::White, &mv, 0, now).unwrap();
            let refused = room
                .execute(&Command::Abort { side: Side::Black }, now)
                .unwrap_err();
            assert_eq!(refused.code, Code::WrongPhase);
            assert_eq!(room.phase(), Phase::Playing);
            continue;
        }
        let answer = room.execute(&Command::Abort { side: Side::Black }, now);
        assert_eq!(answer, Ok(Change::Events(3)));
        assert_eq!(room.phase(), Phase::Aborted);
        assert_eq!(room.record(), None);
        assert_eq!(room.clock(now).unwrap().running, None, "the clock stopped");
        let frame = room.frame(room.version(), Recipient::Seat(Side::White));
        assert_eq!(
            &*frame,
            r#"{"t":"aborted","v":4,"reason":"abort","side":"black"}"#
        );
        let mv = room.legal_moves();
        assert!(mv.is_empty(), "no move in an aborted game");
    }
    // In the setup phase too, with one formation in (a spectator may not: the socket's
    // request refuses it, `socket::request`).
    let mut room = seated(60_000, 0, now);
    set_up(&mut room, Side::White, 1, now).unwrap();
    room.execute(&Command::Abort { side: Side::White }, now)
        .unwrap();
    assert_eq!(room.phase(), Phase::Aborted);
}

#[test]
fn a_rematch_is_due_when_both_offers_stand_and_an_offer_lapses() {
    let now = Instant::now();
    let mut room = started(None, now);
    let ask = |room: &mut Room, side, at| room.execute(&Command::Rematch { side }, at);
    assert_eq!(
        ask(&mut room, Side::White, now).unwrap_err().code,
        Code::WrongPhase
    );
    room.execute(&Command::Resign { side: Side::Black }, now)
        .unwrap();
    let from = room.version() as usize;
    assert_eq!(ask(&mut room, Side::White, now), Ok(Change::Events(from)));
    assert_eq!(
        &*room.frame(room.version(), Recipient::Spectator),
        r#"{"t":"rematch-offer","v":5,"side":"white"}"#
    );
    assert_eq!(
        ask(&mut room, Side::White, now).unwrap_err().code,
        Code::WrongPhase
    );
    assert!(!room.rematch_due(now));
    // Black answers after the offer lapsed: its own offer stands, White's does not.
    let late = now + REMATCH_LAPSE;
    ask(&mut room, Side::Black, late).unwrap();
    assert!(!room.rematch_due(late));
    ask(&mut room, Side::White, late).unwrap();
    assert!(room.rematch_due(late));
    // Made: asking again is for the seat in it; the log restores with it.
    room.apply(
        Event::Rematched {
            game: "next".into(),
        },
        late,
    );
    assert!(!room.rematch_due(late));
    assert_eq!(
        ask(&mut room, Side::Black, late),
        Ok(Change::Rematch(Side::Black))
    );
    let back = Room::restore(room.saved(), Duration::from_secs(60), 100, late).unwrap();
    assert_eq!(back.rematched(), Some("next"));
    // An aborted game has no rematch.
    let mut aborted = started(None, now);
    aborted
        .execute(&Command::Abort { side: Side::White }, now)
        .unwrap();
    assert_eq!(
        ask(&mut aborted, Side::White, now).unwrap_err().code,
        Code::WrongPhase
    );
}

#[test]
fn a_bot_accepts_a_rematch_at_once() {
    let now = Instant::now();
    let mut room = against_a_bot(now);
    set_up(&mut room, Side::White, 1, now).unwrap();
    room.execute(&Command::Resign { side: Side::White }, now)
        .unwrap();
    let from = room.version() as usize;
    room.execute(&Command::Rematch { side: Side::White }, now)
        .unwrap();
    assert_eq!(
        room.events()[from..],
        [
            Event::RematchOffer { side: Side::White },
            Event::RematchOffer { side: Side::Black }
        ]
    );
    assert!(room.rematch_due(now));
}
