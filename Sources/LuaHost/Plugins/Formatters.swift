import CLua
import CLuaShim
import CountdownCore

/// Named formatters: `countdown.formatter("name", fn)` makes "name" usable
/// wherever a pattern is (`countdown.format(t, "name")`). A registered name wins
/// over the pattern of the same text. The formatter gets a tick (`t`, the one
/// given or one made from the seconds given) and returns a string.
extension PluginBinding {
    /// Formats with the formatter named by the string at stack index 2, or returns
    /// nil when no formatter has that name.
    func applyFormatter(_ L: LuaState, remaining: Nanoseconds) throws(APIError) -> String? {
        let base = L.top
        defer { L.setTop(base) }
        L.pushRef(formattersRef)
        L.pushValue(at: 2)
        guard lua_rawget(L.raw, -2) == LUA_TFUNCTION else { return nil }
        if cd_to_tick(L.raw, 1) != nil {
            L.pushValue(at: 1)
        } else {
            var snapshot = cd_tick(remaining_ns: remaining, total_ns: remaining, missed: 0)
            cd_push_tick(L.raw, 0, &snapshot)
        }
        let fullName = L.string(at: 2) ?? ""
        // A name can be any string; a message shows only its start.
        let name = fullName.count > 40 ? String(fullName.prefix(40)) + "..." : fullName
        let status = L.call(arguments: 1, results: 1)
        guard status == LUA_OK else {
            let full = host.hookFailureMessage(L, status: status)
            let (message, _) = LuaHost.splitTraceback(full)
            throw APIError("countdown.format: formatter \"\(name)\" failed: \(message)")
        }
        guard let text = L.string(at: -1) else {
            throw APIError("countdown.format: formatter \"\(name)\" must return a string, got \(L.typeName(at: -1))")
        }
        return text
    }
}
