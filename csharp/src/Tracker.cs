// One side's knowledge, for a program that plays one side of a game arbitrated elsewhere.
using System;

namespace Salpakan
{
    /// <summary>What one side knows: its own formation, the squares the enemy stood on at the
    /// start, and every report since; never an enemy rank. A seat's program holds this (and
    /// an <see cref="Agent"/>), never a <see cref="Game"/>, which holds both armies.</summary>
    public sealed class Tracker : IDisposable
    {
        internal readonly TrackerHandle Handle;

        private Tracker(TrackerHandle handle) { Handle = handle; }

        /// <summary><paramref name="side"/>'s knowledge at the start: its formation (72 cells),
        /// the enemy's squares (72 flags: true where an enemy piece stands), who moves first, the rules.</summary>
        /// <exception cref="SalpakanException">Out-of-range values, not 21 enemy squares in its zone,
        /// a formation the rules refuse.</exception>
        public static Tracker New(byte[] own, Side side, bool[] enemy, Side first, Rules rules)
        {
            if (own == null || enemy == null) throw new ArgumentNullException(own == null ? "own" : "enemy");
            if (own.Length != Limits.Squares || enemy.Length != Limits.Squares)
                throw new SalpakanException(ResultCode.InvalidArgument, "a formation and the enemy's squares are 72 cells each");
            var squares = new byte[Limits.Squares];
            for (int i = 0; i < squares.Length; i++) squares[i] = (byte)(enemy[i] ? 1 : 0);
            var c = new Native.RulesC { SetupRows = rules.SetupRows, MoveLimit = rules.MoveLimit };
            TrackerHandle handle;
            uint result = Native.salpakan_tracker_new(own, (byte)side, squares, (byte)first, ref c, out handle);
            if (result != 0)
            {
                handle.Dispose();
                SalpakanException.Check(result);
            }
            return new Tracker(handle);
        }

        /// <summary>Takes in one ply of either side, as the arbiter announced it.</summary>
        /// <exception cref="SalpakanException">A report that does not fit what this side knows; nothing changes.</exception>
        public void Observe(Report report)
        {
            var raw = report.Raw;
            SalpakanException.Check(Native.salpakan_tracker_observe(Handle, new Native.MoveC { From = report.Move.From, To = report.Move.To }, ref raw));
        }

        /// <summary>The side to move.</summary>
        public Side SideToMove
        {
            get
            {
                byte side;
                SalpakanException.Check(Native.salpakan_tracker_side_to_move(Handle, out side));
                return (Side)side;
            }
        }

        /// <summary>How the game stands, as the reports told it.</summary>
        public Status Status
        {
            get
            {
                Native.StatusC status;
                SalpakanException.Check(Native.salpakan_tracker_status(Handle, out status));
                return new Status(status);
            }
        }

        /// <summary>This side's legal moves when it is to move (none otherwise).</summary>
        public Move[] LegalMoves()
        {
            var moves = new Native.MoveC[Limits.MaxMoves];
            UIntPtr count;
            SalpakanException.Check(Native.salpakan_tracker_legal_moves(Handle, moves, (UIntPtr)moves.Length, out count));
            var result = new Move[(int)count];
            for (int i = 0; i < result.Length; i++) result[i] = new Move(moves[i].From, moves[i].To);
            return result;
        }

        /// <summary>This side's exact beliefs, laid out as <see cref="Game.Beliefs(byte)"/>.</summary>
        public double[] Beliefs()
        {
            var p = new double[Limits.Squares * Limits.Ranks];
            SalpakanException.Check(Native.salpakan_tracker_beliefs(Handle, p));
            return p;
        }

        /// <summary>Frees the tracker now.</summary>
        public void Dispose() { Handle.Dispose(); }
    }
}
