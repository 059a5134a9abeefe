import Foundation
import TestPorts

/// A real redis-server of the test's own, on a free loopback port with a scratch
/// directory, stopped when the value goes (also when a test fails): no test
/// depends on a server left running. Persistence: append-only file, fsync always,
/// so a restart loses nothing.
public final class RedisServer: @unchecked Sendable {
    public let port: Int
    public let directory: String
    /// How it speaks TLS (on `port`, with no plain port); nil: plain text.
    public let tls: TLS?
    private var process: Process?

    /// A TLS server's certificate, and the clients it accepts.
    public struct TLS: Sendable {
        public var cert: String
        public var key: String
        /// The CA its clients' certificates must be signed by.
        public var ca: String
        /// True: a client without a certificate signed by `ca` is refused (`--tls-auth-clients yes`).
        public var authClients: Bool
        /// The certificate and key redis-cli presents when `authClients`.
        public var client: (cert: String, key: String)?

        public init(cert: String, key: String, ca: String, authClients: Bool = false, client: (cert: String, key: String)? = nil) {
            (self.cert, self.key, self.ca, self.authClients, self.client) = (cert, key, ca, authClients, client)
        }
    }

    /// A plain-text server, or one that speaks only TLS when `tls` is given.
    /// More of redis-server's options (`--replicaof HOST PORT`).
    public let extraArguments: [String]

    public init(tls: TLS? = nil, extraArguments: [String] = []) throws {
        self.tls = tls
        self.extraArguments = extraArguments
        port = try Self.freePort()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("cdscript-redis-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try start()
    }

    deinit {
        if let process, process.isRunning {
            kill(process.processIdentifier, SIGCONT)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// `redis://127.0.0.1:PORT`, or `rediss://…` for a TLS server.
    public var url: String { "\(tls == nil ? "redis" : "rediss")://127.0.0.1:\(port)" }
    public var pid: Int32 { process?.processIdentifier ?? -1 }

    /// Starts the server (again) and waits until it answers.
    public func start() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/redis-server")
        p.arguments = listening + ["--bind", "127.0.0.1", "--dir", directory, "--save", "",
                       "--appendonly", "yes", "--appendfsync", "always", "--daemonize", "no", "--logfile", directory + "/log"] + extraArguments
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        process = p
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if (try? cli("PING")) == "PONG" { return }
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw Failure(message: "redis-server on port \(port) did not answer")
    }

    /// The port options: plain, or TLS only.
    private var listening: [String] {
        guard let tls else { return ["--port", String(port)] }
        return ["--port", "0", "--tls-port", String(port), "--tls-cert-file", tls.cert, "--tls-key-file", tls.key,
                "--tls-ca-cert-file", tls.ca, "--tls-auth-clients", tls.authClients ? "yes" : "no"]
    }

    /// redis-cli's options to reach it. The test's own plumbing: it trusts any
    /// certificate (some servers here hold deliberately bad ones).
    private var cliConnection: [String] {
        var options = ["-p", String(port)]
        guard let tls else { return options }
        options += ["--tls", "--insecure"]
        if let client = tls.client { options += ["--cert", client.cert, "--key", client.key] }
        return options
    }

    /// Stops it cleanly (`SHUTDOWN`: it writes what it has) and waits. Not SIGTERM:
    /// a child of the test runner may inherit a signal mask that blocks it.
    public func stop() {
        guard let process, process.isRunning else { return }
        _ = try? cli("SHUTDOWN")
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    public func signal(_ signal: Int32) { kill(pid, signal) }

    /// Runs redis-cli against it; returns its output without the last newline.
    @discardableResult
    public func cli(_ arguments: String...) throws -> String { try cli(arguments) }

    /// `cli` with its arguments in an array.
    @discardableResult
    public func cli(_ arguments: [String]) throws -> String {
        try Self.runCLI(cliConnection + ["--raw"] + arguments)
    }

    /// Runs redis-cli with `arguments` and returns what it printed, without its last newline.
    static func runCLI(_ arguments: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/redis-cli")
        p.arguments = arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    struct Failure: Error { let message: String }

    /// A port for a server that may be restarted on it (LoopbackPort: below the ephemeral range).
    public static func freePort() throws -> Int {
        try LoopbackPort.free()
    }

    /// A TCP socket bound to a port of the kernel's choice on 127.0.0.1, listening
    /// for one client when `listening`, and that port; the caller closes it.
    public static func loopbackSocket(listening: Bool) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(message: "no socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && (!listening || listen(fd, 1) == 0) && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw Failure(message: "no free port")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}
