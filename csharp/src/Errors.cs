// A refused call: the library's result code and salpakan_last_error's words.
using System;

namespace Salpakan
{
    /// <summary>A call the library refused; nothing changed. <see cref="Exception.Message"/>
    /// is the library's own account (<c>salpakan_last_error</c>).</summary>
    public sealed class SalpakanException : Exception
    {
        /// <summary>The C ABI's result code.</summary>
        public ResultCode Code { get; private set; }

        internal SalpakanException(ResultCode code, string message) : base(message) { Code = code; }

        /// <summary>Throws for any result but <see cref="ResultCode.Ok"/>.</summary>
        internal static void Check(uint result)
        {
            if (result == 0) return;
            string said = Native.Text(Native.salpakan_last_error());
            string name = Native.Text(Native.salpakan_result_name(result));
            throw new SalpakanException((ResultCode)result, said.Length > 0 ? said : name);
        }
    }
}
