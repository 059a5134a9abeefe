#if canImport(Glibc)
import Glibc
#endif
import CountdownCore
import SQLiteAccess
import SystemIdentity

/// `cdscript check`: the whole file, read through a connection of its own that
/// SQLite opens read-only, in one read transaction. Nothing is created, migrated
/// or written, not even the registrations of processes that died with the store
/// open (the next ordinary open checks and clears those).
extension SQLiteCountdownStore {
    /// Checks the store: SQLite's own check of every page (`PRAGMA quick_check`,
    /// or with `full` `integrity_check`, which also compares every index with its
    /// table), the schema against the one this cdscript would have written (the
    /// change log's triggers included: without them followers miss changes),
    /// every countdown row as the store reads it, and the end claims.
    /// Damage is reported in the result; throws only when the file cannot be
    /// checked at all (unreadable, written by a newer cdscript, held locked).
    public func check(full: Bool = false) throws(StoreError) -> StoreCheckReport {
        var report = StoreCheckReport(location: path)
        var info = stat()
        if stat(path, &info) != 0 {
            guard errno == ENOENT else {
                throw StoreError(.unavailable, path: path, reason: "\(String(cString: strerror(errno))); it was left as it is")
            }
            report.notes.append("there is no store at \(path) (nothing was ever stored there)")
            return report
        }
        try refuseUnlessRegularFile()
        do {
            try checkHeader()
        } catch where error.kind == .corrupt {
            report.problems.append(.init(subject: "file", problem: error.reason))
            return report
        }
        if info.st_size == 0 {
            report.notes.append("the file is empty: a store not set up yet (the first write sets it up)")
            return report
        }
        for name in writers.stale() {
            report.notes.append("cdscript process \(ProcessIdentity.pid(in: StoreWriters.owner(of: name))) ended without closing the store; the next command that opens it checks it too")
        }
        do {
            let db = try readOnlyConnection()
            defer { db.close() }
            try db.transaction { try self.check(db, full: full, into: &report) }
        } catch {
            let failure = classify(error)
            guard failure.kind == .corrupt else { throw failure }
            report.problems.append(.init(subject: "file", problem: failure.reason))
        }
        return report
    }

    private func check(_ db: SQLiteConnection, full: Bool, into report: inout StoreCheckReport) throws {
        let integrity = try db.texts(full ? "PRAGMA integrity_check" : "PRAGMA quick_check")
        if integrity != ["ok"] {
            for line in integrity { report.problems.append(.init(subject: "file", problem: line)) }
        }
        guard try checkSchema(db, into: &report) else { return }
        try checkCountdowns(db, into: &report)
        if try db.tableExists("end_claim") { try checkEndClaims(db, into: &report) }
    }

    /// The tables, triggers and indexes, compared with those the migrations this
    /// store records would make. False when there is no countdown table to read.
    private func checkSchema(_ db: SQLiteConnection, into report: inout StoreCheckReport) throws -> Bool {
        func problem(_ text: String) { report.problems.append(.init(subject: "schema", problem: text)) }
        let version = Int(try db.value("PRAGMA user_version")?.integer ?? 0)
        if version > StoreSchema.version {
            throw StoreError(.newerSchema, path: path, reason: "schema version \(version); this one knows up to \(StoreSchema.version)")
        }
        let objects = try Self.schemaObjects(db)
        if objects.isEmpty { return false }
        guard try db.tableExists("grdb_migrations") else {
            problem("no migration table (grdb_migrations): not a store cdscript set up")
            return try db.tableExists("countdown")
        }
        if try StoreSchema.migrator.hasBeenSuperseded(db) {
            let known = try StoreSchema.migrator.appliedIdentifiers(db)
            throw StoreError(.newerSchema, path: path, reason: "it has migrations this cdscript does not know, beyond \(known.sorted().joined(separator: ", "))")
        }
        let applied = try StoreSchema.migrator.appliedMigrations(db)
        if version != applied.count {
            problem("user_version is \(version) but \(applied.count) migration\(applied.count == 1 ? " is" : "s are") recorded (\(applied.joined(separator: ", ")))")
        }
        // What this cdscript would have made, migrated as far as the store says it is.
        let reference = try SQLiteConnection(path: ":memory:")
        defer { reference.close() }
        if let last = applied.last { try StoreSchema.migrator.migrate(reference, upTo: last) }
        let expected = try Self.schemaObjects(reference)
        for (name, sql) in expected.sorted(by: { $0.key < $1.key }) {
            guard let found = objects[name] else {
                problem("\(name) is missing (schema \(applied.last ?? "none"))")
                continue
            }
            if found.map(Self.normalized) != sql.map(Self.normalized) { problem("\(name) differs from schema \(applied.last ?? "none"): \(found ?? "NULL")") }
        }
        for name in objects.keys.sorted() where expected[name] == nil {
            report.notes.append("the schema has \(name), which cdscript does not make")
        }
        return try db.tableExists("countdown")
    }

    /// SQL as written, without the white space that does not change its meaning
    /// (a store made by hand, or by an older build's formatting, is not damaged).
    static func normalized(_ sql: String) -> String {
        var out = ""
        var pendingSpace = false
        for character in sql {
            if character.isWhitespace {
                pendingSpace = true
                continue
            }
            if pendingSpace, let last = out.last, !"(,".contains(last), !"),".contains(character) { out.append(" ") }
            pendingSpace = false
            out.append(character)
        }
        return out
    }

    /// `type name` -> its SQL, for every table, index and trigger but SQLite's own.
    private static func schemaObjects(_ db: SQLiteConnection) throws -> [String: String?] {
        var objects: [String: String?] = [:]
        // grdb_migrations is the migrator's; its rows are checked above.
        try db.cached("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name <> 'grdb_migrations'").forEachRow { row in
            let type = row.value(at: 0).text ?? "", name = row.value(at: 1).text ?? ""
            objects["\(type) \(name)"] = row.value(at: 2).text
            return true
        }
        return objects
    }

    /// Every row read as `list` reads it, one at a time (a cursor: memory does
    /// not grow with the store).
    private func checkCountdowns(_ db: SQLiteConnection, into report: inout StoreCheckReport) throws {
        try db.cached("SELECT * FROM countdown").forEachRow { statement in
            report.countdowns += 1
            rowsRead += 1
            do {
                let countdown = try StoredCountdown(row: statement.row(), path: path)
                if countdown.id.isEmpty || countdown.id.utf8.contains(0) {
                    report.problems.append(.init(subject: "countdown \(VisibleText.escaped(countdown.id).debugDescription)", id: countdown.id,
                                                 problem: "an id cdscript never stores (empty, or with a NUL byte)"))
                }
            } catch let error as StoreError {
                guard let unreadable = error.unreadable else { throw error }
                report.problems.append(.init(subject: "countdown \(unreadable.shownID)", id: unreadable.idIsText ? unreadable.id : nil,
                                             problem: unreadable.problem + "; " + unreadable.removal))
            }
            return true
        }
    }

    /// Each end claim as the claim statements expect it. A claim whose countdown
    /// is gone is not damage: claims outlive their countdowns by design (a later
    /// countdown under the same id makes a new claim over it).
    private func checkEndClaims(_ db: SQLiteConnection, into report: inout StoreCheckReport) throws {
        try db.cached("SELECT rowid AS cdscript_rowid, * FROM end_claim").forEachRow { statement in
            let row = statement.row()
            let idValue = row["id"]
            let id = idValue.text
            let subject = "end claim " + (id.map { "'\(VisibleText.escaped($0))'" } ?? "row \(row["cdscript_rowid"])")
            func problem(_ text: String) { report.problems.append(.init(subject: subject, id: id, problem: text)) }
            if id == nil { problem("id = \(idValue): expected text") }
            // changed_at and lease_boot came with schema v5 (a store not yet migrated has none).
            for column in ["end_at", "changed_at", "lease_until", "token", "done"] where row.hasColumn(column) {
                let value = row[column]
                guard case .integer(let n) = value else {
                    problem("column \(column) = \(value): expected an integer")
                    continue
                }
                if column == "token", n < 0 { problem("column token = \(n): less than 0") }
                if column == "end_at", !CountdownRange.instants.contains(n) { problem("column end_at = \(n): outside the instants a countdown can have") }
            }
            let claimedBy = row["claimed_by"]
            let claimedIsText = claimedBy.text != nil
            if !claimedBy.isNull, !claimedIsText { problem("column claimed_by = \(claimedBy): expected text or NULL") }
            if row.hasColumn("lease_boot") {
                let leaseBoot = row["lease_boot"]
                let bootIsText = leaseBoot.text != nil
                if !leaseBoot.isNull, !bootIsText { problem("column lease_boot = \(leaseBoot): expected text or NULL") }
            }
            // action_status came with schema v6.
            if row.hasColumn("action_status") {
                let status = row["action_status"]
                var fits = status.isNull
                if case .integer(let n) = status, Int32(exactly: n) != nil { fits = true }
                if !fits { problem("column action_status = \(status): expected an exit status or NULL") }
            }
            let doneValue = row["done"]
            if case .integer(let d) = doneValue, d != 0, d != 1 { problem("column done = \(d): expected 0 or 1") }
            if case .integer(1) = doneValue, !claimedBy.isNull { problem("done, yet still claimed by \(claimedBy)") }
            return true
        }
        let orphans = try db.value("SELECT count(*) FROM end_claim WHERE id NOT IN (SELECT id FROM countdown)")?.integer ?? 0
        if orphans > 0 {
            report.notes.append("\(orphans) end claim\(orphans == 1 ? " is" : "s are") kept for countdowns no longer stored (by design: a later countdown under the same id claims over it)")
        }
    }
}
