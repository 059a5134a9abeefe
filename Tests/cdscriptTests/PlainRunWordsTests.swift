import ArgumentParser
import Testing
@testable import cdscript
@testable import CommandLineWords
import RedisStore
import ScriptRunning

/// `cdscript FILE.lua [ARGS...]` is read without ArgumentParser (RunCommand+PlainWords.swift),
/// so these tests hold the two readings together: every call the plain reader accepts,
/// ArgumentParser reads as `run` with the same script, arguments and settings (`PlainRun.settings`, made without the option groups).
@Suite("A plain script call and ArgumentParser read it alike")
struct PlainRunWordsTests {
    /// Calls of the plain shape.
    static let plainCalls: [[String]] = [
        ["tea.lua"], ["./tea"], ["dir/tea.lua", "a", "b"], ["tea.lua", "--help"], ["tea.lua", "--state-dir", "x"],
        ["tea.lua", "-e", "x=1", "--", "-"], ["--state-dir", "/tmp/s", "tea.lua"], ["--store", "redis://127.0.0.1:1", "tea.lua", "1"],
        ["--state-dir", "s", "--store", "sqlite:///tmp/x.db", "a/b", "c"], ["名前.lua", "引数"], ["tea.lua", ""],
    ]

    /// Calls the plain reader must leave to ArgumentParser.
    static let otherCalls: [[String]] = [
        ["tea"], ["list"], ["run", "tea.lua"], ["test", "spec.lua"], ["-"], ["--speed", "60", "tea.lua"],
        ["--state-dir", "s", "--state-dir", "t", "tea.lua"], ["--state-dir", "", "tea.lua"], ["--state-dir", "-x", "tea.lua"],
        ["--state-dir=s", "tea.lua"], ["--state-dir"], ["--help"], ["--version", "tea.lua"], ["-e", "x=1", "tea.lua"],
        ["--plain", "tea.lua"], ["--watch", "tea.lua"], ["--", "tea.lua"], ["__complete-ids"], [],
    ]

    /// ArgumentParser's reading of `words`, as `CDScript.main` hands them over.
    static func parsed(_ words: [String]) throws -> RunCommand? {
        try CDScript.parseAsRoot(EmptyPathOptions.split(LeadingOptions.reordered(words))) as? RunCommand
    }

    @Test("every call read plainly is `run` with the same script, arguments and settings", arguments: plainCalls)
    func sameRun(words: [String]) throws {
        let plain = try #require(PlainRun.plainWords(words), "\(words)")
        let command = try #require(try Self.parsed(words), "\(words)")
        #expect(command.script == plain.script && command.scriptArguments == plain.arguments, "\(words)")
        #expect(command.statements.isEmpty && command.speed == nil && !command.coverage && !command.watch && command.serveOptions.serve == nil)
        #expect(command.storeOptions.stateDir == plain.stateDir && command.storeOptions.store == plain.store, "\(words)")
        // The settings the plain call runs with, made without the groups, are those of ArgumentParser's.
        let parsed = RunSettings(options: command.storeOptions, hardening: command.hardening, speed: command.speed, view: command.viewOptions)
        let settings = plain.settings
        #expect(settings.store.named == parsed.store.named, "\(words)")
        #expect(command.storeOptions.tlsSettings == RedisTLSSettings() && command.storeOptions.redisWait == nil && command.storeOptions.redisWaitTimeout == nil)
        #expect(settings.hardening.limits == parsed.hardening.limits && settings.hardening.cpuLimit == parsed.hardening.cpuLimit)
        #expect(settings.hardening.opensStore == parsed.hardening.opensStore && settings.hardening.pluginDirectories == parsed.hardening.pluginDirectories)
        #expect(settings.view == parsed.view && settings.speed == parsed.speed && settings.serve == nil && parsed.serve == nil)
        #expect(settings.coverage == parsed.coverage && settings.watching == nil && parsed.watching == nil)
    }

    @Test("the plain reader takes the plain shapes and leaves the rest")
    func shapes() {
        #expect(Self.plainCalls.allSatisfy { PlainRun.plainWords($0) != nil })
        #expect(Self.otherCalls.filter { PlainRun.plainWords($0) != nil } == [])
        #expect(PlainRun.plainWords(["--state-dir", "s", "a.lua", "x"]) == PlainRun(stateDir: "s", store: nil, script: "a.lua", arguments: ["x"]))
    }
}
