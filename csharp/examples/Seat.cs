// A seat's program and an arbiter, apart: the arbiter (a Game) holds both armies and
// announces each move's result; each seat holds only its own formation, the squares the
// enemy stood on at the start, and the announcements (a Tracker), and its agent chooses from
// that. Nothing but a move goes from a seat to the arbiter, nothing but a report back: the
// shape of a program playing on a server or against a physical board's arbiter.
//
//   mono seat.exe [SEED]
using System;
using System.Security.Cryptography;
using Salpakan;

static class SeatExample
{
    // What the arbiter tells a seat at the start: where the enemy's pieces stand.
    static bool[] EnemySquares(Game arbiter, Side seat)
    {
        Cell[] view = arbiter.View(seat);
        var enemy = new bool[Limits.Squares];
        for (int i = 0; i < enemy.Length; i++) enemy[i] = view[i].Side != null && view[i].Side != seat;
        return enemy;
    }

    static int Main(string[] args)
    {
        ulong seed;
        if (args.Length > 0) seed = ulong.Parse(args[0]);
        else
        {
            var bytes = new byte[8];
            using (var rng = RandomNumberGenerator.Create()) rng.GetBytes(bytes);
            seed = BitConverter.ToUInt64(bytes, 0);
        }
        var rules = new Rules(3, 200);
        // Each seat draws its own formation; the arbiter receives both.
        byte[] white = Game.RandomSetup(Side.White, rules.SetupRows, seed);
        byte[] black = Game.RandomSetup(Side.Black, rules.SetupRows, seed + 1);
        using (var arbiter = Game.New(white, black, Side.White, rules))
        using (var whiteSeat = Tracker.New(white, Side.White, EnemySquares(arbiter, Side.White), Side.White, rules))
        using (var blackSeat = Tracker.New(black, Side.Black, EnemySquares(arbiter, Side.Black), Side.White, rules))
        using (var six = Agent.Level(6, seed + 2))
        using (var four = Agent.Level(4, seed + 3))
        {
            int plies = 0;
            while (arbiter.Status.IsOngoing)
            {
                Tracker seat = arbiter.SideToMove == Side.White ? whiteSeat : blackSeat;
                Move move = (seat == whiteSeat ? six : four).Choose(seat);
                Report report = arbiter.Play(move);     // the arbiter checks it and announces
                whiteSeat.Observe(report);              // both seats hear the same report
                blackSeat.Observe(report);
                plies++;
            }
            Console.WriteLine("level 6 (White's seat) against level 4 (Black's): " + arbiter.Status + " after " + plies + " plies");
            Console.WriteLine("White's seat says: " + whiteSeat.Status);
            return whiteSeat.Status.ToString() == arbiter.Status.ToString() ? 0 : 1;
        }
    }
}
