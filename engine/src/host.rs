//! The host's side: engines reached as child processes or in this process ([`Seat`]), and a
//! game between two of them with the arbiter's real [`Game`] ([`Match`]). Each engine is
//! sent its own formation back only as it gave it, the squares the enemy stands on, each
//! ply's public move, the arbiter's word and the status: the host's own lines to a seat
//! ([`Seat::sent`]) are a function of that side's knowledge, which the twin tests hold to the
//! byte. An engine that answers late, says a line the protocol does not have there, plays a
//! move the rules refuse or gives a formation they refuse loses the game, and the `over`
//! line names its fault; nothing an engine does makes the host wait past its limits.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use salpakan::{Bitboard, DeclaredEnd, Game, Move, Report, Rules, Setup, Side, Status, WinReason};

use crate::engine::Engine;
use crate::protocol::{EngineLine, Forfeit, HostLine, MAX_LINE, VERSION};

/// How long the host waits for each answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// For the introduction (`sepok`) and for `ready`.
    pub hello: Duration,
    /// For a formation.
    pub formation: Duration,
    /// For a move.
    pub mv: Duration,
}

impl Default for Limits {
    /// 10 seconds for each.
    fn default() -> Limits {
        Limits {
            hello: Duration::from_secs(10),
            formation: Duration::from_secs(10),
            mv: Duration::from_secs(10),
        }
    }
}

/// Why an engine's answer did not come.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Fault {
    /// Not in time.
    Timeout,
    /// A line that is not the protocol's, or not this one, or said before it was asked, or
    /// the engine's output closed (said).
    BadLine(String),
    /// A `formation` line, when one was asked, whose formation the host cannot read (said):
    /// a wrong number of pieces, a square twice, a rank it does not know.
    BadFormation(String),
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Timeout => f.write_str("no answer in time"),
            Fault::BadLine(why) | Fault::BadFormation(why) => f.write_str(why),
        }
    }
}

impl Fault {
    /// The forfeit it is, as an `over` line names it.
    #[must_use]
    pub fn forfeit(&self) -> Forfeit {
        match self {
            Fault::Timeout => Forfeit::Timeout,
            Fault::BadLine(_) => Forfeit::BadLine,
            Fault::BadFormation(_) => Forfeit::BadFormation,
        }
    }
}

/// What the engine's output reader hands the host: when it read it, and a line or why there
/// is none.
type Heard = (Instant, Result<String, String>);

/// A child process speaking the protocol on its standard input and output.
struct Process {
    child: Child,
    /// Its input (`None` once closed, as the host lets it go).
    input: Option<ChildStdin>,
    lines: Receiver<Heard>,
}

/// How long an engine let go has to read what it was sent last (its `over`, `quit`) and
/// exit before it is killed.
const GRACE: Duration = Duration::from_millis(500);

impl Drop for Process {
    /// Closes its input, gives it [`GRACE`] to read what it was sent and exit, then kills it.
    fn drop(&mut self) {
        drop(self.input.take());
        let until = Instant::now() + GRACE;
        while Instant::now() < until {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads `output`'s lines into `to`, each at most [`MAX_LINE`] bytes, with when each was
/// read; a longer one, or the end, is said and ends the reading. What the engine writes after
/// that is drained unread, so that an engine writing on is never blocked on its output and
/// still reads what the host sends it (its `over`).
fn read_lines(output: impl Read, to: &mpsc::Sender<Heard>) {
    let mut reader = BufReader::new(output);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let read = reader
            .by_ref()
            .take(MAX_LINE as u64 + 2)
            .read_until(b'\n', &mut buf);
        let heard = match read {
            Ok(0) => Err("the engine closed its output".to_owned()),
            Ok(_) if buf.last() != Some(&b'\n') => Err(format!(
                "a line longer than {MAX_LINE} bytes, or none ended"
            )),
            Ok(_) => Ok(String::from_utf8_lossy(&buf).into_owned()),
            Err(e) => Err(e.to_string()),
        };
        let last = heard.is_err();
        if to.send((Instant::now(), heard)).is_err() || last {
            break;
        }
    }
    let _ = io::copy(&mut reader, &mut io::sink());
}

/// `command` as `sh -c` runs it: a simple command (a program and its words, nothing the shell
/// would do itself) is run with `exec`, so that the engine holds its output alone and closing
/// it is seen at once; anything else as it is.
fn shell_line(command: &str) -> String {
    let plain = !command.contains(['\n', ';', '&', '|', '<', '>', '(', ')', '$', '`', '{', '}'])
        && command
            .split_whitespace()
            .next()
            .is_some_and(|first| !["while", "for", "until", "if", "case", "exec"].contains(&first));
    if plain {
        format!("exec {command}")
    } else {
        command.to_owned()
    }
}

enum Conn {
    Process(Process),
    InProcess(Box<dyn Engine + Send>, VecDeque<EngineLine>),
}

/// An engine as the host reaches it, with every line the host sent it and every `info` it
/// said.
pub struct Seat {
    conn: Conn,
    introduced: bool,
    name: Option<String>,
    sent: Vec<String>,
    said: Vec<String>,
    /// When the host last sent it a line: an answer read before it was said too soon.
    sent_at: Instant,
}

impl Seat {
    /// The engine `command` runs (through `sh -c`), its standard error passed through.
    ///
    /// # Errors
    /// The process's, if it cannot start.
    pub fn spawn(command: &str) -> io::Result<Seat> {
        let mut child = Command::new("sh")
            .args(["-c", &shell_line(command)])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()?;
        let input = child
            .stdin
            .take()
            .ok_or_else(|| io::Error::other("no stdin"))?;
        let output = child
            .stdout
            .take()
            .ok_or_else(|| io::Error::other("no stdout"))?;
        let (to, lines) = mpsc::channel();
        thread::Builder::new()
            .name("salpakan-engine-reader".into())
            .spawn(move || read_lines(output, &to))?;
        Ok(Seat::of(Conn::Process(Process {
            child,
            input: Some(input),
            lines,
        })))
    }

    /// An engine in this process, such as one of the crate's agents
    /// ([`crate::engine::AgentEngine`]): its answers come at once.
    #[must_use]
    pub fn in_process(engine: impl Engine + Send + 'static) -> Seat {
        Seat::of(Conn::InProcess(Box::new(engine), VecDeque::new()))
    }

    fn of(conn: Conn) -> Seat {
        Seat {
            conn,
            introduced: false,
            name: None,
            sent: Vec::new(),
            said: Vec::new(),
            sent_at: Instant::now(),
        }
    }

    /// The engine's name, once it introduced itself.
    #[must_use]
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Every line the host sent it, in order, without their line ends.
    #[must_use]
    pub fn sent(&self) -> &[String] {
        &self.sent
    }

    /// Every `info` line it said, in order.
    #[must_use]
    pub fn said(&self) -> &[String] {
        &self.said
    }

    fn send(&mut self, line: &HostLine) {
        let text = line.to_string();
        self.sent.push(text.clone());
        match &mut self.conn {
            // A closed input is found when the answer does not come.
            Conn::Process(p) => {
                // Before the write: an answer to it is read after this.
                self.sent_at = Instant::now();
                if let Some(input) = &mut p.input {
                    let _ = writeln!(input, "{text}").and_then(|()| input.flush());
                }
            }
            Conn::InProcess(engine, queue) => queue.extend(engine.answer(line)),
        }
    }

    /// The engine's next line other than `info`, within `within`: a line it said before the
    /// host's last line (the question this answers) is out of place, and a bad line.
    fn recv(&mut self, within: Duration) -> Result<EngineLine, Fault> {
        let deadline = Instant::now() + within;
        loop {
            let (text, early) = match &mut self.conn {
                Conn::InProcess(_, queue) => match queue.pop_front() {
                    Some(line) => (line.to_string(), false),
                    None => return Err(Fault::BadLine("no answer".into())),
                },
                Conn::Process(p) => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    match p.lines.recv_timeout(left) {
                        Ok((at, Ok(text))) => (text, at < self.sent_at),
                        Ok((_, Err(why))) => return Err(Fault::BadLine(why)),
                        Err(RecvTimeoutError::Timeout) => return Err(Fault::Timeout),
                        Err(RecvTimeoutError::Disconnected) => {
                            return Err(Fault::BadLine("the engine closed its output".into()));
                        }
                    }
                }
            };
            match text.parse::<EngineLine>() {
                Ok(EngineLine::Info(said)) => self.said.push(said),
                Ok(line) if early => {
                    return Err(Fault::BadLine(format!("{line} before it was asked")));
                }
                Ok(line) => return Ok(line),
                Err(e)
                    if text.starts_with("formation ")
                        && self.sent.last().is_some_and(|l| l == "formation") =>
                {
                    return Err(Fault::BadFormation(format!("{:?}: {e}", text.trim_end())));
                }
                Err(e) => return Err(Fault::BadLine(format!("{:?}: {e}", text.trim_end()))),
            }
        }
    }

    /// The introduction, once: `sep 1`, then `id`/`option` lines until `sepok`.
    fn introduce(&mut self, limits: &Limits) -> Result<(), Fault> {
        if self.introduced {
            return Ok(());
        }
        self.send(&HostLine::Hello { version: VERSION });
        loop {
            match self.recv(limits.hello)? {
                EngineLine::SepOk => break,
                EngineLine::Id { key, value } if key == "name" => self.name = Some(value),
                EngineLine::Id { .. } | EngineLine::Option { .. } => {}
                other => return Err(Fault::BadLine(format!("{other} before sepok"))),
            }
        }
        self.introduced = true;
        Ok(())
    }

    /// Sets option `name` to `value` (before a game).
    pub fn set_option(&mut self, name: &str, value: &str) {
        self.send(&HostLine::SetOption {
            name: name.to_owned(),
            value: value.to_owned(),
        });
    }

    /// Tells the engine to quit, and lets it go (killed if it has not exited within a
    /// second). Returns whether it exited by itself.
    pub fn quit(mut self) -> bool {
        self.send(&HostLine::Quit);
        if let Conn::Process(p) = &mut self.conn {
            for _ in 0..100 {
                if matches!(p.child.try_wait(), Ok(Some(_))) {
                    return true;
                }
                thread::sleep(Duration::from_millis(10));
            }
            return false;
        }
        true
    }
}

/// One seat's game driven step by step, by a host that does not hold the game itself (the
/// server's bridge: the arbiter is the server, and these lines are made from what the
/// seat's socket says).
impl Seat {
    /// Introduces the engine (once), then `newgame` and `formation`: its formation, not yet
    /// checked against the rules (the arbiter checks it).
    ///
    /// # Errors
    /// The engine's [`Fault`]: late, or a line that is not the answer.
    pub fn new_game(
        &mut self,
        (side, first, rules): (Side, Side, Rules),
        limits: &Limits,
    ) -> Result<Setup, Fault> {
        self.introduce(limits)?;
        self.send(&HostLine::NewGame { side, first, rules });
        match self.recv(limits.hello)? {
            EngineLine::Ready => {}
            other => return Err(Fault::BadLine(format!("{other} for ready"))),
        }
        self.send(&HostLine::Formation);
        match self.recv(limits.formation)? {
            EngineLine::Formation(setup) => Ok(setup),
            other => Err(Fault::BadLine(format!("{other} for a formation"))),
        }
    }

    /// `start`: both formations are in; the enemy stands on `enemy`.
    pub fn start(&mut self, enemy: Bitboard) {
        self.send(&HostLine::Start { enemy });
    }

    /// `ply`: a ply of either side, as the arbiter announced it.
    pub fn ply(&mut self, report: Report) {
        self.send(&HostLine::Ply(report));
    }

    /// `go`: the engine's move within `within` (`None`: it resigns), told both clocks (its
    /// own first) in a timed game.
    ///
    /// # Errors
    /// The engine's [`Fault`].
    pub fn go(
        &mut self,
        clocks: Option<(u64, u64)>,
        within: Duration,
    ) -> Result<Option<Move>, Fault> {
        self.send(&HostLine::Go { clocks });
        match self.recv(within)? {
            EngineLine::Move(mv) => Ok(Some(mv)),
            EngineLine::Resign => Ok(None),
            other => Err(Fault::BadLine(format!("{other} for a move"))),
        }
    }

    /// `over`: the game ended, by `forfeit` of this engine's if one ended it.
    pub fn over(&mut self, status: Status, forfeit: Option<Forfeit>) {
        self.send(&HostLine::Over { status, forfeit });
    }
}

/// A game's settings, as a host plays it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Match {
    /// The rules (default: three setup rows, a draw after 200 plies without a challenge).
    pub rules: Rules,
    /// The side that moves first.
    pub first: Side,
    /// How long the host waits.
    pub limits: Limits,
}

impl Default for Match {
    fn default() -> Match {
        Match {
            rules: Rules::new(3, 200).unwrap_or_default(),
            first: Side::White,
            limits: Limits::default(),
        }
    }
}

/// How a game between engines went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Played {
    /// How it ended.
    pub status: Status,
    /// The engine whose fault ended it, and the fault.
    pub forfeit: Option<(Side, Forfeit)>,
    /// What the host saw wrong, in words (for a forfeit).
    pub why: Option<String>,
    /// The game record, if both formations were in.
    pub record: Option<String>,
    /// Plies played.
    pub plies: usize,
}

impl Match {
    /// With `rules`.
    #[must_use]
    pub fn rules(mut self, rules: Rules) -> Match {
        self.rules = rules;
        self
    }

    /// With `first` to move first.
    #[must_use]
    pub fn first(mut self, first: Side) -> Match {
        self.first = first;
        self
    }

    /// With `limits`.
    #[must_use]
    pub fn limits(mut self, limits: Limits) -> Match {
        self.limits = limits;
        self
    }

    /// Plays a game between `seats` (White's, Black's) to its end, telling both how it ended.
    pub fn play(&self, seats: [&mut Seat; 2]) -> Played {
        let [white, black] = seats;
        let mut seats = [white, black];
        let played = self.run(&mut seats);
        for seat in seats {
            seat.send(&HostLine::Over {
                status: played.status,
                forfeit: played.forfeit.map(|(_, f)| f),
            });
        }
        played
    }

    fn run(&self, seats: &mut [&mut Seat; 2]) -> Played {
        let lost = |side: Side, fault: &Fault| -> Played {
            Played {
                status: Status::Won {
                    winner: side.other(),
                    reason: if *fault == Fault::Timeout {
                        WinReason::Time
                    } else {
                        WinReason::Resignation
                    },
                },
                forfeit: Some((side, fault.forfeit())),
                why: Some(fault.to_string()),
                record: None,
                plies: 0,
            }
        };
        let mut setups: [Option<Setup>; 2] = [None, None];
        for side in Side::ALL {
            let seat = &mut seats[side.index()];
            if let Err(fault) = seat.introduce(&self.limits) {
                return lost(side, &fault);
            }
            seat.send(&HostLine::NewGame {
                side,
                first: self.first,
                rules: self.rules,
            });
            match seat.recv(self.limits.hello) {
                Ok(EngineLine::Ready) => {}
                Ok(other) => return lost(side, &Fault::BadLine(format!("{other} for ready"))),
                Err(fault) => return lost(side, &fault),
            }
        }
        for side in Side::ALL {
            let seat = &mut seats[side.index()];
            seat.send(&HostLine::Formation);
            match seat.recv(self.limits.formation) {
                Ok(EngineLine::Formation(setup)) => match self.check_formation(side, &setup) {
                    Ok(()) => setups[side.index()] = Some(setup),
                    Err(why) => {
                        let mut played = lost(side, &Fault::BadLine(why));
                        played.forfeit = Some((side, Forfeit::BadFormation));
                        return played;
                    }
                },
                Ok(other) => {
                    return lost(side, &Fault::BadLine(format!("{other} for a formation")));
                }
                Err(fault) => return lost(side, &fault),
            }
        }
        let [Some(w), Some(b)] = setups else {
            unreachable!("both formations are in");
        };
        let mut game = match Game::new(w, b, self.first, self.rules) {
            Ok(game) => game,
            Err(e) => unreachable!("each formation was checked: {e}"),
        };
        for side in Side::ALL {
            let enemy = game
                .setup(side.other())
                .map(Setup::occupied)
                .unwrap_or_default();
            seats[side.index()].send(&HostLine::Start { enemy });
        }
        let mut forfeit = None;
        let mut why = None;
        while game.status().is_ongoing() {
            let side = game.side_to_move();
            let seat = &mut seats[side.index()];
            seat.send(&HostLine::Go { clocks: None });
            let answer = seat.recv(self.limits.mv);
            let fault = match answer {
                Ok(EngineLine::Move(mv)) => match game.play(mv) {
                    Ok(report) => {
                        for seat in seats.iter_mut() {
                            seat.send(&HostLine::Ply(report));
                        }
                        continue;
                    }
                    Err(e) => {
                        forfeit = Some((side, Forfeit::IllegalMove));
                        why = Some(format!("{mv}: {e}"));
                        let _ = game.resign(side);
                        break;
                    }
                },
                Ok(EngineLine::Resign) => {
                    let _ = game.resign(side);
                    break;
                }
                Ok(other) => Fault::BadLine(format!("{other} for a move")),
                Err(fault) => fault,
            };
            forfeit = Some((side, fault.forfeit()));
            why = Some(match &fault {
                Fault::Timeout => "no move in time".into(),
                other => other.to_string(),
            });
            let end = if fault == Fault::Timeout {
                DeclaredEnd::Time { loser: side }
            } else {
                DeclaredEnd::Resignation { loser: side }
            };
            let _ = game.declare(end);
        }
        Played {
            status: game.status(),
            forfeit,
            why,
            record: Some(game.record()),
            plies: game.history().len(),
        }
    }

    /// Whether `setup` is a formation `side` may give under the match's rules.
    fn check_formation(&self, side: Side, setup: &Setup) -> Result<(), String> {
        if setup.side() != side {
            return Err(format!("a formation of {}, not {side}", setup.side()));
        }
        let other = Setup::random(side.other(), self.rules, 1);
        let (white, black) = match side {
            Side::White => (setup.clone(), other),
            Side::Black => (other, setup.clone()),
        };
        Game::new(white, black, self.first, self.rules)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
}

/// One check of [`conformance`]: what it checks, and what went wrong if anything did.
pub type Check = (&'static str, Result<(), String>);

/// The conformance checks of the engine `command` runs: it introduces itself within the
/// limits; it plays a whole game as White and one as Black, in one process, against the
/// crate's random agent, with no forfeit (a formation and every move the rules accept, every
/// answer in time, no line the protocol does not have there), taking an option it does not
/// know in its stride; and it exits when told to quit.
#[must_use]
pub fn conformance(command: &str, limits: Limits) -> Vec<Check> {
    use crate::engine::AgentEngine;
    let mut checks: Vec<Check> = Vec::new();
    let mut seat = match Seat::spawn(command) {
        Ok(seat) => seat,
        Err(e) => return vec![("starts", Err(e.to_string()))],
    };
    let intro = seat.introduce(&limits).map_err(|fault| match fault {
        Fault::Timeout => "no sepok in time".to_owned(),
        other => other.to_string(),
    });
    let named = intro.clone().and_then(|()| {
        seat.name()
            .map(|_| ())
            .ok_or_else(|| "no id name line".to_owned())
    });
    checks.push(("introduces itself (id name, sepok)", named));
    if intro.is_err() {
        return checks;
    }
    seat.set_option("no-such-option", "1");
    for (i, side) in Side::ALL.into_iter().enumerate() {
        let mut random = Seat::in_process(
            AgentEngine::new("random", i as u64 + 1)
                .unwrap_or_else(|_| unreachable!("random is an agent")),
        );
        let game = Match::default().limits(limits).first(Side::ALL[i]);
        let played = match side {
            Side::White => game.play([&mut seat, &mut random]),
            Side::Black => game.play([&mut random, &mut seat]),
        };
        let result = match played.forfeit {
            Some((s, forfeit)) if s == side => Err(format!(
                "{}: {}",
                forfeit.word(),
                played.why.unwrap_or_default()
            )),
            _ if played.record.is_none() => Err("the game did not start".to_owned()),
            _ => Ok(()),
        };
        let what = match side {
            Side::White => "plays a whole game as White",
            Side::Black => "plays a whole game as Black, in the same process",
        };
        checks.push((what, result));
    }
    let quit = if seat.quit() {
        Ok(())
    } else {
        Err("still running a second after quit".to_owned())
    };
    checks.push(("exits when told to quit", quit));
    checks
}
