#if canImport(Glibc)
import Glibc
#endif
import CLuaShim
import CountdownCore

/// Many persistent starts in a row in one callback (a main chunk's loop of
/// 100,000 `countdown.start{ persist = true }`): past the first
/// `startsWrittenAtOnce`, each committed before `start` returns as any change is,
/// the others are written together when the callback returns, in one transaction
/// (SQLite committed each on its own, an fsync apiece), outside the callback's
/// CPU-time limit, which counts the script's own work. Before the callback's Lua
/// code can learn anything of the store (any other store operation, a change
/// made elsewhere) the held writes go first, so nothing reads around them;
/// `os.exit` inside the callback writes them too (`atexit`). All of them are
/// stored, or the message says how many were.
extension StoreBinding {
    /// Persistent starts in a row, in one callback, committed one by one before
    /// the later ones are held: a script that starts a few is unchanged.
    static let startsWrittenAtOnce = 16

    /// Holds the record of a countdown just started when a callback is running
    /// and has started more than `startsWrittenAtOnce` in a row; false when it
    /// must be written now.
    func holdSave(_ record: StoredCountdown) -> Bool {
        // Inside cancel_all, held removals go first (withStore): nothing is held past them.
        guard !holdingDeletes, let limits = cd_get_limits(vm.state.raw), limits.pointee.depth > 0 else { return false }
        // The callback's end counts the row from zero again (and writes what is held).
        if startsInARow == 0 { limits.pointee.after_callback_pending = 1 }
        startsInARow += 1
        if startsInARow <= Self.startsWrittenAtOnce { return false }
        if heldSaves.isEmpty { Self.exitWriter = Unmanaged.passUnretained(self).toOpaque() }
        heldSaves.append(record)
        return true
    }

    /// Writes the held records, in the order started. Called at the end of the
    /// outermost callback (`cd_limits`' after_callback), before any other store
    /// operation, and at exit.
    public func writeHeldSaves() {
        startsInARow = 0
        if let limits = cd_get_limits(vm.state.raw) { limits.pointee.after_callback_pending = 0 }
        guard !heldSaves.isEmpty else { return }
        let records = heldSaves
        heldSaves = []
        if Self.exitWriter == Unmanaged.passUnretained(self).toOpaque() { Self.exitWriter = nil }
        guard let store = configuredStore() else { return }
        do {
            // Each runs here (a store that keeps no copy of those need not ask: HeldRecords.swift).
            if let copyKeeper { try copyKeeper.saveAll(records, heldHere: true) } else { try store.saveAll(records) }
        } catch {
            let partial = error as? PartialSaveError
            let (underlying, stored) = (partial?.underlying ?? error, partial?.stored ?? 0)
            if records.count == 1 {
                // One start: the store's own message, as every other failure of it.
                reportError("\(underlying)")
            } else if stored == 0 {
                reportError("\(underlying) (none of the \(records.count) countdowns started in one callback were stored; they run on in memory)")
            } else {
                reportError("\(underlying) (\(stored) of the \(records.count) countdowns started in one callback were stored; the others run on in memory)")
            }
        }
    }

    /// Points the Lua state's end-of-callback hook at this binding.
    func installHeldSavesWriter() {
        guard let limits = cd_get_limits(vm.state.raw) else { return }
        limits.pointee.after_callback_context = Unmanaged.passUnretained(self).toOpaque()
        limits.pointee.after_callback = { context in
            Unmanaged<StoreBinding>.fromOpaque(context!).takeUnretainedValue().writeHeldSaves()
        }
        _ = Self.registerExitWriter
    }

    /// The binding holding saves (or cancel_all's removals) now, for `os.exit` in the middle of a callback
    /// (a process runs one host; tests that run many never call exit).
    nonisolated(unsafe) static var exitWriter: UnsafeMutableRawPointer?

    private static let registerExitWriter: Void = {
        atexit {
            guard let writer = StoreBinding.exitWriter else { return }
            StoreBinding.exitWriter = nil
            let binding = Unmanaged<StoreBinding>.fromOpaque(writer).takeUnretainedValue()
            // What is written now is the host's work, as at a callback's end: at
            // depth 0, outside the callback's CPU time (`--cpu-limit` stops Lua
            // code; a write cannot be stopped, and ending the process in it lost
            // what the script was told was kept: 1,000,000 started and then
            // os.exit() ran past 10 s of CPU on a busy machine).
            if let limits = cd_get_limits(binding.vm.state.raw) { limits.pointee.depth = 0 }
            binding.writeHeldDeletes()
            binding.writeHeldSaves()
        }
    }()
}
