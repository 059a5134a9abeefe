import Foundation
import RedisTestServer
import Testing

extension RedisStoreFaults {
    /// The real binary against a primary and a replica of it that this suite
    /// starts (and always stops): `--redis-wait`, `?wait=N` and
    /// `CDSCRIPT_REDIS_WAIT` make each command's change wait for the replica.
    @Suite("Redis changes that wait for replicas, end to end", .serialized)
    final class RedisReplicaWaitEndToEndTests {
        let primary: RedisServer
        let replica: RedisServer

        init() throws {
            primary = try RedisServer()
            replica = try RedisServer(extraArguments: ["--replicaof", "127.0.0.1", String(primary.port)])
            let deadline = Date().addingTimeInterval(30)
            while !((try? replica.cli("INFO", "replication"))?.contains("master_link_status:up") ?? false) && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.05)
            }
        }

        deinit { replica.signal(SIGCONT) }

        /// The whole length of `id` on `server`, in seconds (field 7 of the record).
        func storedTotal(_ id: String, on server: RedisServer) throws -> Double? {
            let fields = try server.cli("HGET", "cdscript:countdowns", id).split(separator: "|", omittingEmptySubsequences: false)
            return fields.count > 6 ? Double(fields[6]).map { $0 / 1e9 } : nil
        }

        @Test("a replica that holds the change: the command exits 0 and the replica has it; one that does not answer in time: the change is made on the primary, stderr says so, exit 12")
        func waitsForTheReplica() throws {
            let url = primary.url + "?wait=1&wait-timeout=300ms"
            let started = try LiveProcess.run(["start", "x", "10m", "--store", url])
            #expect(started.status == 0, "\(started.stderr)")
            #expect(try storedTotal("x", on: replica) == 600, "the replica held the start when the command reported it")

            replica.signal(SIGSTOP)
            let appended = try LiveProcess.run(["append", "x", "30", "--store", url])
            #expect(appended.status == 12, "\(appended.lines) \(appended.stderr)")
            #expect(appended.lines.first?.hasPrefix("x: running") == true, "the change is reported: \(appended.lines)")
            #expect(appended.stderr.contains("the change to 'x' is on the primary, but only 0 of 1 replica confirmed it within 300 ms"), "\(appended.stderr)")
            #expect(try storedTotal("x", on: primary) == 630, "the change is on the primary")

            // An option wins over the query: 0 waits for none.
            let unwaited = try LiveProcess.run(["pause", "x", "--store", url, "--redis-wait", "0"])
            #expect(unwaited.status == 0, "\(unwaited.stderr)")
            replica.signal(SIGCONT)
            let deadline = Date().addingTimeInterval(10)
            while (try? storedTotal("x", on: replica)) != 630 && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            #expect(try storedTotal("x", on: replica) == 630, "the replica caught up once it answered")
        }

        @Test("CDSCRIPT_REDIS_WAIT and --redis-wait-timeout: read from the environment and the command line; a value that does not read is bad usage (exit 64) and changes nothing")
        func settingsFromEverywhere() throws {
            let fromEnvironment = try LiveProcess.run(["start", "e", "5m", "--store", primary.url, "--redis-wait-timeout", "2s"],
                                                      environment: ["CDSCRIPT_REDIS_WAIT": "1"])
            #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
            #expect(try storedTotal("e", on: replica) == 300)
            for (arguments, environment) in [(["--redis-wait", "many"], [String: String]()), (["--redis-wait-timeout", "0"], [:]),
                                             ([], ["CDSCRIPT_REDIS_WAIT": "-1"])] {
                let bad = try LiveProcess.run(["append", "e", "30", "--store", primary.url] + arguments, environment: environment)
                #expect(bad.status == 64, "\(arguments) \(environment): \(bad.stderr)")
                #expect(bad.stderr.contains("wait") || bad.stderr.contains("WAIT"), "\(bad.stderr)")
            }
            #expect(try storedTotal("e", on: primary) == 300, "nothing was changed by a refused command")
        }
    }
}
