import CLua
import CLuaShim

extension LuaHost {
    /// `run --coverage`: from now on, count every line that runs in a file
    /// chunk (hooks.c), beside the host's budget and interrupt hooks and the
    /// script's own debug.sethook. Runs that do not call it keep the bare count hook.
    public func startCoverage() {
        cd_coverage_start(vm.state.raw)
    }

    /// What `startCoverage` counted: file (as Lua names it, without "@") ->
    /// line -> times it ran. Read it before the state closes.
    public func coverageCounts() -> [String: [Int: Int]] {
        guard !vm.isClosed else { return [:] }
        let L = vm.state
        let base = L.top
        defer { L.setTop(base) }
        cd_coverage_push_table(L.raw)
        guard L.type(at: -1) == LUA_TTABLE else { return [:] }
        var hits: [String: [Int: Int]] = [:]
        L.pushNil()
        while lua_next(L.raw, -2) != 0 {
            if L.type(at: -2) == LUA_TSTRING, L.type(at: -1) == LUA_TTABLE, let source = L.string(at: -2) {
                var lines: [Int: Int] = [:]
                L.pushNil()
                while lua_next(L.raw, -2) != 0 {
                    lines[Int(lua_tointegerx(L.raw, -2, nil))] = Int(lua_tointegerx(L.raw, -1, nil))
                    L.pop()
                }
                hits[String(source.dropFirst()), default: [:]].merge(lines, uniquingKeysWith: +)
            }
            L.pop()
        }
        return hits
    }
}
