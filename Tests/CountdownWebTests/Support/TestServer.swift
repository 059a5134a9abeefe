import CountdownCore
@testable import CountdownWeb
import Foundation
import Synchronization

/// A clock the test sets; the server reads it on its own thread.
final class TestClock: Sendable {
    private let instant: Mutex<StoreInstant>

    init(wall: Nanoseconds = 1_800_000_000 * Time.nanosecondsPerSecond) {
        instant = Mutex(StoreInstant(boot: 1_000 * Time.nanosecondsPerSecond, wall: wall, bootID: "test-boot"))
    }

    var now: StoreInstant { instant.withLock { $0 } }

    func advance(seconds: Double) {
        instant.withLock {
            let step = Nanoseconds(seconds * 1e9)
            $0.boot += step
            $0.wall += step
        }
    }
}

/// A clock that follows real time from a fixed start: for the tests whose pages
/// (in chromium) keep real time, and the server's end timer with them.
final class RealClock: Sendable {
    private let start = DispatchTime.now().uptimeNanoseconds
    let wallStart: Nanoseconds = Nanoseconds(Date().timeIntervalSince1970 * 1e9)

    var now: StoreInstant {
        let elapsed = Nanoseconds(DispatchTime.now().uptimeNanoseconds - start)
        return StoreInstant(boot: 1_000 * Time.nanosecondsPerSecond + elapsed, wall: wallStart + elapsed, bootID: "test-boot")
    }
}

/// A server on a free loopback port over an in-memory store, stopped by `stop()`
/// (tests call it in a defer, so it stops when they fail too).
struct TestServer {
    static let token = "test-token-0123456789"
    let server: CountdownWebServer

    init(clock: @escaping @Sendable () -> StoreInstant, configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, controlToken: Self.token)
        configure(&configuration)
        server = try CountdownWebServer(configuration: configuration, makeStore: { InMemoryCountdownStore() }, clock: clock,
                                        timeZone: TimeZone(identifier: "UTC")!)
    }

    var port: Int { server.port }
    var host: String { "127.0.0.1:\(port)" }

    func stop() { try? server.stop() }

    /// A request with the usual headers (Host, and the token when `authorized`).
    func request(_ method: String, _ path: String, body: String? = nil, authorized: Bool = true,
                 headers: [String] = []) throws -> HTTPReply {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n"
        if authorized { text += "Authorization: Bearer \(Self.token)\r\n" }
        for header in headers { text += header + "\r\n" }
        if let body { text += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
        text += "\r\n" + (body ?? "")
        return try RawHTTP.exchange(port: port, Array(text.utf8))
    }

    /// Stores `record` directly, as another process would, and tells the server.
    func store(_ record: StoredCountdown) throws {
        try server.withStore { try $0.save(record) }
    }

    func load(_ id: String) throws -> StoredCountdown? {
        try server.withStore { try $0.load(id: id) }
    }
}

/// A running countdown of `seconds` started at `now`.
func running(_ id: String, seconds: Double, at now: StoreInstant, overtime: Bool = false) -> StoredCountdown {
    try! StoredCountdown.started(id: id, spec: .duration(Nanoseconds(seconds * 1e9)), every: Time.nanosecondsPerSecond,
                                 overtime: overtime, at: now)
}
