// The C# package's tests, a console program run under Mono by scripts/test-csharp:
//   mono tests.exe include/salpakan.h tests/data/bindings.txt
// 1. Every enum value and constant of the package against include/salpakan.h (read as text).
// 2. Every row of the shared table (tests/data/bindings.txt) the C ABI can express, accepted
//    or refused as the table says, with the result code of the row's error kind: the same
//    rows and rules as the C ABI's own runner (capi/tests/bindings.rs).
// 3. The API itself: a game played to its end by two agents, its record read back, views
//    that never show an enemy rank, beliefs that sum to one, handles freed exactly once.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using Salpakan;

static class Tests
{
    static int failures;

    static void Check(bool ok, string what)
    {
        if (ok) return;
        failures++;
        Console.WriteLine("FAIL " + what);
    }

    // CamelCase as the header's UPPER_SNAKE: SecondLieutenant -> SECOND_LIEUTENANT.
    static string Snake(string name)
    {
        return Regex.Replace(name, "(?<=[a-z0-9])([A-Z])", "_$1").ToUpperInvariant();
    }

    static void HeaderAgrees(string headerPath)
    {
        var header = new Dictionary<string, long>();
        foreach (Match m in Regex.Matches(File.ReadAllText(headerPath), @"(?m)^#define (SALPAKAN_\w+) (\d+)$|^\s*(SALPAKAN_RESULT_\w+) = (\d+),"))
        {
            if (m.Groups[1].Success) header[m.Groups[1].Value] = long.Parse(m.Groups[2].Value);
            else header[m.Groups[3].Value] = long.Parse(m.Groups[4].Value);
        }
        var covered = new HashSet<string>();
        Action<string, long> expect = (name, value) =>
        {
            covered.Add(name);
            long found;
            Check(header.TryGetValue(name, out found), name + " is in the header");
            Check(!header.ContainsKey(name) || found == value, name + ": header " + found + ", C# " + value);
        };
        foreach (Side v in Enum.GetValues(typeof(Side))) expect("SALPAKAN_" + Snake(v.ToString()), (long)v);
        foreach (Rank v in Enum.GetValues(typeof(Rank))) expect("SALPAKAN_RANK_" + Snake(v.ToString()), (long)v);
        foreach (Outcome v in Enum.GetValues(typeof(Outcome))) expect("SALPAKAN_OUTCOME_" + Snake(v.ToString()), (long)v);
        foreach (State v in Enum.GetValues(typeof(State))) expect("SALPAKAN_STATE_" + Snake(v.ToString()), (long)v);
        foreach (Reason v in Enum.GetValues(typeof(Reason))) expect("SALPAKAN_REASON_" + Snake(v.ToString()), (long)v);
        foreach (ResultCode v in Enum.GetValues(typeof(ResultCode))) expect("SALPAKAN_RESULT_" + Snake(v.ToString()), (long)v);
        foreach (AgentKind v in Enum.GetValues(typeof(AgentKind))) expect("SALPAKAN_AGENT_" + Snake(v.ToString()), (long)v);
        foreach (var field in typeof(Limits).GetFields())
        {
            long value = Convert.ToInt64(field.GetValue(null));
            if (field.Name == "Ranks") Check(value == header["SALPAKAN_RANK_SPY"] + 1, "Ranks is Flag … Spy");
            else expect("SALPAKAN_" + Snake(field.Name), value);
        }
        // What the package leaves out of its constants, on purpose (the observation tensor and
        // perft are not wrapped; "no side/piece/outcome" are nulls in C#).
        var apart = new[] { "SALPAKAN_NO_SIDE", "SALPAKAN_NO_PIECE", "SALPAKAN_NO_OUTCOME", "SALPAKAN_VERSION_PATCH",
            "SALPAKAN_ACTION_MASK_BYTES", "SALPAKAN_OBSERVATION_PLANES", "SALPAKAN_OBSERVATION_LEN", "SALPAKAN_MAX_PERFT_DEPTH" };
        foreach (var name in header.Keys)
            Check(covered.Contains(name) || apart.Contains(name), name + " has a C# name");
        Console.WriteLine("the header: " + covered.Count + " names agree");
    }

    // ----- the shared table -----

    // A row's argument: a JSON number or string (the table's words have no spaces).
    static object Arg(string word)
    {
        if (word.StartsWith("\"")) return word.Substring(1, word.Length - 2);
        long n;
        if (long.TryParse(word, out n)) return n;
        return double.Parse(word, System.Globalization.CultureInfo.InvariantCulture);
    }

    // An argument the C ABI takes as a uint8_t, if it is one.
    static byte? Byte(object value)
    {
        if (!(value is long)) return null;
        long n = (long)value;
        return n >= 0 && n <= 255 ? (byte?)n : null;
    }

    static readonly Rules Official = Rules.Official;

    static Game Fixture() { return Game.Dealt(1, 2, Side.White, Official); }

    // What `act` answers: Ok, or the code of the refusal it threw.
    static ResultCode Code(Action act)
    {
        try { act(); return ResultCode.Ok; }
        catch (SalpakanException e) { return e.Code; }
    }

    static ResultCode Made(Func<Game> make)
    {
        return Code(() => { using (make()) { } });
    }

    static Game FromText(Game game) { return Game.FromText(game.ToText()); }

    static string CommittedRecord(string word, Game game)
    {
        if (word != "@committed" && word != "@forged") return word == "@fixture" ? game.Record() : word;
        var salts = new[] { Enumerable.Range(0, 16).Select(i => (byte)i).ToArray(), Enumerable.Range(16, 16).Select(i => (byte)i).ToArray() };
        for (byte side = 0; side < 2; side++)
        {
            byte[] commitment = game.Commit(side, salts[side]);
            Check(commitment.Any(b => b != 0), "a commitment is written");
            game.OpenCommitment(side, salts[side]);
        }
        string record = game.Record();
        return word == "@forged" ? record.Replace("[BlackSalt \"10", "[BlackSalt \"00") : record;
    }

    static ResultCode? Run(string op, List<string> words)
    {
        Func<int, object> arg = i => Arg(words[i]);
        using (var game = Fixture())
        {
            switch (op)
            {
                case "first":
                {
                    byte? side = Byte(arg(0));
                    if (side == null) return null;
                    return Made(() => Game.New(Game.RandomSetup(Side.White, 3, 1), Game.RandomSetup(Side.Black, 3, 2), side.Value, Official));
                }
                case "move":
                {
                    byte? from = Byte(arg(0)), to = Byte(arg(1));
                    if (from == null || to == null) return null;
                    return Code(() => game.Play(new Move(from.Value, to.Value)));
                }
                case "notation":
                case "action":
                case "replay":
                case "replay-beliefs":
                case "replay-odds":
                    // Not in the C ABI (docs/C.md says so): skipped, as by the C ABI's runner.
                    return null;
                case "cells":
                case "typed-cells":
                {
                    var cells = Game.RandomSetup(Side.White, 3, 1).Select(b => (object)(long)b).ToList();
                    foreach (var edit in words)
                    {
                        var parts = edit.Split('=');
                        if (parts[0] == "len")
                        {
                            int n = int.Parse(parts[1]);
                            while (cells.Count < n) cells.Add(255L);
                            if (cells.Count > n) cells.RemoveRange(n, cells.Count - n);
                        }
                        else cells[Move.SquareOf(parts[0])] = Arg(parts[1]);
                    }
                    var bytes = cells.Select(Byte).ToList();
                    if (bytes.Any(b => b == null)) return null;
                    if (bytes.Count != Limits.Squares)
                        return Made(() => Game.New(bytes.Select(b => b.Value).ToArray(), Game.RandomSetup(Side.Black, 3, 2), Side.White, Official));
                    return Made(() => Game.New(bytes.Select(b => b.Value).ToArray(), Game.RandomSetup(Side.Black, 3, 2), Side.White, Official));
                }
                case "rules":
                {
                    byte? rows = Byte(arg(0));
                    object limit = arg(1);
                    if (rows == null || !(limit is long) || (long)limit < 0 || (long)limit > 65535) return null;
                    var rules = new Rules(rows.Value, (ushort)(long)limit);
                    return Made(() => Game.New(Game.RandomSetup(Side.White, 3, 1), Game.RandomSetup(Side.Black, 3, 2), Side.White, rules));
                }
                case "challenge":
                {
                    byte? a = Byte(arg(0)), d = Byte(arg(1));
                    if (a == null || d == null) return null;
                    return Code(() => Game.Challenge((Rank)a.Value, (Rank)d.Value));
                }
                case "agent":
                {
                    var kind = (string)arg(0) == "random" ? AgentKind.Random : (string)arg(0) == "greedy" ? AgentKind.Greedy : AgentKind.Ismcts;
                    using (var agent = Agent.New(kind, 1, 100))
                    {
                        switch ((string)arg(1))
                        {
                            case "turn": return Code(() => agent.Choose(game, Side.White));
                            case "other": return Code(() => agent.Choose(game, Side.Black));
                            case "over":
                                game.Resign(Side.White);
                                return Code(() => agent.Choose(game, Side.Black));
                            default:
                                using (var text = FromText(game)) return Code(() => agent.Choose(text, Side.White));
                        }
                    }
                }
                case "after-end":
                {
                    game.Resign(Side.White);
                    switch ((string)arg(0))
                    {
                        case "play": return Code(() => game.Play(new Move(22, 31)));
                        case "resign": return Code(() => game.Resign(Side.Black));
                        case "time": return Code(() => game.LoseOnTime(1));
                        case "abandoned": return Code(() => game.Abandon(1));
                        case "both-left": return Code(() => game.AbandonByBoth());
                        default: return Code(() => game.AgreeDraw());
                    }
                }
                case "commit":
                {
                    byte? side = Byte(arg(0));
                    var hex = arg(1) as string;
                    if (side == null || hex == null || hex.Length != 32 || !Regex.IsMatch(hex, "^[0-9a-fA-F]{32}$")) return null;
                    var salt = Enumerable.Range(0, 16).Select(i => Convert.ToByte(hex.Substring(2 * i, 2), 16)).ToArray();
                    return Code(() => game.Commit(side.Value, salt));
                }
                case "verify":
                {
                    string record = CommittedRecord((string)arg(0), game);
                    return Code(() => { using (var copy = Game.FromRecord(record)) copy.VerifyCommitments(); });
                }
                case "record":
                {
                    string text = (string)arg(0) == "@fixture" ? game.Record() : (string)arg(0);
                    return Made(() => Game.FromRecord(text));
                }
                case "position":
                {
                    string text = (string)arg(0) == "@fixture" ? game.ToText() : (string)arg(0);
                    return Made(() => Game.FromText(text));
                }
                case "both-left":
                {
                    var result = Code(() => game.AbandonByBoth());
                    Check(game.Status.State == State.Drawn && game.Status.Reason == Reason.AbandonedByBoth, "both left: drawn, abandoned by both");
                    return result;
                }
                case "end":
                {
                    byte? loser = Byte(arg(1));
                    if (loser == null) return null;
                    return (string)arg(0) == "time" ? Code(() => game.LoseOnTime(loser.Value)) : Code(() => game.Abandon(loser.Value));
                }
                case "beliefs":
                {
                    if (arg(0) is string)
                        using (var text = FromText(game)) return Code(() => text.Beliefs(Side.White));
                    byte? side = Byte(arg(0));
                    if (side == null) return null;
                    return Code(() => game.Beliefs(side.Value));
                }
                default:
                    throw new InvalidOperationException("unknown operation " + op);
            }
        }
    }

    static ResultCode Expected(string kind)
    {
        switch (kind)
        {
            case "ok": return ResultCode.Ok;
            case "argument":
            case "observe": return ResultCode.InvalidArgument;
            case "setup": return ResultCode.InvalidSetup;
            case "illegal-move": return ResultCode.IllegalMove;
            case "game-over": return ResultCode.GameOver;
            case "text": return ResultCode.Parse;
            case "commitment": return ResultCode.NotVerified;
            default: throw new InvalidOperationException("unknown kind " + kind);
        }
    }

    static void TableAgrees(string tablePath)
    {
        int ran = 0, rows = 0, n = 0;
        foreach (var line in File.ReadAllLines(tablePath))
        {
            n++;
            if (line.Trim().Length == 0 || line.StartsWith("#")) continue;
            rows++;
            int at = line.IndexOf(" -> ", StringComparison.Ordinal);
            var words = line.Substring(0, at).Split(new[] { ' ' }, StringSplitOptions.RemoveEmptyEntries).ToList();
            string op = words[0];
            words.RemoveAt(0);
            string expect = line.Substring(at + 4).Trim();
            ResultCode? got = Run(op, words);
            if (got == null) continue;
            ran++;
            Check(got.Value == Expected(expect), "line " + n + ": " + line + ": got " + got.Value);
        }
        Check(ran >= 50, "only " + ran + " of " + rows + " rows ran");
        Console.WriteLine("the shared table: " + ran + " of " + rows + " rows ran through C#, the rest need words or functions the C ABI lacks");
    }

    // ----- the API -----

    static void ApiWorks()
    {
        Check(Game.LibraryVersion.StartsWith(Limits.VersionMajor + "." + Limits.VersionMinor + "."), "the library is " + Game.LibraryVersion);
        int plies = 0;
        string record;
        Status end;
        using (var game = Game.Dealt(11, 12, Side.Black, new Rules(3, 200)))
        using (var white = Agent.New(AgentKind.Greedy, 5, 0))
        using (var black = Agent.Level(2, 6))
        {
            while (game.Status.IsOngoing)
            {
                var side = game.SideToMove;
                var mv = (side == Side.White ? white : black).Choose(game, side);
                Check(game.LegalMoves().Contains(mv), "an agent's move is legal");
                game.Play(mv);
                plies++;
                foreach (var cell in game.View(side))
                    Check(cell.Side != (side == Side.White ? Side.Black : Side.White) || cell.Rank == Rank.Unknown, "a view shows no enemy rank");
            }
            end = game.Status;
            record = game.Record();
            Check(game.LegalMoves().Length == 0, "a finished game has no legal moves");
            var e = Code(() => game.Play(new Move(22, 31)));
            Check(e == ResultCode.GameOver, "a move after the end is refused: " + e);
        }
        Check(!end.IsOngoing && plies > 0, "the agents played to an end");
        using (var again = Game.FromRecord(record))
        {
            Check(again.Record() == record, "a record reads back to itself");
            string line = "[Format \"" + Limits.TextFormat + "\"]\n";
            Check(record.StartsWith(line), "a record says its text format first");
            string newer = "[Format \"" + (Limits.TextFormat + 1) + "\"]\n" + record.Substring(line.Length);
            try { Game.FromRecord(newer).Dispose(); Check(false, "a newer format is refused"); }
            catch (SalpakanException e) { Check(e.Code == ResultCode.Parse && e.Message.Contains("from a later release"), "a newer format is refused as newer: " + e.Message); }
            Check(again.Status.Reason == end.Reason, "the record keeps the end");
        }
        using (var fresh = Game.Dealt(1, 2, Side.White, Rules.Official))
        {
            double[] p = fresh.Beliefs(Side.White);
            var view = fresh.View(Side.White);
            for (int sq = 0; sq < Limits.Squares; sq++)
            {
                double sum = 0;
                for (int r = 0; r < Limits.Ranks; r++) sum += p[sq * Limits.Ranks + r];
                if (view[sq].Side == Side.Black) Check(Math.Abs(sum - 1) < 1e-9, "beliefs of an enemy piece sum to 1");
            }
            try
            {
                fresh.Play(new Move(0, 40));
                Check(false, "an illegal move throws");
            }
            catch (SalpakanException e)
            {
                Check(e.Code == ResultCode.IllegalMove && e.Message.Length > 0, "the exception carries the library's words: " + e.Message);
            }
        }
        // A seat's tracker: fed only the reports, its beliefs are the arbiter's game's for
        // that side at every ply, and a report that cannot be is refused, changing nothing.
        using (var arbiter = Game.Dealt(21, 22, Side.White, new Rules(3, 200)))
        using (var agent = Agent.New(AgentKind.Greedy, 3, 0))
        {
            Cell[] view = arbiter.View(Side.Black);
            var enemy = view.Select(c => c.Side == Side.White).ToArray();
            using (var seat = Tracker.New(Game.RandomSetup(Side.Black, 3, 22), Side.Black, enemy, Side.White, new Rules(3, 200)))
            {
                for (int ply = 0; ply < 60 && arbiter.Status.IsOngoing; ply++)
                {
                    Side side = arbiter.SideToMove;
                    Move move = side == Side.Black ? agent.Choose(seat) : arbiter.LegalMoves()[ply % arbiter.LegalMoves().Length];
                    seat.Observe(arbiter.Play(move));
                    Check(seat.Beliefs().SequenceEqual(arbiter.Beliefs(Side.Black)), "the tracker's beliefs are the game's for Black at ply " + (ply + 1));
                }
                double[] before = seat.Beliefs();
                var bad = new Report(new Move(22, 31), Outcome.Win, State.Ongoing, null, Reason.None);
                var impossible = Code(() => seat.Observe(bad));
                Check(impossible == ResultCode.InvalidArgument, "an impossible report is refused: " + impossible);
                Check(seat.Beliefs().SequenceEqual(before), "a refused report changes nothing");
                var wrong = Code(() => Tracker.New(Game.RandomSetup(Side.Black, 3, 22), Side.Black, new bool[72], Side.White, Rules.Official).Dispose());
                Check(wrong == ResultCode.InvalidArgument, "no enemy squares: refused (" + wrong + ")");
            }
        }
        // Handles: a disposed game refuses use, twice disposing is harmless, and thousands
        // made and dropped leave nothing behind (the finalizer frees those not disposed).
        var g = Game.Dealt(3, 4, Side.White, Rules.Official);
        g.Dispose();
        g.Dispose();
        bool refused = false;
        try { g.Play(new Move(22, 31)); }
        catch (ObjectDisposedException) { refused = true; }
        Check(refused, "a disposed game is not used");
        for (int i = 0; i < 5000; i++) Game.Dealt((ulong)i, (ulong)i + 1, Side.White, Rules.Official).LegalMoves();
        GC.Collect();
        GC.WaitForPendingFinalizers();
        Console.WriteLine("the API: a game of " + plies + " plies (" + end + "), its record read back, views, beliefs, handles");
    }

    static int Main(string[] args)
    {
        HeaderAgrees(args[0]);
        TableAgrees(args[1]);
        ApiWorks();
        Console.WriteLine(failures == 0 ? "ok" : failures + " failures");
        return failures == 0 ? 0 : 1;
    }
}
