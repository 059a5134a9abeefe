#if canImport(Glibc)
import Glibc
#endif
import CLinux
import CountdownCore

/// The queue kept on disk (`PendingJournal`): every change to the queue is
/// written through, and what a process that ended left behind is adopted and
/// sent first by the next one that reaches the server.
extension RedisCountdownStore {
    /// The server, as the journal names it: no password, one name per database.
    var journalServer: String { "\(url.host):\(url.port)/\(url.database)" }

    /// Runs one write to the journal; the first failure is told once, and the
    /// queue lives on in memory only from then on (as it did before journals).
    func keepOnDisk(_ write: (PendingJournal) throws -> Void) {
        guard let journal else { return }
        do {
            try write(journal)
        } catch where PendingJournal.isUnreadable(error) {
            // Kept aside and told; the write goes to a new journal.
            guard setAside(journal, because: error) else { return }
            do { try write(journal) } catch { keepInMemoryOnly(journal, error) }
        } catch {
            keepInMemoryOnly(journal, error)
        }
    }

    /// The journal failed: said once, and the queue lives on in memory only.
    private func keepInMemoryOnly(_ journal: PendingJournal, _ error: any Error) {
        notice("cdscript: could not keep the changes queued for \(url) on disk in \(journal.path): \(error); they are kept in memory only")
        self.journal = nil
    }

    /// A journal that cannot be read is renamed aside (`PendingJournal.setAside`),
    /// never deleted, and said with what it may hold; the run then ends with 6
    /// (`journalsSetAside`). Returns true when a new journal can start at its name.
    func setAside(_ journal: PendingJournal, because error: any Error) -> Bool {
        let path = journal.path
        do {
            let (aside, contents) = try journal.setAside()
            journalsSetAside.append(aside)
            notice("cdscript: \(path) cannot be read (\(error)): it may hold \(contents) made while a Redis server was out of reach, which no command can send; it is kept as \(aside), and a new queue starts in \(path)")
            onJournalSetAside()
            return true
        } catch let failure {
            journalsSetAside.append(path)
            notice("cdscript: \(path) cannot be read (\(error)), nor set aside (\(failure)); it is left as it is, and the changes queued for \(url) are kept in memory only")
            onJournalSetAside()
            self.journal = nil
            return false
        }
    }

    /// Runs `body`, which queues many changes, with their journal rows written in
    /// one transaction (`PendingJournal.batch`). A journal that fails is told once
    /// and left, as `keepOnDisk` does; `body` runs exactly once either way.
    func queueingTogether(_ body: () throws -> Void) throws {
        try queueingTogether(body, setAsideAllowed: true)
    }

    private func queueingTogether(_ body: () throws -> Void, setAsideAllowed: Bool) throws {
        guard let journal else { return try body() }
        var ran = false
        var failure: Error?
        do {
            try journal.batch {
                ran = true
                do { try body() } catch { failure = error }
            }
        } catch {
            // Found unreadable as it opened, before anything was queued: set
            // aside, and the changes go to a new journal.
            if !ran, setAsideAllowed, PendingJournal.isUnreadable(error), setAside(journal, because: error) {
                return try queueingTogether(body, setAsideAllowed: false)
            }
            if self.journal != nil { keepInMemoryOnly(journal, error) }
            if !ran { return try body() }
        }
        if let failure { throw failure }
    }

    /// Queues `change` in memory and on disk.
    func enqueue(_ change: PendingChange) {
        var change = change
        if pending.merges(change) {
            let entry = pending.append(change)
            keepOnDisk { try $0.update(entry) }
            return
        }
        keepOnDisk { change.journalRow = try $0.insert(change, server: journalServer, owner: journalOwner, writer: writerKey) }
        pending.append(change)
    }

    /// Takes over what processes that ended left for this server, behind what
    /// this one has queued. Returns how many changes were adopted.
    @discardableResult
    func adoptOrphanedChanges() -> Int {
        var adopted: [PendingChange] = []
        keepOnDisk { adopted = try $0.adoptOrphans(server: journalServer, owner: journalOwner, isRunning: journalOwnerIsRunning) }
        var count = 0
        for change in adopted {
            var entry = change
            entry.charged = chargeMemory(PendingChanges.entryBytes(entry))
            pending.append(entry)
            count += entry.count
        }
        return count
    }

    /// Where queued changes are kept, for messages: a file, or this process's memory.
    public var pendingLocation: String {
        journal.map { $0.path } ?? "this process's memory"
    }

    /// True once a terminating signal or a failed write is ending the run: then
    /// nothing waits on the server any longer than it must.
    var runIsEnding: Bool { cdl_terminating_signal() != 0 }
}
