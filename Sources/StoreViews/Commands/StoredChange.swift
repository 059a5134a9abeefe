import CommandEnding
import CountdownCore
import TerminalView

/// One change to one stored countdown, made the way the commands share: one
/// transaction, exit 7 for an unknown (or ended) id, 6 for an unusable store.
public enum StoredChange {
    /// The decisions themselves are CountdownCore's (StoredChangeOutcome.swift), shared with `serve`.
    public typealias Outcome = StoredChangeOutcome

    /// Applies `change` to the countdown stored under `id` in one transaction
    /// and says what it is now through `report`; `verb` names the change in the
    /// message for a countdown that has finished.
    public static func apply(id: String, in store: SharedStore, verb: String, report: (String) -> Void = StoreRemoval.standardOutput,
                             _ change: @escaping (inout StoredCountdown, StoreInstant) -> Outcome) throws(CommandExit) {
        let outcome: Outcome?
        let after: StoredCountdown?
        let now: StoreInstant
        do {
            now = try store.now()
            // Nothing stored yet: no such id (a read-only command creates no file).
            (outcome, after) = store.exists ? try store.persistence.applyChange(id: id, at: now, change) : (nil, nil)
        } catch {
            throw CommandExit.storeFailed(error)
        }
        let shown = VisibleText.escaped(id)
        switch outcome {
        case nil:
            StandardError.line("cdscript: no stored countdown has the id '\(shown)' (in \(store.location))")
            throw CommandExit(.unknownCountdown)
        case .ended?:
            StandardError.line("cdscript: the stored countdown '\(shown)' has finished: nothing to \(verb) (in \(store.location))")
            throw CommandExit(.unknownCountdown)
        case .refused(let why)?:
            StandardError.line("cdscript: '\(shown)': \(why); it was left as it is")
            throw CommandExit(.usage)
        case .unchanged(let why)?:
            report("\(shown): \(why), \(describe(after, at: now))")
        case .changed?:
            report("\(shown): \(describe(after, at: now))")
        }
        if let status = store.finishCommand() { throw CommandExit(status) }
    }

    /// What a stored countdown is at `now`, as the change commands say it: `running, 00:04:00.0 left`.
    public static func describe(_ record: StoredCountdown?, at now: StoreInstant) -> String {
        guard let record else { return "gone" }
        if record.isPastEnd(at: now) {
            return "\(record.listedState(at: now)), +\(CountdownListing.clock(record.timePastEnd(at: now))) past its end"
        }
        return "\(record.effectiveState(at: now).rawValue), \(CountdownListing.clock(record.remaining(at: now))) left"
    }
}

extension StoredChange {
    /// `cdscript start`: stores the countdown `record` makes at the store's now
    /// under `id` (an error `record` throws goes out as it is), unless a running
    /// or paused one is stored there and not `replace` (exit 10); says what it
    /// stored through `report`.
    public static func start(id: String, replace: Bool, in store: SharedStore, report: (String) -> Void = StoreRemoval.standardOutput,
                             record make: (StoreInstant) throws -> StoredCountdown) throws {
        let now: StoreInstant
        do { now = try store.now() } catch { throw CommandExit.storeFailed(error) }
        // Made against the store's own now: a clock time such as 20:00 is read once.
        let record = try make(now)
        var conflict: StoredCountdown?
        var stored: StoredCountdown?
        do {
            try store.persistence.modify(id: id) { existing in
                if let existing, existing.effectiveState(at: now) != .finished, !replace {
                    conflict = existing
                    return
                }
                existing = record
                stored = record
            }
        } catch {
            throw CommandExit.storeFailed(error)
        }
        let shown = VisibleText.escaped(id)
        if let conflict {
            StandardError.line("cdscript: a countdown '\(shown)' is already stored, \(describe(conflict, at: now)) (in \(store.location)); "
                               + "`cdscript start --replace` replaces it, `cdscript cancel '\(shown)'` removes it")
            throw CommandExit(.conflict)
        }
        guard let stored else { return }
        report(summary(stored, at: now))
        if let status = store.finishCommand() { throw CommandExit(status) }
    }

    /// The one line `start` prints: `pomo: running, 00:25:00.0 left, ends 2026-11-29T10:25:00.000Z, "Tea", actions notify`.
    public static func summary(_ record: StoredCountdown, at now: StoreInstant) -> String {
        var line = "\(VisibleText.escaped(record.id)): stored, \(describe(record, at: now)), ends \(CountdownListing.iso8601(record.wallDeadline(at: now)))"
        if let title = record.title { line += ", \"\(VisibleText.escaped(title))\"" }
        if !record.actions.isEmpty { line += ", actions " + record.actions.joined(separator: " ") }
        return line
    }
}
