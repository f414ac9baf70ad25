// Level 6 of the ladder plays a whole game against level 1 through the native library: each
// side's agent chooses from that side's knowledge only; the arbiter's Game announces each
// move's result (win, lose or tie for a challenge, never a rank). A new formation's seed
// comes from 64 bits of the operating system's generator, never a clock.
//
//   mono level-six.exe [SEED]
using System;
using System.Security.Cryptography;
using Salpakan;

static class LevelSix
{
    static ulong SecretSeed()
    {
        var bytes = new byte[8];
        using (var rng = RandomNumberGenerator.Create()) rng.GetBytes(bytes);
        return BitConverter.ToUInt64(bytes, 0);
    }

    static int Main(string[] args)
    {
        ulong seed = args.Length > 0 ? ulong.Parse(args[0]) : SecretSeed();
        var rules = new Rules(3, 200);
        int challenges = 0, plies = 0;
        using (var game = Game.Dealt(seed, seed ^ 0x9E3779B97F4A7C15UL, Side.White, rules))
        using (var six = Agent.Level(6, seed + 1))
        using (var one = Agent.Level(1, seed + 2))
        {
            Console.WriteLine("salpakan " + Game.LibraryVersion + ": level 6 (White) against level 1 (Black)");
            while (game.Status.IsOngoing)
            {
                Side side = game.SideToMove;
                Move move = (side == Side.White ? six : one).Choose(game, side);
                Report report = game.Play(move);
                plies++;
                if (report.Outcome != null)
                {
                    challenges++;
                    Console.WriteLine("ply " + plies + ": " + side.ToString().ToLowerInvariant() + " " + move + " challenges: the attacker's " + report.Outcome.Value.ToString().ToLowerInvariant());
                }
            }
            Console.WriteLine(game.PublicViewText());
            Console.WriteLine("after " + plies + " plies and " + challenges + " challenges: " + game.Status);
            return game.Status.IsOngoing ? 1 : 0;
        }
    }
}
