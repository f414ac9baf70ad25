// The values of the C ABI as C# types: sides, ranks, outcomes, statuses, rules, moves and
// the result codes, each with the number include/salpakan.h gives it (a test reads the header
// and compares every one).
using System;

namespace Salpakan
{
    /// <summary>One of the two armies. The colours are only names: who moves first is chosen when a game is made.</summary>
    public enum Side : byte
    {
        /// <summary>White (<c>SALPAKAN_WHITE</c>).</summary>
        White = 0,
        /// <summary>Black (<c>SALPAKAN_BLACK</c>).</summary>
        Black = 1,
    }

    /// <summary>A piece's rank, Flag (0) to Spy (14); 15 is a hidden enemy piece in a view.</summary>
    public enum Rank : byte
    {
        /// <summary>The Flag.</summary>
        Flag = 0,
        /// <summary>Private.</summary>
        Private = 1,
        /// <summary>Sergeant.</summary>
        Sergeant = 2,
        /// <summary>2nd Lieutenant.</summary>
        SecondLieutenant = 3,
        /// <summary>1st Lieutenant.</summary>
        FirstLieutenant = 4,
        /// <summary>Captain.</summary>
        Captain = 5,
        /// <summary>Major.</summary>
        Major = 6,
        /// <summary>Lieutenant Colonel.</summary>
        LieutenantColonel = 7,
        /// <summary>Colonel.</summary>
        Colonel = 8,
        /// <summary>1-star General.</summary>
        OneStarGeneral = 9,
        /// <summary>2-star General.</summary>
        TwoStarGeneral = 10,
        /// <summary>3-star General.</summary>
        ThreeStarGeneral = 11,
        /// <summary>4-star General.</summary>
        FourStarGeneral = 12,
        /// <summary>5-star General.</summary>
        FiveStarGeneral = 13,
        /// <summary>The Spy.</summary>
        Spy = 14,
        /// <summary>An enemy piece whose rank this side does not know (in a view).</summary>
        Unknown = 15,
    }

    /// <summary>The arbiter's word for a challenge, from the attacker's side.</summary>
    public enum Outcome : byte
    {
        /// <summary>The attacker wins.</summary>
        Win = 0,
        /// <summary>The attacker loses.</summary>
        Lose = 1,
        /// <summary>Both pieces go.</summary>
        Tie = 2,
    }

    /// <summary>Whether the game goes on, was won or was drawn.</summary>
    public enum State : byte
    {
        /// <summary>It goes on.</summary>
        Ongoing = 0,
        /// <summary>A side won.</summary>
        Won = 1,
        /// <summary>Drawn.</summary>
        Drawn = 2,
    }

    /// <summary>Why a game ended.</summary>
    public enum Reason : byte
    {
        /// <summary>It has not.</summary>
        None = 0,
        /// <summary>A Flag was captured.</summary>
        FlagCaptured = 1,
        /// <summary>A Flag reached the far row and survived a turn.</summary>
        FlagReachedEnd = 2,
        /// <summary>A side resigned.</summary>
        Resignation = 3,
        /// <summary>Both agreed to a draw.</summary>
        Agreement = 4,
        /// <summary>The move limit passed with no challenge.</summary>
        MoveLimit = 5,
        /// <summary>A side's clock ran out.</summary>
        Time = 6,
        /// <summary>A side left.</summary>
        Abandoned = 7,
        /// <summary>Both sides left.</summary>
        AbandonedByBoth = 8,
    }

    /// <summary>The C ABI's result codes: every call's answer.</summary>
    public enum ResultCode : uint
    {
        /// <summary>Done.</summary>
        Ok = 0,
        /// <summary>A required pointer was NULL.</summary>
        NullArgument = 1,
        /// <summary>A value out of range, or refused for this game.</summary>
        InvalidArgument = 2,
        /// <summary>A formation the rules refuse.</summary>
        InvalidSetup = 3,
        /// <summary>A move the rules refuse.</summary>
        IllegalMove = 4,
        /// <summary>The game is over.</summary>
        GameOver = 5,
        /// <summary>A buffer too small (the wrapper sizes its own).</summary>
        BufferTooSmall = 6,
        /// <summary>A text that does not read.</summary>
        Parse = 7,
        /// <summary>The library caught a panic (a bug: please report it).</summary>
        Panic = 8,
        /// <summary>A formation commitment that does not verify.</summary>
        NotVerified = 9,
    }

    /// <summary>The library's constants, as the header defines them.</summary>
    public static class Limits
    {
        /// <summary>Squares on the board (9 files × 8 rows).</summary>
        public const int Squares = 72;
        /// <summary>Ranks a belief is over (Flag … Spy).</summary>
        public const int Ranks = 15;
        /// <summary>The most legal moves a position has.</summary>
        public const int MaxMoves = 84;
        /// <summary>Action ids.</summary>
        public const int Actions = 288;
        /// <summary>The ladder's levels: 1 to this.</summary>
        public const int AgentLevels = 8;
        /// <summary>A formation commitment's salt, in bytes.</summary>
        public const int SaltBytes = 16;
        /// <summary>A formation commitment, in bytes.</summary>
        public const int CommitmentBytes = 32;
        /// <summary>ISMCTS's iterations a move when none is given.</summary>
        public const int IsmctsDefaultBudget = 10000;
        /// <summary>The observation tensor's layout version (raised whenever a plane's meaning,
        /// order or scale changes).</summary>
        public const int ObservationVersion = 1;
        /// <summary>The version of the text formats: a record's first tag is
        /// <c>[Format "1"]</c>; a record or text of a newer format is refused as newer.</summary>
        public const int TextFormat = 1;
        /// <summary>The version of the header this package was written against.</summary>
        public const int VersionMajor = 0;
        /// <summary>Its minor version.</summary>
        public const int VersionMinor = 2;
    }

    /// <summary>A move: from one square to a neighbouring one (squares 0 = a1 … 71 = i8).</summary>
    public struct Move : IEquatable<Move>
    {
        /// <summary>The square it leaves.</summary>
        public readonly byte From;
        /// <summary>The square it enters.</summary>
        public readonly byte To;

        /// <summary>The move from <paramref name="from"/> to <paramref name="to"/>.</summary>
        public Move(byte from, byte to) { From = from; To = to; }

        /// <summary>A square's name: <c>a1</c> … <c>i8</c>.</summary>
        public static string SquareName(int square)
        {
            return ((char)('a' + square % 9)).ToString() + (square / 9 + 1);
        }

        /// <summary>A square's number from its name (<c>e3</c> is 22); -1 for no square.</summary>
        public static int SquareOf(string name)
        {
            if (name == null || name.Length != 2) return -1;
            int file = name[0] - 'a', row = name[1] - '1';
            return file < 0 || file > 8 || row < 0 || row > 7 ? -1 : row * 9 + file;
        }

        /// <summary>As the crate writes it: <c>e3-e4</c>.</summary>
        public override string ToString() { return SquareName(From) + "-" + SquareName(To); }
        /// <summary>The same squares.</summary>
        public bool Equals(Move other) { return From == other.From && To == other.To; }
        /// <summary>The same squares.</summary>
        public override bool Equals(object other) { return other is Move && Equals((Move)other); }
        /// <summary>From the squares.</summary>
        public override int GetHashCode() { return From * 256 + To; }
    }

    /// <summary>The rules a game is played under.</summary>
    public struct Rules
    {
        /// <summary>The setup zone's rows: 3 (official) or 4.</summary>
        public readonly byte SetupRows;
        /// <summary>Plies without a challenge that draw; 0 for no limit (official).</summary>
        public readonly ushort MoveLimit;

        /// <summary>These rules (the library checks them when a game is made).</summary>
        public Rules(byte setupRows, ushort moveLimit) { SetupRows = setupRows; MoveLimit = moveLimit; }

        /// <summary>The official rules: three rows, no move limit.</summary>
        public static readonly Rules Official = new Rules(3, 0);
    }

    /// <summary>How a game stands.</summary>
    public struct Status
    {
        /// <summary>Going on, won or drawn.</summary>
        public readonly State State;
        /// <summary>The winner, when won.</summary>
        public readonly Side? Winner;
        /// <summary>Why it ended.</summary>
        public readonly Reason Reason;

        internal Status(Native.StatusC c)
        {
            State = (State)c.State;
            Winner = c.Winner == 255 ? (Side?)null : (Side)c.Winner;
            Reason = (Reason)c.Reason;
        }

        /// <summary>Whether it goes on.</summary>
        public bool IsOngoing { get { return State == State.Ongoing; } }

        /// <summary><c>ongoing</c>, <c>white won (flag-captured)</c>, <c>drawn (agreement)</c>.</summary>
        public override string ToString()
        {
            if (IsOngoing) return "ongoing";
            return State == State.Won ? Winner.ToString().ToLowerInvariant() + " won (" + Reason + ")" : "drawn (" + Reason + ")";
        }
    }

    /// <summary>What the arbiter announced for a move: never a rank.</summary>
    public struct Report
    {
        /// <summary>The move.</summary>
        public readonly Move Move;
        /// <summary>The arbiter's word, for a challenge.</summary>
        public readonly Outcome? Outcome;
        /// <summary>The status after it.</summary>
        public readonly Status Status;

        internal readonly Native.ReportC Raw;

        internal Report(Move move, Native.ReportC c)
        {
            Move = move;
            Outcome = c.Challenge == 0 ? (Outcome?)null : (Outcome)c.Outcome;
            Status = new Status(c.Status);
            Raw = c;
        }

        /// <summary>A report as an arbiter elsewhere announced it (a server's message, a
        /// board's display): the move, the outcome of a challenge (null for a plain move), and
        /// the status after it.</summary>
        public Report(Move move, Outcome? outcome, State state, Side? winner, Reason reason)
        {
            var c = new Native.ReportC
            {
                Challenge = (byte)(outcome == null ? 0 : 1),
                Outcome = outcome == null ? (byte)255 : (byte)outcome.Value,
                Status = new Native.StatusC { State = (byte)state, Winner = winner == null ? (byte)255 : (byte)winner.Value, Reason = (byte)reason },
            };
            Move = move;
            Outcome = outcome;
            Status = new Status(c.Status);
            Raw = c;
        }
    }

    /// <summary>One square of a side's view: empty, one's own piece with its rank, or an enemy's with <see cref="Rank.Unknown"/>.</summary>
    public struct Cell
    {
        /// <summary>Whose piece; null for an empty square.</summary>
        public readonly Side? Side;
        /// <summary>Its rank as the viewer knows it.</summary>
        public readonly Rank Rank;

        internal Cell(Native.CellC c)
        {
            Side = c.Side == 255 ? (Side?)null : (Salpakan.Side)c.Side;
            Rank = (Rank)c.Rank;
        }
    }
}
