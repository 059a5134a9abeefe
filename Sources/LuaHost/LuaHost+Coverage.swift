import CLua
import CLuaShim

extension LuaHost {
    /// `--coverage`: from now on, count every line that runs in a file chunk,
    /// in every thread of the state (coverage.c: a line hook that counts in C,
    /// beside the host's budget and interrupt hooks and the script's own
    /// debug.sethook). Runs that do not call it keep the bare count hook.
    public func startCoverage() {
        cd_coverage_start(vm.state.raw)
    }

    /// What was counted since `startCoverage` or the last take: chunk source
    /// (as Lua names it, without "@") -> line -> times it ran; forgets it, so
    /// that a state that runs several files gives each its own counts. Read it
    /// before the state closes.
    public func takeCoverageCounts() -> [String: [Int: Int]] {
        guard !vm.isClosed else { return [:] }
        let L = vm.state.raw
        var hits: [String: [Int: Int]] = [:]
        for index in 0..<cd_coverage_file_count(L) {
            var length = 0
            guard let name = cd_coverage_file_name(L, index, &length) else { continue }
            let source = String(decoding: UnsafeRawBufferPointer(start: name, count: length), as: UTF8.self)
            var lines: Int32 = 0
            guard let counts = cd_coverage_file_counts(L, index, &lines) else { continue }
            var counted: [Int: Int] = [:]
            for line in 0..<Int(lines) where counts[line] > 0 {
                counted[line] = Int(clamping: counts[line])
            }
            if !counted.isEmpty { hits[source, default: [:]].merge(counted, uniquingKeysWith: +) }
        }
        cd_coverage_reset(L)
        return hits
    }
}
