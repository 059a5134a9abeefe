import Foundation
import Testing

/// The stream of changes each killed process makes: step j touches countdown
/// k = ceil(j / 4): start (1000 + k s), append 7, append 1, cancel when k is even.
/// The script prints "ok j" after step j has returned, so after it was committed.
private let streamScript = """
    local run = arg[1]
    local handles = {}
    local j = 0
    while true do
      j = j + 1
      local k = (j + 3) // 4
      local step = j % 4
      if step == 1 then
        handles[k] = countdown.start{ id = run .. "-" .. k, seconds = 1000 + k, persist = true }
      elseif step == 2 then
        handles[k]:append(7)
      elseif step == 3 then
        handles[k]:append(1)
      elseif k % 2 == 0 then
        handles[k]:cancel()
      end
      print("ok " .. j)
    end
    """

/// What the store holds for run `run` once steps 1...n are committed.
private func model(run: String, steps n: Int) -> [String: StoreInspection.Row] {
    var rows: [String: StoreInspection.Row] = [:]
    var k = 1
    while 4 * k - 3 <= n {
        let cancelled = k % 2 == 0 && 4 * k <= n
        if !cancelled {
            var total = Int64(1000 + k)
            if 4 * k - 2 <= n { total += 7 }
            if 4 * k - 1 <= n { total += 1 }
            rows["\(run)-\(k)"] = .init(state: "running", total: total * 1_000_000_000)
        }
        k += 1
    }
    return rows
}

extension StoreFaults {
    @Suite("kill -9 never corrupts the store nor loses a committed countdown", .serialized)
    struct KillNineTests {
        @Test("a process killed at random moments of a stream of starts, appends and cancels, 200 times")
        func killLoop() throws {
            let dir = Scratch.directory("kill")
            let storePath = dir + "/state.sqlite"
            let script = Scratch.script(streamScript)
            var generator = SystemRandomNumberGenerator()
            var committed: [String: StoreInspection.Row] = [:]
            var stepsSeen: [Int] = []
            let began = Date()
            for iteration in 0..<200 {
                let run = "r\(iteration)"
                let process = try LiveProcess(["--state-dir", dir, script, run])
                // Even runs die at any moment from the start (loading, opening or creating
                // the store, or streaming); odd ones in the middle of the stream.
                if iteration % 2 == 1 { _ = process.waitForLine { $0 == "ok 1" } }
                Thread.sleep(forTimeInterval: Double.random(in: 0.0...(iteration % 2 == 1 ? 0.06 : 0.15), using: &generator))
                process.signal(SIGKILL)
                let status = process.wait()
                #expect(status == SIGKILL, "run \(run) ended by itself: \(process.stderr)")
                let printed = process.texts.compactMap { $0.hasPrefix("ok ") ? Int($0.dropFirst(3)) : nil }
                let n = printed.last ?? 0
                #expect(printed == Array(1...max(1, n)).prefix(printed.count).map { $0 }, "steps printed out of order")
                stepsSeen.append(n)

                guard FileManager.default.fileExists(atPath: storePath) else {
                    #expect(n == 0, "steps were committed but there is no store")
                    continue
                }
                let (integrity, rows) = try StoreInspection.read(storePath)
                #expect(integrity == ["ok"], "iteration \(iteration): \(integrity)")
                // Countdowns committed by earlier runs are all there, exactly as they were.
                for (id, row) in committed {
                    #expect(rows[id] == row, "iteration \(iteration): \(id) was \(row), now \(rows[id]?.description ?? "missing")")
                }
                // This run's countdowns: every printed step is in; the next one may be too
                // (committed, then killed before its line was printed).
                let mine = rows.filter { $0.key.hasPrefix(run + "-") }
                let options = [model(run: run, steps: n), model(run: run, steps: n + 1)]
                #expect(options.contains(mine), "iteration \(iteration) after \(n) steps: \(mine)")
                committed.merge(mine) { $1 }
            }
            let seconds = Date().timeIntervalSince(began)
            let midStream = stepsSeen.filter { $0 > 0 }.count
            print("kill -9 loop: 200 kills in \(String(format: "%.1f", seconds)) s; \(midStream) after at least one committed step, up to \(stepsSeen.max() ?? 0) steps; \(committed.count) countdowns kept")
            // The loop must really kill in the middle of the stream, not only before it starts.
            #expect(midStream >= 100)
        }

        @Test("a process killed while it creates a new store leaves one that the next process opens")
        func killDuringCreation() throws {
            let script = Scratch.script(#"countdown.start{ id = "x", seconds = 100, persist = true }; print("ok")"#)
            var generator = SystemRandomNumberGenerator()
            for _ in 0..<20 {
                let dir = Scratch.directory("create")
                let process = try LiveProcess(["--state-dir", dir, script])
                Thread.sleep(forTimeInterval: Double.random(in: 0.0...0.05, using: &generator))
                process.signal(SIGKILL)
                process.wait()
                let committed = process.texts.contains("ok")
                let list = try LiveProcess.run(["list", "--state-dir", dir, "--json"])
                #expect(list.status == 0, "\(list.stderr)")
                if committed { #expect(list.lines.contains { $0.contains(#""id" : "x""#) }) }
            }
        }
    }
}
