import ArgumentParser
import CountdownCore
import Testing
@testable import CommandLineWords

/// The option groups several commands share, parsed on their own as ArgumentParser
/// parses them inside a command: their defaults, their checks (`validate()`, with
/// the messages users see) and the settings they give the libraries.
@Suite("The shared option groups: defaults, checks and settings")
struct OptionGroupsTests {
    /// What ArgumentParser says when `Group` refuses `words` (nil when it takes them).
    static func refusal<Group: ParsableArguments>(_ group: Group.Type, _ words: [String]) -> String? {
        do {
            _ = try group.parse(words)
            return nil
        } catch {
            return group.message(for: error)
        }
    }

    @Test("the limits by default: no instruction count, 512M of memory, the CPU limit, the store opened")
    func hardeningDefaults() throws {
        let options = try HardeningOptions.parse([])
        #expect(options.budget == 0 && options.memoryLimit == "512M" && options.cpuLimit == HardeningOptions.defaultCPULimit)
        #expect(options.opensStore && options.limits.memoryLimit == 512 * 1024 * 1024 && !options.limits.sandbox)
    }

    @Test("--sandbox keeps the store closed unless --allow-store opens it")
    func sandboxAndStore() throws {
        #expect(try !HardeningOptions.parse(["--sandbox"]).opensStore)
        #expect(try HardeningOptions.parse(["--sandbox", "--allow-store"]).opensStore)
        #expect(try HardeningOptions.parse(["--sandbox"]).limits.sandbox)
    }

    @Test("bad limits are refused with what they must be")
    func hardeningChecks() throws {
        #expect(Self.refusal(HardeningOptions.self, ["--budget", "-5"]) == "--budget must be 0 (no limit) or a positive number of instructions, got -5")
        #expect(Self.refusal(HardeningOptions.self, ["--memory-limit", "5Q"]) == "--memory-limit must be a size such as 512M, 1G or 1048576 (bytes), got '5Q'")
        #expect(Self.refusal(HardeningOptions.self, ["--cpu-limit", "0.01"]) == "--cpu-limit must be 0 (no limit) or a number of seconds from 0.1 to 86400, got 0.01")
        #expect(Self.refusal(HardeningOptions.self, ["--cpu-limit", "0", "--budget", "0", "--memory-limit", "0"]) == nil)
        #expect(try HardeningOptions.bytes("1G") == 1 << 30)
        #expect(try HardeningOptions.bytes("1048576") == 1_048_576)
    }

    @Test("the bar's options go with --bar, and its format and critical time are checked")
    func barChecks() throws {
        #expect(Self.refusal(BarOptions.self, ["--format", "{id}"]) == "--format goes with --bar")
        #expect(Self.refusal(BarOptions.self, ["--separator", "|"]) == "--separator goes with --bar")
        #expect(Self.refusal(BarOptions.self, ["--critical", "5"]) == "--critical goes with --bar")
        #expect(Self.refusal(BarOptions.self, ["--bar", "waybar", "--format", "{nope}"])?.hasPrefix("--format: ") == true)
        let longest = CountdownRange.longestDuration / Time.nanosecondsPerSecond
        #expect(Self.refusal(BarOptions.self, ["--bar", "waybar", "--critical=-1"]) == "--critical must be a number of seconds from 0 to \(longest), got -1")
        #expect(Self.refusal(BarOptions.self, ["--bar", "waybar", "--critical", "1e300"]) == "--critical must be a number of seconds from 0 to \(longest), got 1e+300")
        #expect(Self.refusal(BarOptions.self, ["--bar", "i3bar", "--critical", "0"]) == nil)
        #expect(Self.refusal(BarOptions.self, ["--bar", "nope"]) != nil)
    }

    @Test("serve listens on loopback by default, and a certificate needs its key and a key its certificate")
    func serveWebChecks() throws {
        #expect(try ServeWebOptions.parse([]).address() == ("127.0.0.1", 8765))
        #expect(Self.refusal(ServeWebOptions.self, ["--tls-cert", "c.pem"]) == "--tls-cert needs --tls-key: the private key of the certificate")
        #expect(Self.refusal(ServeWebOptions.self, ["--tls-key", "k.pem"]) == "--tls-key needs --tls-cert: the certificate of the key")
        #expect(Self.refusal(ServeWebOptions.self, ["--tls-cert", "c.pem", "--tls-key", "k.pem"]) == nil)
        #expect(Self.refusal(ServeWebOptions.self, ["--listen", "nope"]) == "--listen must be HOST:PORT, such as 127.0.0.1:8765 or 0.0.0.0:8080, got 'nope'")
    }

    @Test("a script's page: --token-file and --allow-host only with --serve, whose address is checked")
    func viewServeChecks() throws {
        #expect(Self.refusal(ViewServeOptions.self, ["--token-file", "t"]) == "--token-file and --allow-host go with --serve HOST:PORT")
        #expect(Self.refusal(ViewServeOptions.self, ["--allow-host", "h"]) == "--token-file and --allow-host go with --serve HOST:PORT")
        #expect(Self.refusal(ViewServeOptions.self, ["--serve", "nope"]) == "--serve must be HOST:PORT, such as 127.0.0.1:8765 or 0.0.0.0:8080, got 'nope'")
        #expect(try ViewServeOptions.parse([]).settings(stateDir: nil) == nil)
        let page = try #require(try ViewServeOptions.parse(["--serve", "127.0.0.1:0", "--allow-host", "h"]).settings(stateDir: "s"))
        #expect(page.address == "127.0.0.1:0" && page.allowedHosts == ["h"] && page.stateDir == "s")
        #expect(page.program.hasSuffix("/" + ServeProgram.name))
    }

    @Test("watch's pattern is checked as a shell pattern")
    func watchSelection() throws {
        #expect(Self.refusal(WatchSelectionOptions.self, ["--match", "["]) != nil)
        #expect(Self.refusal(WatchSelectionOptions.self, ["--match", "tea*"]) == nil)
        #expect(try !WatchSelectionOptions.parse([]).ticks)
    }

    @Test("the --redis-* TLS options become the store's TLS settings, --redis-insecure only when given")
    func tlsSettings() throws {
        let store = try StoreOptions.parse(["--redis-cacert", "ca.pem", "--redis-sni", "cache"])
        #expect(store.tlsSettings.caFile == "ca.pem" && store.tlsSettings.serverName == "cache" && store.tlsSettings.insecure == nil)
        let test = try RedisTLSOptions.parse(["--redis-insecure", "--redis-key", "k.pem"])
        #expect(test.settings.insecure == true && test.settings.keyFile == "k.pem" && test.settings.caFile == nil)
    }

    @Test("the built-in scripts' --every and --speed are checked when the command asks, not on parse")
    func builtinScriptChecks() throws {
        let slow = try BuiltinScriptOptions.parse(["--every", "0.01"])
        #expect(throws: ValidationError.self) { try slow.check() }
        #expect(throws: ValidationError.self) { try BuiltinScriptOptions.parse(["--speed", "0"]).check() }
        try BuiltinScriptOptions.parse(["--every", "0.5", "--speed", "60"]).check()
        #expect(BuiltinScriptOptions.shortestEvery == 0.1)
    }
}
