import ArgumentParser
import CountdownCore
import SQLiteStore
import FoundationEssentials
import RedisStore

/// `cdscript check`: reads the whole store, changes nothing, and says whether it
/// is whole: one line per problem, then a summary; exit 0 when whole, 9 when
/// damaged, 6 when it cannot be checked.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the countdown store for damage, without changing it.",
        discussion: """
            SQLite: every page (PRAGMA quick_check; --full: integrity_check, which also \
            compares every index with its table), the schema (the change log's triggers \
            included), every countdown and the end claims. Redis: every countdown record and end claim key, read \
            in pieces. Exit 0 when nothing is wrong, 9 when something is (each problem on \
            a line of its own), 6 when the store cannot be checked.
            """
    )

    @OptionGroup var storeOptions: StoreOptions

    @Flag(help: "SQLite: PRAGMA integrity_check instead of quick_check (slower; also compares every index with its table).")
    var full = false

    @Flag(help: "Print the report as JSON: {store, countdowns, ok, problems: [{subject, id, problem}], notes}.")
    var json = false

    func run() throws {
        let report: StoreCheckReport
        do {
            if let text = storeOptions.chosenRedisURL {
                let url = try StoreOptions.redisURL(text, tls: storeOptions.tlsSettings)
                report = try RedisCountdownStore(url: url).check()
            } else {
                report = try storeOptions.makeStore().check(full: full)
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw failOnStore(error)
        }
        if json {
            emit(Self.json(report), what: "the report")
        } else {
            for problem in report.problems {
                emit("\(problem.subject): \(VisibleText.escaped(problem.problem))", what: "the report")
            }
            for note in report.notes { emit("note: " + note, what: "the report") }
            emit(Self.summary(report), what: "the report")
        }
        if !report.isWhole { throw ExitCode(ExitStatus.storeDamaged.rawValue) }
    }

    /// `checked 100000 countdowns in PATH: ok` (or `: 2 problems`).
    static func summary(_ report: StoreCheckReport) -> String {
        let count = report.countdowns
        let outcome = report.isWhole ? "ok" : "\(report.problems.count) problem\(report.problems.count == 1 ? "" : "s")"
        return "checked \(count) countdown\(count == 1 ? "" : "s") in \(report.location): \(outcome)"
    }

    private struct JSONReport: Encodable {
        struct Problem: Encodable {
            let subject: String
            let id: String?
            let problem: String

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(subject, forKey: .subject)
                try container.encode(id, forKey: .id)
                try container.encode(problem, forKey: .problem)
            }

            enum CodingKeys: String, CodingKey { case subject, id, problem }
        }

        let store: String
        let countdowns: Int
        let ok: Bool
        let problems: [Problem]
        let notes: [String]
    }

    static func json(_ report: StoreCheckReport) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let value = JSONReport(store: report.location, countdowns: report.countdowns, ok: report.isWhole,
                               problems: report.problems.map { .init(subject: $0.subject, id: $0.id, problem: $0.problem) },
                               notes: report.notes)
        // Strings and numbers only: encoding cannot fail.
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
