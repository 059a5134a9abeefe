import CLua
import CLuaShim
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The commands `spawn` started that have exited, as their reaper threads saw
/// them: what `exited(pid)` answers, so that an end action that runs a command
/// (exec with `once`) is marked done when the command is, not when it starts.
enum ChildExits {
    private static let exited = Mutex<[pid_t: Int32]>([:])

    static func record(_ pid: pid_t, status: Int32) {
        exited.withLock { $0[pid] = status }
    }

    /// The wait status of `pid` once it exited (and forgets it), else nil.
    static func take(_ pid: pid_t) -> Int32? {
        exited.withLock { $0.removeValue(forKey: pid) }
    }
}

extension PluginBinding {
    /// `exited(pid)`: nil while the command `spawn` started runs; once it has
    /// ended, true and its exit code (or false and the signal that ended it).
    static let childExited: cd_host_function = { L, context in
        LuaHost.hostCall(L, context) { _, L throws(APIError) in
            var isInteger: Int32 = 0
            let pid = lua_tointegerx(L.raw, 1, &isInteger)
            guard isInteger != 0 else { throw APIError("exited: expected a process id, got \(L.typeName(at: 1))") }
            guard let status = ChildExits.take(pid_t(pid)) else {
                L.pushNil()
                return 1
            }
            let signal = status & 0x7f
            L.push(signal == 0)
            L.push(Int(signal == 0 ? (status >> 8) & 0xff : signal))
            return 2
        }
    }
}
