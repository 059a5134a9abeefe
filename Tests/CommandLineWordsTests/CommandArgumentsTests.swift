import ArgumentParser
import CountdownCore
import Testing
@testable import CommandLineWords

/// Positional values that may look like options (`append ID -30`), durations read
/// in one grammar, HOST:PORT options and busted's empty paths.
@Suite("Positional values, durations, addresses and empty paths")
struct CommandArgumentsTests {
    /// The message of the usage error `body` throws, or nil when it throws none.
    static func usageMessage(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as ValidationError {
            return error.message
        } catch {
            return "not a usage error: \(error)"
        }
    }

    @Test("negative numbers and durations are values; other dashed words are options")
    func optionOrValue() {
        for word in ["-30", "-5m", "-", "-1.5", "5m"] { #expect(!CommandArguments.isOption(word), "\(word)") }
        for word in ["-x", "--all", "--"] { #expect(CommandArguments.isOption(word), "\(word)") }
    }

    @Test("`--` ends the options and is not a value")
    func doubleDash() {
        #expect(CommandArguments.values(["a", "--", "-x"]) == ["a", "-x"])
        #expect(CommandArguments.values(["-30"]) == ["-30"])
        #expect(Self.usageMessage { try CommandArguments.checkValues(["--", "-x"], names: "DURATION", missing: "none") } == nil)
    }

    @Test("an unknown option, no value or two values are usage errors with their own messages")
    func checkedValues() {
        #expect(Self.usageMessage { try CommandArguments.checkValues(["-x"], names: "DURATION", missing: "none") } == "Unknown option '-x'")
        #expect(Self.usageMessage { try CommandArguments.checkValues([], names: "DURATION", missing: "give one") } == "give one")
        #expect(Self.usageMessage { try CommandArguments.checkValues(["1m", "2m"], names: "DURATION", missing: "none") }
                    == "Unexpected argument '2m': give one DURATION")
        #expect(Self.usageMessage { try CommandArguments.checkValues(["-5m"], names: "DURATION", missing: "none") } == nil)
    }

    @Test("a duration reads in its range, and a bad one names the option")
    func durations() throws {
        #expect(try DurationArgument.read("5m", as: "--every", in: .tickInterval) == 300 * Time.nanosecondsPerSecond)
        let message = try #require(Self.usageMessage { _ = try DurationArgument.read("soon", as: "--every", in: .tickInterval) })
        #expect(message.hasPrefix("--every "), "\(message)")
    }

    @Test("HOST:PORT splits at the last colon, drops an IPv6 address's brackets, and takes port 0")
    func listenAddresses() throws {
        #expect(try ListenAddress.parse("127.0.0.1:8765", option: "--listen") == ("127.0.0.1", 8765))
        #expect(try ListenAddress.parse("[::1]:0", option: "--listen") == ("::1", 0))
        #expect(Self.usageMessage { _ = try ListenAddress.parse("nope", option: "--listen") }
                    == "--listen must be HOST:PORT, such as 127.0.0.1:8765 or 0.0.0.0:8080, got 'nope'")
        #expect(Self.usageMessage { _ = try ListenAddress.parse("h:65536", option: "--serve") }
                    == "--serve must be HOST:PORT, such as 127.0.0.1:8765 or 0.0.0.0:8080, got 'h:65536'")
        #expect(Self.usageMessage { _ = try ListenAddress.parse(":80", option: "--listen") } == "--listen needs a host before the port, such as 127.0.0.1:80")
    }

    @Test("`test --lpath=` gives the empty value as a word of its own; other commands' words stay")
    func emptyPaths() {
        #expect(EmptyPathOptions.split(["test", "--lpath=", "-m=", "--cpath=", "x"]) == ["test", "--lpath", "", "-m", "", "--cpath", "", "x"])
        #expect(EmptyPathOptions.split(["-v", "test", "--cpath="]) == ["-v", "test", "--cpath", ""])
        #expect(EmptyPathOptions.split(["run", "t.lua", "--lpath="]) == ["run", "t.lua", "--lpath="])
        #expect(EmptyPathOptions.split(["t.lua", "--lpath="]) == ["t.lua", "--lpath="])
    }

    @Test("--speed must be finite and above 0; numbers are quoted without a needless .0")
    func speeds() {
        #expect(Self.usageMessage { try NumberArgument.checkSpeed(60) } == nil)
        #expect(Self.usageMessage { try NumberArgument.checkSpeed(nil) } == nil)
        #expect(Self.usageMessage { try NumberArgument.checkSpeed(0) }
                    == "--speed must be a finite number greater than 0 (time cannot stand still or run backwards), got 0")
        #expect(Self.usageMessage { try NumberArgument.checkSpeed(.infinity) } == "--speed must be a finite number greater than 0, got inf")
        #expect(NumberArgument.text(-2.5) == "-2.5")
        #expect(NumberArgument.text(1e20) == "1e+20")
    }
}
