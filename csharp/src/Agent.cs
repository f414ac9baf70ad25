// A player of the library: random, greedy, ISMCTS, or a level of the ladder.
using System;

namespace Salpakan
{
    /// <summary>The library's agents.</summary>
    public enum AgentKind : byte
    {
        /// <summary>Uniformly random legal moves.</summary>
        Random = 0,
        /// <summary>Greedy: the challenge most likely to win, else a safe advance.</summary>
        Greedy = 1,
        /// <summary>Information-set Monte Carlo tree search on the exact posterior.</summary>
        Ismcts = 2,
    }

    /// <summary>An agent choosing for one side from what that side may know only (its own
    /// formation, the enemy's squares, the public history), never the arbiter's game: the
    /// same public history with other enemy ranks gives the same move for the same seed.</summary>
    public sealed class Agent : IDisposable
    {
        private readonly AgentHandle handle;

        private Agent(AgentHandle handle) { this.handle = handle; }

        /// <summary>An agent of <paramref name="kind"/>, seeded (ISMCTS with <paramref name="budget"/>
        /// iterations a move; 0 for its default).</summary>
        public static Agent New(AgentKind kind, ulong seed, uint budget)
        {
            AgentHandle handle;
            return Made(Native.salpakan_agent_new((byte)kind, seed, budget, out handle), handle);
        }

        /// <summary>Level <paramref name="level"/> of the ladder, 1 (weakest) to 8.</summary>
        public static Agent Level(byte level, ulong seed)
        {
            AgentHandle handle;
            return Made(Native.salpakan_agent_new_level(level, seed, out handle), handle);
        }

        private static Agent Made(uint result, AgentHandle handle)
        {
            if (result != 0)
            {
                handle.Dispose();
                SalpakanException.Check(result);
            }
            return new Agent(handle);
        }

        /// <summary>The move it chooses for <paramref name="side"/> in <paramref name="game"/> (the
        /// game does not change: play it with <see cref="Game.Play"/>).</summary>
        /// <exception cref="SalpakanException">Not that side's turn, or the game is over.</exception>
        public Move Choose(Game game, Side side) { return Choose(game, (byte)side); }

        /// <summary>As <see cref="Choose(Game, Side)"/>, the side as the C ABI's byte.</summary>
        public Move Choose(Game game, byte side)
        {
            Native.MoveC mv;
            SalpakanException.Check(Native.salpakan_agent_choose(handle, game.Handle, side, out mv));
            return new Move(mv.From, mv.To);
        }

        /// <summary>The move it chooses from one side's knowledge alone (a seat's program).</summary>
        /// <exception cref="SalpakanException">Not that side's turn, or the game is over.</exception>
        public Move Choose(Tracker tracker)
        {
            Native.MoveC mv;
            SalpakanException.Check(Native.salpakan_agent_choose_tracked(handle, tracker.Handle, out mv));
            return new Move(mv.From, mv.To);
        }

        /// <summary>Frees the agent now.</summary>
        public void Dispose() { handle.Dispose(); }
    }
}
