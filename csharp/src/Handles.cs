// The library's handles, each freed exactly once by the runtime (a SafeHandle: no leak when
// an exception or a forgotten Dispose drops it, no double free, no use after free while a
// call is under way).
using System;
using System.Runtime.InteropServices;

namespace Salpakan
{
    /// <summary>A <c>SalpakanGame*</c>.</summary>
    internal sealed class GameHandle : SafeHandle
    {
        private GameHandle() : base(IntPtr.Zero, true) { }

        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

        protected override bool ReleaseHandle()
        {
            Native.salpakan_game_free(handle);
            return true;
        }
    }

    /// <summary>A <c>SalpakanAgent*</c>.</summary>
    internal sealed class AgentHandle : SafeHandle
    {
        private AgentHandle() : base(IntPtr.Zero, true) { }

        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

        protected override bool ReleaseHandle()
        {
            Native.salpakan_agent_free(handle);
            return true;
        }
    }

    /// <summary>A <c>SalpakanTracker*</c>.</summary>
    internal sealed class TrackerHandle : SafeHandle
    {
        private TrackerHandle() : base(IntPtr.Zero, true) { }

        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

        protected override bool ReleaseHandle()
        {
            Native.salpakan_tracker_free(handle);
            return true;
        }
    }
}
