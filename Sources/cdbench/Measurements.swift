import CBenchFloor
import Foundation

/// One benchmark's results, printed as a JSON object on one line for scripts/bench.
struct Measurement {
    var fields: [(String, Any)] = []

    mutating func set(_ key: String, _ value: Any) { fields.append((key, value)) }

    func printJSON() {
        let body = fields.map { key, value -> String in
            switch value {
            case let d as Double: return "\"\(key)\": \(d.isFinite ? String(format: "%.3f", d) : "null")"
            case let i as Int: return "\"\(key)\": \(i)"
            case let i as Int64: return "\"\(key)\": \(i)"
            default: return "\"\(key)\": \"\(value)\""
            }
        }
        print("{" + body.joined(separator: ", ") + "}")
    }
}

enum Stats {
    static func percentile(_ sorted: [Int64], _ p: Double) -> Int64 {
        guard !sorted.isEmpty else { return 0 }
        let index = min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))
        return sorted[index]
    }
}

/// Resident set size of this process, from /proc/self/statm.
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

func cpuNanoseconds() -> Int64 { cdb_process_cpu_ns() }
