import Foundation

/// A primary, a replica of it and three sentinels watching them (quorum 2), all
/// on free loopback ports, started by the test and stopped when the value goes
/// (also when a test fails). Sentinels call the primary down after 1 s of
/// silence, so a failover takes a few seconds.
///
/// With `tls`, every one of them speaks only TLS (no plain port), with the
/// certificates' server pair for 127.0.0.1, and replicates and watches over TLS
/// (`tls-replication yes`), as a deployment that requires TLS everywhere does.
public final class RedisSentinelGroup: @unchecked Sendable {
    public static let masterName = "cdscript-primary"
    public let primary: RedisServer
    public let replica: RedisServer
    public let sentinels: [RedisSentinel]
    /// The certificates of a TLS group (its CA is what clients trust); nil: plain text.
    public let certificates: TestCertificates?

    public init(tls certificates: TestCertificates? = nil) throws {
        self.certificates = certificates
        let tls = certificates.map { RedisServer.TLS(cert: $0.server.cert, key: $0.server.key, ca: $0.ca) }
        let replication = tls == nil ? [] : ["--tls-replication", "yes"]
        primary = try RedisServer(tls: tls, extraArguments: replication)
        replica = try RedisServer(tls: tls, extraArguments: replication + ["--replicaof", "127.0.0.1", String(primary.port)])
        let primaryPort = primary.port
        sentinels = try (0..<3).map { _ in try RedisSentinel(monitoring: Self.masterName, port: primaryPort, tls: tls) }
        try waitUntilSettled()
    }

    /// `redis-sentinel://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3/NAME`, or for a
    /// TLS group `rediss-sentinel://…/NAME?cacert=CA`.
    public var url: String {
        let sentinelList = sentinels.map { "127.0.0.1:\($0.port)" }.joined(separator: ",")
        guard let certificates else { return "redis-sentinel://" + sentinelList + "/" + Self.masterName }
        return "rediss-sentinel://" + sentinelList + "/" + Self.masterName + "?cacert=" + certificates.ca
    }

    /// The port of the server the sentinels call primary, as the first that answers says.
    public func primaryPort() -> Int? {
        for sentinel in sentinels {
            let answer = (try? sentinel.cli("SENTINEL", "get-master-addr-by-name", Self.masterName))?.split(separator: "\n")
            if let answer, answer.count == 2, let port = Int(answer[1]) { return port }
        }
        return nil
    }

    /// Waits until every sentinel knows the replica and the two other sentinels,
    /// and the replica has synchronised: only then can they agree on a failover.
    public func waitUntilSettled(timeout: TimeInterval = 30) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let settled = sentinels.allSatisfy { sentinel in
                let fields = (try? sentinel.cli("SENTINEL", "master", Self.masterName))?.split(separator: "\n").map(String.init) ?? []
                func field(_ name: String) -> String? { fields.firstIndex(of: name).flatMap { $0 + 1 < fields.count ? fields[$0 + 1] : nil } }
                return field("num-other-sentinels") == "2" && field("num-slaves") == "1"
            }
            let synced = (try? replica.cli("INFO", "replication"))?.contains("master_link_status:up") ?? false
            if settled && synced { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw RedisServer.Failure(message: "the sentinels did not settle within \(timeout) s")
    }

    /// What a failed failover test attaches: each server's replication state and
    /// the last lines of each sentinel's log (its view of the failover).
    public func diagnosis(lines: Int = 40) -> String {
        var parts: [String] = []
        for server in [primary, replica] {
            let info = (try? server.cli("INFO", "replication")) ?? "(no answer)"
            parts.append("server \(server.port): " + info.split(whereSeparator: \.isNewline).prefix(4).joined(separator: " "))
        }
        for sentinel in sentinels {
            let log = (try? String(contentsOfFile: sentinel.directory + "/log", encoding: .utf8)) ?? "(no log)"
            parts.append("sentinel \(sentinel.port):\n" + log.split(separator: "\n").suffix(lines).joined(separator: "\n"))
        }
        return parts.joined(separator: "\n")
    }

    /// Waits until the sentinels name a primary other than `port`; returns it.
    public func waitForFailover(from port: Int, timeout: TimeInterval = 60) throws -> Int {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let now = primaryPort(), now != port { return now }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw RedisServer.Failure(message: "no failover from port \(port) within \(timeout) s")
    }
}

/// One redis-sentinel (`redis-server --sentinel`) with a config file of its own.
public final class RedisSentinel: @unchecked Sendable {
    public let port: Int
    public let directory: String
    /// How it speaks TLS (on `port` only); nil: plain text.
    public let tls: RedisServer.TLS?
    private let process: Process

    init(monitoring name: String, port primaryPort: Int, tls: RedisServer.TLS? = nil) throws {
        let port = try RedisServer.freePort()
        self.port = port
        self.tls = tls
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-sentinel-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let listening = tls.map { """
            port 0
            tls-port \(port)
            tls-cert-file \($0.cert)
            tls-key-file \($0.key)
            tls-ca-cert-file \($0.ca)
            tls-auth-clients no
            tls-replication yes
            """ } ?? "port \(port)"
        let config = """
            \(listening)
            bind 127.0.0.1
            daemonize no
            dir \(directory)
            logfile \(directory)/log
            sentinel monitor \(name) 127.0.0.1 \(primaryPort) 2
            sentinel down-after-milliseconds \(name) 1000
            sentinel failover-timeout \(name) 10000
            sentinel parallel-syncs \(name) 1

            """
        try config.write(toFile: directory + "/sentinel.conf", atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/redis-server")
        process.arguments = [directory + "/sentinel.conf", "--sentinel"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if (try? cli("PING")) == "PONG" { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw RedisServer.Failure(message: "redis-sentinel on port \(port) did not answer")
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Sends the sentinel `signal` (SIGKILL: a sentinel that is down).
    public func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Runs redis-cli against it; its output without the last newline.
    @discardableResult
    public func cli(_ arguments: String...) throws -> String {
        // The test's own plumbing: over TLS it trusts any certificate.
        try RedisServer.runCLI(["-p", String(port)] + (tls == nil ? [] : ["--tls", "--insecure"]) + ["--raw"] + arguments)
    }
}
