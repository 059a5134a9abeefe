import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Free loopback ports for the tests' own servers.
///
/// A port the kernel picks (a bind to port 0) comes from its ephemeral range,
/// the same range it takes the local ports of outgoing connections from. A test
/// that stops its server and starts another on the same port (a restarted
/// redis-server, a page that must reconnect to the same origin) could then find
/// its port taken by some other test's client connection in between: CI once
/// failed on exactly that (`bind: Address already in use`). So these ports are
/// drawn below the ephemeral range, where only an explicit bind can take them,
/// and checked free by binding them once.
public enum LoopbackPort {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Where the draws come from: from 10,000 up to just below the ephemeral range.
    public static var range: ClosedRange<Int> {
        let high = ephemeralLowerBound() - 1
        return 10_000...max(high, 10_001)
    }

    /// A port on 127.0.0.1 that nothing is bound to now and that no port-0 bind
    /// or outgoing connection will be given.
    public static func free() throws -> Int {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let port = Int.random(in: range, using: &generator)
            if isFree(port) { return port }
        }
        throw Failure(description: "no free loopback port in \(range) after 500 tries")
    }

    /// True when a plain bind (without SO_REUSEADDR, so a connection still in
    /// TIME_WAIT counts as taken) to 127.0.0.1:`port` succeeds.
    public static func isFree(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// The first port of /proc/sys/net/ipv4/ip_local_port_range (Linux's default 32768).
    static func ephemeralLowerBound() -> Int {
        let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
        guard let first = text?.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first,
              let low = Int(first), low > 10_001 else { return 32_768 }
        return low
    }
}
