import CLua
import CLuaShim
import CountdownCore
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The options of `countdown.start{...}`, read and checked.
struct StartOptions {
    /// Stack index of the id (a Lua string: any bytes), 0 when absent.
    var idIndex: Int32
    var deadline: Deadline
    var every: Nanoseconds
    /// Stack indices of the hooks, 0 when absent.
    var onTick: Int32
    var onDone: Int32
    /// Stack index of the `on_error` policy ("stop", "continue" or a function), 0 when absent.
    var onError: Int32 = 0
    /// Keep the countdown in the store under its id.
    var persist = false
    /// Tick on past the end (`t.overtime`) instead of ending.
    var overtime = false
    /// Registry reference to `on_end_action` (0: none) and its lease (EndActions.swift).
    var endAction: Int32 = 0
    var endLease = StartOptions.defaultEndLease
    /// The stored countdown's title and end-action names (`title`, `actions`).
    var annotations = StoredAnnotations()

    /// The shortest `every` (CountdownRange.shortestTick), and how messages write it ("0.1").
    static let minimumEvery: Nanoseconds = CountdownRange.shortestTick
    static let minimumEveryText = format(Time.seconds(minimumEvery))
    /// Every option countdown.start takes: those C knows (`cd_start_option_name`,
    /// the names its quick read recognises), and those only this long way reads:
    /// `overtime` (a table with it always comes here) and the end action's.
    static let fields = Set((0..<Int32(CD_OPTION_COUNT)).compactMap { cd_start_option_name($0).map { String(cString: $0) } })
        .union(longWayFields)
        .union(endActionFields)
    /// The options C's quick read does not know (it sends a table with one here).
    static let longWayFields: Set<String> = ["overtime", "title", "actions"]

    /// Reads the options table at `index`. Hooks stay on the stack where they are.
    static func read(_ L: LuaState, at index: Int32, host: LuaHost) throws(APIError) -> StartOptions {
        let fn = "countdown.start"
        guard L.type(at: index) == LUA_TTABLE else {
            throw APIError("\(fn): expected a table of options such as {seconds = 60}, got \(L.typeName(at: index))")
        }
        try checkFieldNames(L, at: index, allowed: fields, function: fn)

        // The id stays a Lua string, on the stack: "\255" and "\254" are two ids.
        var idIndex: Int32 = 0
        switch L.rawField(index, "id") {
        case LUA_TNIL: L.pop()
        case LUA_TSTRING:
            if lua_rawlen(L.raw, -1) == 0 { throw APIError("\(fn): 'id' must not be empty") }
            idIndex = L.top
        default:
            throw APIError("\(fn): 'id' must be a string, got \(L.typeName(at: -1))")
        }

        let seconds = try lengthOption(L, index, fn)
        let atType = L.rawField(index, "at")
        let at = L.string(at: -1)
        L.pop()
        if atType != LUA_TNIL && at == nil {
            throw APIError("\(fn): 'at' must be a string such as \"2026-12-01T20:00:00+08:00\" or \"20:00\", got \(lua_typename(L.raw, atType).map { String(cString: $0) } ?? "?")")
        }
        let deadline: Deadline
        switch (seconds, at) {
        case (nil, nil):
            throw APIError("\(fn): give 'seconds' (a duration) or 'at' (a deadline)")
        case (.some, .some):
            throw APIError("\(fn): give either 'seconds' or 'at', not both")
        case (let length?, nil):
            deadline = .after(length)
        case (nil, let text?):
            do {
                let wallNow = host.scheduler.clock.wallNow()
                let instant = try DeadlineParser.parse(text, wallNow: wallNow, timeZone: host.timeZone)
                guard instant - wallNow <= Time.maximumDuration else {
                    throw APIError("\(fn): 'at' = \"\(text)\" is further away than a countdown can last (\(CountdownRange.longestInYears))")
                }
                // Reached only with a clock past 2043: what is stored must read back.
                guard CountdownRange.instants.contains(instant) else {
                    throw APIError("\(fn): 'at' = \"\(text)\" is later than \(CountdownRange.latestInstantText), the latest a countdown can end")
                }
                deadline = .wall(instant)
            } catch let error as APIError {
                throw error
            } catch {
                throw APIError("\(fn): 'at' = \"\(text)\": \(error)")
            }
        }

        let every = try optionalEvery(L, index, fn) ?? Time.nanosecondsPerSecond
        let onTick = try hook(L, index, "on_tick", fn)
        let onDone = try hook(L, index, "on_done", fn)
        let onError = try LuaHost.errorPolicyOption(L, index, fn)
        let persist = try persistOption(L, index, idIndex: idIndex, fn)
        let overtime = try overtimeOption(L, index, fn)
        let annotations = try annotationOptions(L, index, persistent: persist, fn)
        if overtime && !annotations.actions.isEmpty { throw APIError("\(fn): \(overtimeActionsRefusal)") }
        // Last: the only option that takes a reference.
        let (endAction, endLease) = try endActionOption(L, index, persistent: persist, fn)
        if overtime && endAction != 0 {
            cd_unref(L.raw, endAction)
            throw APIError("\(fn): \(overtimeEndActionRefusal)")
        }
        return StartOptions(idIndex: idIndex, deadline: deadline, every: every, onTick: onTick, onDone: onDone, onError: onError,
                            persist: persist, overtime: overtime, endAction: endAction, endLease: endLease,
                            annotations: annotations)
    }

    /// The `every` option of the options table at `index` (countdown.start's and
    /// countdown.fetch's): a number of seconds or a duration such as "1m"; nil
    /// when not given.
    static func optionalEvery(_ L: LuaState, _ index: Int32, _ fn: String) throws(APIError) -> Nanoseconds? {
        if let text = try optionalDurationText(L, index, "every") {
            do {
                return try DurationRange.tickInterval.read(text)
            } catch {
                throw APIError("\(fn): 'every' \(error)")
            }
        }
        guard let value = try optionalNumber(L, index, "every", fn) else { return nil }
        return try every(seconds: value, fn)
    }

    /// `every` given as a number of seconds, within its bounds.
    static func every(seconds value: Double, _ fn: String) throws(APIError) -> Nanoseconds {
        guard !value.isNaN else {
            throw APIError("\(fn): 'every' must be a number of seconds from \(minimumEveryText) to \(longestText), got nan")
        }
        guard value <= longestSeconds else {
            throw APIError("\(fn): 'every' must be at most \(longestText), got \(format(value))")
        }
        guard let ns = Time.nanoseconds(fromSeconds: value), ns >= minimumEvery else {
            throw APIError("\(fn): 'every' must be at least \(minimumEveryText) seconds, got \(format(value))")
        }
        return ns
    }

    /// An overtime countdown's end is not claimed across processes (yet): an end
    /// action given with it would never run, so it is refused.
    static let overtimeEndActionRefusal = "'on_end_action' does not go with an overtime countdown, whose end runs no end action: use on_done"

    /// An overtime countdown never finishes by time: the end actions it named would never run.
    static let overtimeActionsRefusal = "'actions' does not go with an overtime countdown, which never finishes by time and so runs no end action"

    /// The longest countdown and the longest interval, in whole seconds (`Time.maximumDuration`).
    static let longestSeconds = Time.seconds(Time.maximumDuration).rounded(.down)
    /// How messages name that bound.
    static let longestText = "\(format(longestSeconds)) seconds (\(CountdownRange.longestInYears))"

    /// A positive duration in seconds, as nanoseconds.
    static func duration(_ seconds: Double, name: String, function: String) throws(APIError) -> Nanoseconds {
        if seconds > longestSeconds {
            throw APIError("\(function): '\(name)' must be at most \(longestText), got \(format(seconds))")
        }
        guard let ns = Time.nanoseconds(fromSeconds: seconds), ns > 0 else {
            throw APIError("\(function): '\(name)' must be a number of seconds > 0, got \(format(seconds))")
        }
        return ns
    }

    /// `seconds`: a number, or a duration string such as "25m" or "1h30m" (the
    /// grammar of `cdscript timer`), as nanoseconds; nil when absent.
    static func lengthOption(_ L: LuaState, _ index: Int32, _ fn: String) throws(APIError) -> Nanoseconds? {
        let type = L.rawField(index, "seconds")
        defer { L.pop() }
        switch type {
        case LUA_TNIL:
            return nil
        case LUA_TNUMBER:
            return try duration(L.number(at: -1) ?? 0, name: "seconds", function: fn)
        case LUA_TSTRING:
            let text = L.string(at: -1) ?? ""
            let ns: Nanoseconds
            do {
                ns = try DeadlineParser.parseDuration(text)
            } catch {
                throw APIError("\(fn): 'seconds' = \"\(text)\": \(error)")
            }
            guard ns > 0 else { throw APIError("\(fn): 'seconds' must be a duration > 0, got \"\(text)\"") }
            return ns
        default:
            throw APIError("\(fn): 'seconds' must be a number or a duration such as \"25m\", got \(L.typeName(at: -1))")
        }
    }

    /// `overtime = true`: past the end, on_done(t, "finished") runs and the ticks
    /// go on, with `t.overtime` the seconds past it, until the countdown is cancelled.
    static func overtimeOption(_ L: LuaState, _ index: Int32, _ fn: String) throws(APIError) -> Bool {
        let type = L.rawField(index, "overtime")
        defer { L.pop() }
        if type == LUA_TNIL { return false }
        guard type == LUA_TBOOLEAN else {
            throw APIError("\(fn): 'overtime' must be a boolean, got \(L.typeName(at: -1))")
        }
        return lua_toboolean(L.raw, -1) != 0
    }

    /// The field `name` when it is a string (a duration such as "1m"); nil for
    /// anything else, which `optionalNumber` then reads.
    static func optionalDurationText(_ L: LuaState, _ index: Int32, _ name: String) throws(APIError) -> String? {
        let type = L.rawField(index, name)
        defer { L.pop() }
        return type == LUA_TSTRING ? L.string(at: -1) : nil
    }

    static func optionalNumber(_ L: LuaState, _ index: Int32, _ name: String, _ fn: String) throws(APIError) -> Double? {
        let type = L.rawField(index, name)
        defer { L.pop() }
        if type == LUA_TNIL { return nil }
        guard let value = L.number(at: -1) else {
            throw APIError("\(fn): '\(name)' must be a number, got \(L.typeName(at: -1))")
        }
        return value
    }

    /// Leaves a hook on the stack and returns its index, or 0 when absent.
    static func hook(_ L: LuaState, _ index: Int32, _ name: String, _ fn: String) throws(APIError) -> Int32 {
        let type = L.rawField(index, name)
        if type == LUA_TNIL {
            L.pop()
            return 0
        }
        guard L.isCallable(at: -1) else {
            let got = L.typeName(at: -1)
            L.pop()
            throw APIError("\(fn): '\(name)' must be a function, got \(got)")
        }
        return L.top
    }

    static func checkFieldNames(_ L: LuaState, at index: Int32, allowed: Set<String>, function: String) throws(APIError) {
        let table = lua_absindex(L.raw, index)
        L.pushNil()
        while lua_next(L.raw, table) != 0 {
            L.pop()
            guard let name = L.string(at: -1) else {
                let keyType = L.typeName(at: -1)
                L.pop()
                throw APIError("\(function): option names must be strings, got a \(keyType) key")
            }
            if !allowed.contains(name) {
                L.pop()
                let suggestion = allowed.min { editDistance($0, name) < editDistance($1, name) }
                    .flatMap { editDistance($0, name) <= 2 ? " (did you mean '\($0)'?)" : nil } ?? ""
                throw APIError("\(function): unknown option '\(name)'\(suggestion); known: \(allowed.sorted().joined(separator: ", "))")
            }
        }
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var row = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(1, b.count) where !b.isEmpty {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = row
        }
        return previous[b.count]
    }

    /// The string at `index` as the text of a stored id: UTF-8 without NUL bytes,
    /// which the store keeps and a command line can name; nil for other bytes.
    static func storableID(_ L: LuaState, at index: Int32) -> String? {
        guard L.type(at: index) == LUA_TSTRING else { return nil }
        var length = 0
        guard let pointer = cd_to_string(L.raw, index, &length) else { return nil }
        // Lua strings end with a NUL of their own: without one inside, the bytes
        // are a C string, checked by the standard library's fast validator.
        guard strlen(pointer) == length else { return nil }
        return String(validatingCString: pointer)
    }

    /// The bytes of the string at `index` as a Lua literal shows them (`"k\0one"`,
    /// `"\255"`), for messages.
    static func quotedBytes(_ L: LuaState, at index: Int32) -> String {
        var length = 0
        guard let pointer = cd_to_string(L.raw, index, &length) else { return "?" }
        var text = "\""
        var bytes = UnsafeRawBufferPointer(start: pointer, count: length)[...]
        while !bytes.isEmpty {
            let byte = bytes.removeFirst()
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): text += "\\" + String(UnicodeScalar(byte))
            case 0x20..<0x7F: text += String(UnicodeScalar(byte))
            default: text += "\\" + String(byte)
            }
        }
        return text + "\""
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
