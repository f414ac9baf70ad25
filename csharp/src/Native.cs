// The C ABI of include/salpakan.h, declared for P/Invoke. Internal: the public types of this
// package (Game, Agent, Rules, ...) are the API; these are their one way to the library.
using System;
using System.Runtime.InteropServices;

namespace Salpakan
{
    /// <summary>The C ABI's functions, exactly as <c>include/salpakan.h</c> declares them.</summary>
    internal static class Native
    {
#if UNITY_IOS && !UNITY_EDITOR
        internal const string Library = "__Internal";
#else
        internal const string Library = "salpakan";
#endif

        [StructLayout(LayoutKind.Sequential)]
        internal struct MoveC { public byte From; public byte To; }

        [StructLayout(LayoutKind.Sequential)]
        internal struct RulesC { public byte SetupRows; public ushort MoveLimit; }

        [StructLayout(LayoutKind.Sequential)]
        internal struct StatusC { public byte State; public byte Winner; public byte Reason; }

        [StructLayout(LayoutKind.Sequential)]
        internal struct ReportC { public byte Challenge; public byte Outcome; public StatusC Status; }

        [StructLayout(LayoutKind.Sequential)]
        internal struct CellC { public byte Side; public byte Rank; }

        [DllImport(Library)] internal static extern IntPtr salpakan_version();
        [DllImport(Library)] internal static extern IntPtr salpakan_last_error();
        [DllImport(Library)] internal static extern IntPtr salpakan_result_name(uint result);
        [DllImport(Library)] internal static extern uint salpakan_random_setup(byte side, byte setupRows, ulong seed, byte[] cells);
        [DllImport(Library)] internal static extern uint salpakan_challenge(byte attacker, byte defender, out byte outcome);

        [DllImport(Library)] internal static extern uint salpakan_game_new_with_rules(byte[] white, byte[] black, byte first, ref RulesC rules, out GameHandle game);
        [DllImport(Library)] internal static extern void salpakan_game_free(IntPtr game);
        [DllImport(Library)] internal static extern uint salpakan_game_side_to_move(GameHandle game, out byte side);
        [DllImport(Library)] internal static extern uint salpakan_game_legal_moves(GameHandle game, [Out] MoveC[] moves, UIntPtr capacity, out UIntPtr count);
        [DllImport(Library)] internal static extern uint salpakan_game_play(GameHandle game, MoveC mv, out ReportC report);
        [DllImport(Library)] internal static extern uint salpakan_game_status(GameHandle game, out StatusC status);
        [DllImport(Library)] internal static extern uint salpakan_game_resign(GameHandle game, byte side);
        [DllImport(Library)] internal static extern uint salpakan_game_lose_on_time(GameHandle game, byte side);
        [DllImport(Library)] internal static extern uint salpakan_game_abandon(GameHandle game, byte side);
        [DllImport(Library)] internal static extern uint salpakan_game_abandon_by_both(GameHandle game);
        [DllImport(Library)] internal static extern uint salpakan_game_agree_draw(GameHandle game);
        [DllImport(Library)] internal static extern uint salpakan_game_view(GameHandle game, byte side, [Out] CellC[] cells);
        [DllImport(Library)] internal static extern uint salpakan_game_public_view(GameHandle game, [Out] CellC[] cells);
        [DllImport(Library)] internal static extern uint salpakan_game_beliefs(GameHandle game, byte side, [Out] double[] probabilities);
        [DllImport(Library)] internal static extern uint salpakan_game_commit(GameHandle game, byte side, byte[] salt, [Out] byte[] commitment);
        [DllImport(Library)] internal static extern uint salpakan_game_open_commitment(GameHandle game, byte side, byte[] salt);
        [DllImport(Library)] internal static extern uint salpakan_game_verify_commitments(GameHandle game);

        [DllImport(Library)] internal static extern uint salpakan_game_to_text(GameHandle game, byte[] buf, UIntPtr capacity, out UIntPtr len);
        [DllImport(Library)] internal static extern uint salpakan_game_view_text(GameHandle game, byte side, byte[] buf, UIntPtr capacity, out UIntPtr len);
        [DllImport(Library)] internal static extern uint salpakan_game_public_view_text(GameHandle game, byte[] buf, UIntPtr capacity, out UIntPtr len);
        [DllImport(Library)] internal static extern uint salpakan_game_record(GameHandle game, byte[] buf, UIntPtr capacity, out UIntPtr len);
        [DllImport(Library)] internal static extern uint salpakan_game_from_text(byte[] text, out GameHandle game);
        [DllImport(Library)] internal static extern uint salpakan_game_from_record(byte[] text, out GameHandle game);

        [DllImport(Library)] internal static extern uint salpakan_agent_new(byte kind, ulong seed, uint budget, out AgentHandle agent);
        [DllImport(Library)] internal static extern uint salpakan_agent_new_level(byte level, ulong seed, out AgentHandle agent);
        [DllImport(Library)] internal static extern uint salpakan_agent_choose(AgentHandle agent, GameHandle game, byte side, out MoveC mv);
        [DllImport(Library)] internal static extern void salpakan_agent_free(IntPtr agent);
        [DllImport(Library)] internal static extern uint salpakan_agent_choose_tracked(AgentHandle agent, TrackerHandle tracker, out MoveC mv);

        [DllImport(Library)] internal static extern uint salpakan_tracker_new(byte[] own, byte side, byte[] enemy, byte first, ref RulesC rules, out TrackerHandle tracker);
        [DllImport(Library)] internal static extern uint salpakan_tracker_observe(TrackerHandle tracker, MoveC mv, ref ReportC report);
        [DllImport(Library)] internal static extern uint salpakan_tracker_side_to_move(TrackerHandle tracker, out byte side);
        [DllImport(Library)] internal static extern uint salpakan_tracker_status(TrackerHandle tracker, out StatusC status);
        [DllImport(Library)] internal static extern uint salpakan_tracker_legal_moves(TrackerHandle tracker, [Out] MoveC[] moves, UIntPtr capacity, out UIntPtr count);
        [DllImport(Library)] internal static extern uint salpakan_tracker_beliefs(TrackerHandle tracker, [Out] double[] probabilities);
        [DllImport(Library)] internal static extern void salpakan_tracker_free(IntPtr tracker);

        /// <summary>A NUL-terminated UTF-8 string the library owns, read.</summary>
        internal static string Text(IntPtr text)
        {
            if (text == IntPtr.Zero) return "";
            int n = 0;
            while (Marshal.ReadByte(text, n) != 0) n++;
            byte[] bytes = new byte[n];
            Marshal.Copy(text, bytes, 0, n);
            return System.Text.Encoding.UTF8.GetString(bytes);
        }

        /// <summary>A string as the NUL-terminated UTF-8 the library reads.</summary>
        internal static byte[] Utf8(string text)
        {
            byte[] bytes = System.Text.Encoding.UTF8.GetBytes(text);
            byte[] terminated = new byte[bytes.Length + 1];
            Array.Copy(bytes, terminated, bytes.Length);
            return terminated;
        }
    }
}
