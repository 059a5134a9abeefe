import CommandEnding
import CountdownCore
import FoundationEssentials
import RedisStore
import SQLiteStore
import TerminalView

/// What `cdscript check` does once its words are read: reads the whole store,
/// changes nothing, and says whether it is whole: one line per problem, then a
/// summary (or the report as JSON); `CommandExit(.storeDamaged)` (9) when it is
/// not, `.storeError` (6) when it cannot be checked.
public enum StoreCheck {
    public static func run(_ location: StoreLocation, full: Bool, json: Bool,
                           report say: (String) -> Void = StoreRemoval.standardOutput) throws(CommandExit) {
        let report: StoreCheckReport
        do {
            if let text = location.chosenRedisURL {
                let url = try StoreLocation.redisURL(text, tls: location.tls)
                report = try RedisCountdownStore(url: url).check()
            } else {
                report = try location.sqliteStore().check(full: full)
            }
        } catch let exit as CommandExit {
            throw exit
        } catch {
            throw CommandExit.storeFailed(error)
        }
        if json {
            say(Self.json(report))
        } else {
            for problem in report.problems {
                say("\(problem.subject): \(VisibleText.escaped(problem.problem))")
            }
            for note in report.notes { say("note: " + note) }
            say(Self.summary(report))
        }
        if !report.isWhole { throw CommandExit(.storeDamaged) }
    }

    /// `checked 100000 countdowns in PATH: ok` (or `: 2 problems`).
    public static func summary(_ report: StoreCheckReport) -> String {
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

    public static func json(_ report: StoreCheckReport) -> String {
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
