// A game of Game of the Generals, held by the native library: the arbiter's game (both
// armies). A seat's program should hold only its own side's knowledge; a server or a local
// arbiter holds this.
using System;

namespace Salpakan
{
    /// <summary>The arbiter's game: both formations, the position, the history, the end rules.
    /// Dispose it (or <c>using</c>) to free it at once; otherwise the runtime frees it.</summary>
    /// <example><code>
    /// using (var game = Game.Dealt(1, 2, Side.White, Rules.Official))
    /// {
    ///     Report report = game.Play(game.LegalMoves()[0]);
    ///     Console.WriteLine(report.Status);
    /// }
    /// </code></example>
    public sealed class Game : IDisposable
    {
        internal readonly GameHandle Handle;

        private Game(GameHandle handle) { Handle = handle; }

        /// <summary>The library's version, as <c>0.2.0</c>.</summary>
        public static string LibraryVersion { get { return Native.Text(Native.salpakan_version()); } }

        /// <summary>A formation of <paramref name="side"/> drawn from <paramref name="seed"/>: 72
        /// cell values (a rank's number, 255 for empty), indexed by square. A formation played
        /// against a person needs 64 secret bits from the operating system's generator
        /// (<c>System.Security.Cryptography.RandomNumberGenerator</c>), never a clock.</summary>
        public static byte[] RandomSetup(Side side, byte setupRows, ulong seed)
        {
            byte[] cells = new byte[Limits.Squares];
            SalpakanException.Check(Native.salpakan_random_setup((byte)side, setupRows, seed, cells));
            return cells;
        }

        /// <summary>The arbiter's word for rank <paramref name="attacker"/> challenging
        /// <paramref name="defender"/>.</summary>
        public static Outcome Challenge(Rank attacker, Rank defender)
        {
            byte outcome;
            SalpakanException.Check(Native.salpakan_challenge((byte)attacker, (byte)defender, out outcome));
            return (Outcome)outcome;
        }

        /// <summary>A game from two formations (72 cells each), <paramref name="first"/> to move.</summary>
        /// <exception cref="SalpakanException">A formation the rules refuse, cells out of range.</exception>
        public static Game New(byte[] white, byte[] black, Side first, Rules rules)
        {
            return New(white, black, (byte)first, rules);
        }

        /// <summary>As <see cref="New(byte[], byte[], Side, Rules)"/>, the side as the C ABI's byte
        /// (a value other than 0 or 1 is refused by the library).</summary>
        public static Game New(byte[] white, byte[] black, byte first, Rules rules)
        {
            if (white == null || black == null) throw new ArgumentNullException(white == null ? "white" : "black");
            if (white.Length != Limits.Squares || black.Length != Limits.Squares)
                throw new SalpakanException(ResultCode.InvalidArgument, "a formation is 72 cells");
            var c = new Native.RulesC { SetupRows = rules.SetupRows, MoveLimit = rules.MoveLimit };
            GameHandle handle;
            uint result = Native.salpakan_game_new_with_rules(white, black, first, ref c, out handle);
            return Made(result, handle);
        }

        /// <summary>The game of formations drawn from two seeds (White's, Black's).</summary>
        public static Game Dealt(ulong whiteSeed, ulong blackSeed, Side first, Rules rules)
        {
            return New(RandomSetup(Side.White, rules.SetupRows, whiteSeed), RandomSetup(Side.Black, rules.SetupRows, blackSeed), first, rules);
        }

        /// <summary>A game from a record (<see cref="Record"/>): it replays exactly.</summary>
        /// <exception cref="SalpakanException"><see cref="ResultCode.Parse"/> naming the line and column.</exception>
        public static Game FromRecord(string record)
        {
            GameHandle handle;
            uint result = Native.salpakan_game_from_record(Native.Utf8(record), out handle);
            return Made(result, handle);
        }

        /// <summary>A game from a position text (<see cref="ToText"/>): no setups or history.</summary>
        public static Game FromText(string text)
        {
            GameHandle handle;
            uint result = Native.salpakan_game_from_text(Native.Utf8(text), out handle);
            return Made(result, handle);
        }

        private static Game Made(uint result, GameHandle handle)
        {
            if (result != 0)
            {
                handle.Dispose();
                SalpakanException.Check(result);
            }
            return new Game(handle);
        }

        /// <summary>The side to move.</summary>
        public Side SideToMove
        {
            get
            {
                byte side;
                SalpakanException.Check(Native.salpakan_game_side_to_move(Handle, out side));
                return (Side)side;
            }
        }

        /// <summary>The legal moves of the side to move (none once the game is over).</summary>
        public Move[] LegalMoves()
        {
            var moves = new Native.MoveC[Limits.MaxMoves];
            UIntPtr count;
            SalpakanException.Check(Native.salpakan_game_legal_moves(Handle, moves, (UIntPtr)moves.Length, out count));
            var result = new Move[(int)count];
            for (int i = 0; i < result.Length; i++) result[i] = new Move(moves[i].From, moves[i].To);
            return result;
        }

        /// <summary>Plays <paramref name="move"/> for the side to move: what the arbiter announces.</summary>
        /// <exception cref="SalpakanException"><see cref="ResultCode.IllegalMove"/> or
        /// <see cref="ResultCode.GameOver"/>; the game is unchanged.</exception>
        public Report Play(Move move)
        {
            Native.ReportC report;
            SalpakanException.Check(Native.salpakan_game_play(Handle, new Native.MoveC { From = move.From, To = move.To }, out report));
            return new Report(move, report);
        }

        /// <summary>How the game stands.</summary>
        public Status Status
        {
            get
            {
                Native.StatusC status;
                SalpakanException.Check(Native.salpakan_game_status(Handle, out status));
                return new Status(status);
            }
        }

        /// <summary><paramref name="side"/> resigns.</summary>
        public void Resign(Side side) { SalpakanException.Check(Native.salpakan_game_resign(Handle, (byte)side)); }
        /// <summary>As <see cref="Resign(Side)"/>, the side as the C ABI's byte.</summary>
        public void Resign(byte side) { SalpakanException.Check(Native.salpakan_game_resign(Handle, side)); }
        /// <summary><paramref name="side"/>'s clock ran out (whoever keeps the clocks decides).</summary>
        public void LoseOnTime(byte side) { SalpakanException.Check(Native.salpakan_game_lose_on_time(Handle, side)); }
        /// <summary><paramref name="side"/> left and did not come back.</summary>
        public void Abandon(byte side) { SalpakanException.Check(Native.salpakan_game_abandon(Handle, side)); }
        /// <summary>Both sides left: drawn.</summary>
        public void AbandonByBoth() { SalpakanException.Check(Native.salpakan_game_abandon_by_both(Handle)); }
        /// <summary>Both agree to a draw.</summary>
        public void AgreeDraw() { SalpakanException.Check(Native.salpakan_game_agree_draw(Handle)); }

        /// <summary><paramref name="side"/>'s view: its own ranks, the enemy's squares only.</summary>
        public Cell[] View(Side side)
        {
            var cells = new Native.CellC[Limits.Squares];
            SalpakanException.Check(Native.salpakan_game_view(Handle, (byte)side, cells));
            return Array.ConvertAll(cells, c => new Cell(c));
        }

        /// <summary><paramref name="side"/>'s exact beliefs: for each square (72) the
        /// probabilities of its piece's 15 ranks, square-major (<c>[square * 15 + rank]</c>).</summary>
        public double[] Beliefs(byte side)
        {
            var p = new double[Limits.Squares * Limits.Ranks];
            SalpakanException.Check(Native.salpakan_game_beliefs(Handle, side, p));
            return p;
        }

        /// <summary>As <see cref="Beliefs(byte)"/>.</summary>
        public double[] Beliefs(Side side) { return Beliefs((byte)side); }

        /// <summary><paramref name="side"/> commits to its formation with a 16-byte secret salt:
        /// the 32-byte commitment, published at the start and opened at the end.</summary>
        public byte[] Commit(byte side, byte[] salt)
        {
            var commitment = new byte[Limits.CommitmentBytes];
            SalpakanException.Check(Native.salpakan_game_commit(Handle, side, salt, commitment));
            return commitment;
        }

        /// <summary>Opens <paramref name="side"/>'s commitment at the end (its salt goes in the record).</summary>
        public void OpenCommitment(byte side, byte[] salt) { SalpakanException.Check(Native.salpakan_game_open_commitment(Handle, side, salt)); }

        /// <summary>Checks the record's formation commitments.</summary>
        /// <exception cref="SalpakanException"><see cref="ResultCode.NotVerified"/> for one that does not verify.</exception>
        public void VerifyCommitments() { SalpakanException.Check(Native.salpakan_game_verify_commitments(Handle)); }

        private delegate uint Writer(byte[] buf, UIntPtr capacity, out UIntPtr len);

        private static string Written(Writer write)
        {
            UIntPtr len;
            uint first = write(null, UIntPtr.Zero, out len);
            if (first != (uint)ResultCode.BufferTooSmall && first != 0) SalpakanException.Check(first);
            var buf = new byte[(int)len + 1];
            SalpakanException.Check(write(buf, (UIntPtr)buf.Length, out len));
            return System.Text.Encoding.UTF8.GetString(buf, 0, (int)len);
        }

        /// <summary>The position text: every rank, the side to move, the counters, the rules.</summary>
        public string ToText() { return Written((byte[] b, UIntPtr c, out UIntPtr l) => Native.salpakan_game_to_text(Handle, b, c, out l)); }
        /// <summary>The position text as <paramref name="side"/> sees it (enemy ranks hidden).</summary>
        public string ViewText(Side side) { return Written((byte[] b, UIntPtr c, out UIntPtr l) => Native.salpakan_game_view_text(Handle, (byte)side, b, c, out l)); }
        /// <summary>The position text as a spectator sees it.</summary>
        public string PublicViewText() { return Written((byte[] b, UIntPtr c, out UIntPtr l) => Native.salpakan_game_public_view_text(Handle, b, c, out l)); }
        /// <summary>The game record: rules, both setups, every move and its announcement, the result.</summary>
        public string Record() { return Written((byte[] b, UIntPtr c, out UIntPtr l) => Native.salpakan_game_record(Handle, b, c, out l)); }

        /// <summary>Frees the game now.</summary>
        public void Dispose() { Handle.Dispose(); }
    }
}
