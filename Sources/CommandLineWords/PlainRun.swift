import ArgumentParser
import RedisStore
import ScriptRunning

/// `cdscript FILE.lua [ARGS...]`, the commonest call, read without parsing the
/// whole command tree: ArgumentParser's parse of it was about half of a one-line
/// script's CPU (docs/performance.md, "Linked as one file").
///
/// The plain shape is `[--state-dir DIR] [--store URL] SCRIPT [ARGS...]`, each
/// option at most once with a value that is not empty and does not start with
/// "-", and SCRIPT a file name ending in `.lua` or holding a `/` (no command's
/// name does); every word after SCRIPT is the script's, as `run` reads them.
/// Anything else goes to ArgumentParser as before. PlainRunWordsTests reads
/// many calls both ways and fails when the two differ.
public struct PlainRun: Equatable {
    public var stateDir: String?
    public var store: String?
    var script: String
    var arguments: [String]

    /// The run for plain words (see above); nil for anything else.
    public static func plainWords(_ words: [String]) -> PlainRun? {
        var stateDir: String?, store: String?
        var rest = words[...]
        while let word = rest.first, word.hasPrefix("-") {
            guard word == "--state-dir" || word == "--store", rest.count >= 2 else { return nil }
            let value = rest[rest.startIndex + 1]
            guard !value.isEmpty, !value.hasPrefix("-") else { return nil }
            if word == "--state-dir" {
                guard stateDir == nil else { return nil }
                stateDir = value
            } else {
                guard store == nil else { return nil }
                store = value
            }
            rest = rest.dropFirst(2)
        }
        guard let script = rest.popFirst(), !script.hasPrefix("-"), script.hasSuffix(".lua") || script.contains("/") else { return nil }
        return PlainRun(stateDir: stateDir, store: store, script: script, arguments: Array(rest))
    }

    /// Runs it as `cdscript run` does with these options and every other at its default.
    public func run() throws {
        let settings = settings
        try exitingAsCommand {
            try ScriptRun.run(settings) { host in
                host.setArgTable(script: script, arguments: arguments, interpreter: InterpreterArguments.beforeScript(scriptArguments: arguments))
                return host.runScript(atPath: script, arguments: arguments, settingArg: false)
            }
        }
    }
}

extension PlainRun {
    /// The run's settings, made from these words without making the option
    /// groups: an ArgumentParser `@Option` builds its names into a set when it is
    /// made, and the three groups cost a run 0.34 million instructions, a sixth
    /// of a one-line script. PlainRunWordsTests holds these to
    /// `RunSettings(options:hardening:speed:view:)` of ArgumentParser's parse.
    var settings: RunSettings {
        let (stateDir, store) = (stateDir, store)
        let storeSettings = RunStoreSettings(named: stateDir != nil || store != nil) {
            let wait = try StoreOptions.waitSettings(replicas: nil, timeout: nil)
            return try RunSharedStoreBox(StoreOptions.openShared(stateDir: stateDir, store: store, tls: RedisTLSSettings(), wait: wait))
        }
        return RunSettings(store: storeSettings, hardening: HardeningSettings(), speed: nil, view: ViewSettings(plain: false, noColor: false))
    }
}
