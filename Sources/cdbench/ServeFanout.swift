import ArgumentParser
import CountdownCore
import CountdownWeb
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `cdbench serve`: the HTTP side of `serve` (CountdownWeb) with many event-stream
/// clients on one countdown, in one process on loopback. Measures how long an
/// append takes to reach every client (p50, p99), what the server costs while
/// nothing changes (CPU, and wake-ups of its thread), memory per client, and
/// GET /api/countdowns/ID answered per second over keep-alive connections: by
/// this process's own clients, and by wrk from a process of its own when
/// installed (`--wrk`).
struct ServeFanout: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Event-stream fan-out and request rate of the HTTP server.")

    @Option(help: "Event-stream clients.") var clients = 1000
    @Option(help: "Appends whose arrival is timed.") var appends = 20
    @Option(help: "Seconds of nothing changing with the streams open, for the idle cost (the heartbeat comes every 45 s).") var idleSeconds = 60.0
    @Option(help: "Seconds of nothing changing before any stream is open.") var quietSeconds = 20.0
    @Option(help: "Keep-alive connections of the request-rate part.") var connections = 8
    @Option(help: "Seconds of the request-rate part.") var rateSeconds = 3.0
    @Option(help: "wrk, for the request rate from another process (skipped when it is not there).") var wrk = "/usr/bin/wrk"
    @Option(help: "wrk's connections.") var wrkConnections = 16

    func run() throws {
        raiseDescriptorLimit()
        let token = "bench-token"
        let clock: @Sendable () -> StoreInstant = { StoreInstant.now(bootID: nil) }
        // A short request timeout (loopback clients send at once): a request's timer, once
        // cancelled, can still wake the loop at its deadline (NIO leaves its timerfd armed),
        // so the idle windows begin a little more than one timeout after the last request.
        let requestTimeout = 2.0
        let server = try CountdownWebServer(
            configuration: ServerConfiguration(host: "127.0.0.1", port: 0, controlToken: token, maxConnections: clients + connections + 16,
                                               requestTimeout: requestTimeout),
            makeStore: { InMemoryCountdownStore() }, clock: clock)
        defer { try? server.stop() }
        let now = clock()
        try server.withStore { store in
            try store.save(StoredCountdown(id: "tea", state: .running, kind: .duration, wallDeadline: now.wall + 3_600 * Time.nanosecondsPerSecond,
                                           every: Time.nanosecondsPerSecond, total: 3_600 * Time.nanosecondsPerSecond, bootID: nil,
                                           bootDeadline: nil, updatedAt: now.wall))
        }
        let port = server.port
        var m = Measurement()
        m.set("bench", "serve")
        m.set("clients", clients)

        // Nothing open, nothing changing: the server's thread should not wake at all.
        Thread.sleep(forTimeInterval: requestTimeout + 0.5)
        let quietBefore = serverThreadWakeUps()
        Thread.sleep(forTimeInterval: quietSeconds)
        m.set("quiet_server_thread_wakeups_per_min", Double(serverThreadWakeUps() - quietBefore) * 60 / quietSeconds)
        m.set("quiet_seconds", quietSeconds)

        let rssBefore = residentBytes()
        var streams: [Int32] = []
        for _ in 0..<clients {
            let fd = try connectLoopback(port)
            try sendAll(fd, "GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            streams.append(fd)
        }
        // Every stream has its snapshot before anything is timed.
        try waitForAll(streams, containing: "\"snapshot\"", timeout: 60)
        m.set("memory_per_client_bytes", (residentBytes() - rssBefore) / max(1, clients))

        // Nothing changes: the server's CPU and its threads' wake-ups.
        Thread.sleep(forTimeInterval: requestTimeout + 0.5)
        let switchesBefore = contextSwitches()
        let serverBefore = serverThreadWakeUps()
        let cpuBefore = cpuNanoseconds()
        Thread.sleep(forTimeInterval: idleSeconds)
        m.set("idle_cpu_ms_per_s", Double(cpuNanoseconds() - cpuBefore) / 1e6 / idleSeconds)
        m.set("idle_wakeups_per_s", Double(contextSwitches() - switchesBefore) / idleSeconds)
        m.set("idle_seconds", idleSeconds)
        // The server's own thread: its voluntary context switches are its wake-ups (each sleep in epoll_wait ends one).
        let serverWakeUps = serverThreadWakeUps() - serverBefore
        m.set("idle_server_thread_wakeups", serverWakeUps)
        m.set("idle_server_thread_wakeups_per_min", Double(serverWakeUps) * 60 / idleSeconds)

        // An append, timed to its arrival at each client.
        var latencies: [Int64] = []
        let control = try connectLoopback(port)
        for _ in 0..<appends {
            let body = #"{"duration": "1s"}"#
            let start = DispatchTime.now().uptimeNanoseconds
            try sendAll(control, "POST /api/countdowns/tea/append HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(token)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            let arrivals = try waitForAll(streams, containing: "\"append\"", timeout: 60)
            latencies += arrivals.map { Int64($0 - start) }
            _ = drain(control)
        }
        close(control)
        latencies.sort()
        m.set("append_p50_us", Double(Stats.percentile(latencies, 0.5)) / 1e3)
        m.set("append_p99_us", Double(Stats.percentile(latencies, 0.99)) / 1e3)
        m.set("append_max_us", Double(latencies.last ?? 0) / 1e3)
        for fd in streams { close(fd) }

        m.set("get_requests_per_s", try requestRate(port: port))
        if FileManager.default.isExecutableFile(atPath: wrk) {
            m.set("wrk_requests_per_s", try wrkRate(port: port))
            m.set("wrk_connections", wrkConnections)
        }
        m.printJSON()
    }

    /// GET /api/countdowns/tea from wrk, a process of its own (2 threads, as many
    /// as the machine's cores): the requests a second it reports.
    func wrkRate(port: Int) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: wrk)
        process.arguments = ["-t2", "-c\(wrkConnections)", "-d\(max(1, Int(rateSeconds)))s", "http://127.0.0.1:\(port)/api/countdowns/tea"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Requests/sec:") }),
              let rate = Double(line.dropFirst("Requests/sec:".count).trimmingCharacters(in: .whitespaces)) else {
            throw BenchSocketError(description: "wrk failed: \(text)")
        }
        // Every answer must have been a 200: wrk counts other statuses as "Non-2xx".
        guard !text.contains("Non-2xx") else { throw BenchSocketError(description: "wrk got answers other than 200: \(text)") }
        return rate
    }

    /// GET /api/countdowns/tea over `connections` keep-alive connections, one
    /// request outstanding on each, for `rateSeconds`.
    func requestRate(port: Int) throws -> Double {
        let request = Array("GET /api/countdowns/tea HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n".utf8)
        var fds: [Int32] = []
        for _ in 0..<connections {
            let fd = try connectLoopback(port)
            try sendAll(fd, request)
            fds.append(fd)
        }
        defer { for fd in fds { close(fd) } }
        var pending = [[UInt8]](repeating: [], count: fds.count)
        var answered = 0
        let end = DispatchTime.now().uptimeNanoseconds + UInt64(rateSeconds * 1e9)
        var polls = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while DispatchTime.now().uptimeNanoseconds < end {
            guard poll(&polls, nfds_t(polls.count), 100) > 0 else { continue }
            for i in polls.indices where polls[i].revents != 0 {
                let n = recv(fds[i], &buffer, buffer.count, 0)
                guard n > 0 else { continue }
                pending[i] += buffer[..<n]
                // Each answer ends with its body's closing "}\n"; one request is outstanding, so one answer is whole.
                if pending[i].count >= 2, pending[i][pending[i].count - 2] == UInt8(ascii: "}"), pending[i].last == UInt8(ascii: "\n") {
                    pending[i] = []
                    answered += 1
                    try sendAll(fds[i], request)
                }
            }
        }
        return Double(answered) / rateSeconds
    }
}

private struct BenchSocketError: Error, CustomStringConvertible { let description: String }

private func raiseDescriptorLimit() {
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    limit.rlim_cur = limit.rlim_max
    setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
}

private func connectLoopback(_ port: Int) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw BenchSocketError(description: "socket: errno \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard result == 0 else { close(fd); throw BenchSocketError(description: "connect: errno \(errno)") }
    return fd
}

private func sendAll(_ fd: Int32, _ text: String) throws { try sendAll(fd, Array(text.utf8)) }

private func sendAll(_ fd: Int32, _ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
        let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard n > 0 else { throw BenchSocketError(description: "send: errno \(errno)") }
        offset += n
    }
}

/// What is waiting on `fd`, read without blocking.
private func drain(_ fd: Int32) -> [UInt8] {
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    while poll(&p, 1, 200) > 0 {
        let n = recv(fd, &buffer, buffer.count, 0)
        guard n > 0 else { break }
        out += buffer[..<n]
    }
    return out
}

/// Reads every stream until each has received `text`; when each did (uptime nanoseconds).
@discardableResult
private func waitForAll(_ fds: [Int32], containing text: String, timeout: Double) throws -> [UInt64] {
    let needle = Array(text.utf8)
    var seen = [Bool](repeating: false, count: fds.count)
    var arrivals = [UInt64](repeating: 0, count: fds.count)
    var received = [[UInt8]](repeating: [], count: fds.count)
    var left = fds.count
    var polls = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    var buffer = [UInt8](repeating: 0, count: 65536)
    let end = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
    while left > 0 {
        guard DispatchTime.now().uptimeNanoseconds < end else { throw BenchSocketError(description: "\(left) streams did not get \(text)") }
        guard poll(&polls, nfds_t(polls.count), 100) > 0 else { continue }
        let now = DispatchTime.now().uptimeNanoseconds
        for i in polls.indices where polls[i].revents != 0 {
            let n = recv(fds[i], &buffer, buffer.count, 0)
            guard n > 0 else { throw BenchSocketError(description: "a stream closed") }
            guard !seen[i] else { continue }
            // What came before, as much as could hold the start of the text, and what came now.
            received[i] = received[i].suffix(needle.count - 1) + buffer[..<n]
            if contains(received[i], needle) {
                seen[i] = true
                arrivals[i] = now
                received[i] = []
                left -= 1
                polls[i].events = 0
            }
        }
    }
    return arrivals
}

private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard haystack.count >= needle.count else { return false }
    return haystack.withUnsafeBufferPointer { h in
        (0...(h.count - needle.count)).contains { start in
            h[start] == needle[0] && (1..<needle.count).allSatisfy { h[start + $0] == needle[$0] }
        }
    }
}

/// Voluntary context switches of the server's event-loop thread (NIO names it NIO-ELT-...).
private func serverThreadWakeUps() -> Int {
    var total = 0
    guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return 0 }
    for task in tasks {
        guard let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8), name.hasPrefix("NIO-ELT"),
              let status = try? String(contentsOfFile: "/proc/self/task/\(task)/status", encoding: .utf8) else { continue }
        for line in status.split(separator: "\n") where line.hasPrefix("voluntary_ctxt_switches") {
            total += Int(line.split(separator: "\t").last.map(String.init)?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
        }
    }
    return total
}

/// Voluntary and involuntary context switches of every thread of this process.
private func contextSwitches() -> Int {
    var total = 0
    guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return 0 }
    for task in tasks {
        guard let status = try? String(contentsOfFile: "/proc/self/task/\(task)/status", encoding: .utf8) else { continue }
        for line in status.split(separator: "\n") where line.contains("ctxt_switches") {
            total += Int(line.split(separator: "\t").last.map(String.init)?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
        }
    }
    return total
}
