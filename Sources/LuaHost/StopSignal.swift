import CLuaShim

extension LuaHost {
    /// For the SIGTSTP handler (async-signal-safe): while a callback runs, its Lua
    /// code calls the function it is given at its next instruction (which gives the terminal back
    /// and stops the process) and, once continued, goes on where it was. Between
    /// callbacks it does nothing: the run loop stops the process itself.
    public static let pauseFromSignal: @convention(c) ((@convention(c) () -> Int32)?) -> Void = cd_pause
}
