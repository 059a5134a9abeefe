import CLua
import CLuaShim

extension LuaState {
    /// The instruction budget each callback gets (0: none; see `ScriptLimits`).
    /// Code of the host's own that runs in the state (the test runner's) sets it
    /// to 0 while it runs and back afterwards.
    public var instructionBudget: Int64 {
        get { cd_get_limits(raw)?.pointee.budget ?? 0 }
        nonmutating set { cd_get_limits(raw)?.pointee.budget = newValue }
    }

    /// Calls the function below `arguments` values as one callback of the
    /// script's, with a budget of its own even when it runs inside another
    /// callback, and the message handler at stack index `handler`; returns the
    /// status, as `lua_pcall` does.
    public func callAsCallback(arguments: Int32, results: Int32, handler: Int32) -> Int32 {
        let saved = cd_limits_enter_own(raw)
        defer { cd_limits_leave_own(raw, saved) }
        return lua_pcallk(raw, arguments, results, handler, 0, nil)
    }
}
