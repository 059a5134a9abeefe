import CLua
import CLuaShim

/// What happens when a countdown's hook raises an error: its `on_error` option.
/// `"stop"` (the default) reports the error and stops the countdown; `"continue"`
/// reports it and lets the countdown run on; a function is called with the
/// message and the traceback (two strings) instead of reporting them, and the countdown runs on (the function may
/// cancel it); if that function raises, both errors are reported and the countdown stops.
extension LuaHost {
    static let errorPolicies: Set<String> = ["stop", "continue"]

    /// Handles an error in `hook` of the countdown whose handle is registry[handleRef].
    /// Returns true when the countdown should stop.
    func handleHookError(handleRef: Int32, id: String?, hook: String, message: String) -> Bool {
        let L = current
        let base = L.top
        defer { L.setTop(base) }
        L.pushRef(handleRef)
        guard cd_to_handle(L.raw, -1) != nil else {
            reportHookError(countdown: id, hook: hook, message: message)
            return true
        }
        switch lua_getiuservalue(L.raw, -1, CD_UV_ERROR) {
        case LUA_TSTRING where L.string(at: -1) == "continue":
            reportHookError(countdown: id, hook: hook, message: message)
            return false
        case LUA_TFUNCTION, LUA_TTABLE, LUA_TUSERDATA:
            let (text, traceback) = Self.splitTraceback(message)
            L.push(text)
            L.push(traceback)
            let status = cd_pcall_hook(L.raw, 2, 0)
            if status == LUA_OK { return false }
            let handlerMessage = hookFailureMessage(L, status: status)
            reportHookError(countdown: id, hook: hook, message: message)
            reportHookError(countdown: id, hook: "on_error", message: handlerMessage)
            return true
        default:
            reportHookError(countdown: id, hook: hook, message: message)
            return true
        }
    }

    /// A hook's error as the traceback handler leaves it, split into the message
    /// and the traceback ("stack traceback:\n..."; "" when there is none).
    public static func splitTraceback(_ message: String) -> (String, String) {
        guard let range = message.firstRange(of: "\nstack traceback:") else { return (message, "") }
        return (String(message[..<range.lowerBound]), String(message[message.index(after: range.lowerBound)...]))
    }

    /// The message of a failed hook call: LUA_ERRMEM skips the message handler,
    /// so its message is explained here.
    func hookFailureMessage(_ L: LuaState, status: Int32) -> String {
        if status == LUA_ERRMEM { return String(cString: cd_memory_error_message(L.raw)) }
        return L.string(at: -1) ?? "(error object is not a string)"
    }
}

extension LuaHost {
    /// Reads `on_error` of the start options at `index`: leaves it on the stack and
    /// returns its index, or 0 when absent.
    static func errorPolicyOption(_ L: LuaState, _ index: Int32, _ fn: String) throws(APIError) -> Int32 {
        let type = L.rawField(index, "on_error")
        if type == LUA_TNIL {
            L.pop()
            return 0
        }
        if let text = L.string(at: -1), errorPolicies.contains(text) { return L.top }
        if type != LUA_TSTRING, L.isCallable(at: -1) { return L.top }
        let got = L.string(at: -1).map { "\"\($0)\"" } ?? L.typeName(at: -1)
        L.pop()
        throw APIError("\(fn): 'on_error' must be \"stop\", \"continue\" or a function, got \(got)")
    }
}
