import CommandEnding
import FoundationEssentials
import LuaHost
import ScriptTesting

/// What one `cdscript test` run does, resolved as busted resolves it: the
/// command line wins over the `.busted` task (`-r NAME`, else `default`), which
/// wins over its `_all`, which wins over busted's defaults.
struct TestSettings {
    struct Usage: Error { let message: String }

    var roots: [String]
    var patterns: [String]
    var excludes: [String]
    var recursive: Bool
    var lpath: String?
    var cpath: String?
    var helper: String?
    var helperArguments: [String]
    var statements: [String]
    var filters: [String]
    var filterOuts: [String]
    var tags: [String]
    var excludeTags: [String]
    var output: TestOutput
    var verbose: Bool
    var shuffleFiles: Bool
    var shuffleTests: Bool
    var sortFiles: Bool
    var sortTests: Bool
    var seed: Int64?
    var repeatCount: Int
    var keepGoing: Bool
    var list: Bool
    var deferPrint: Bool
    var suppressPending: Bool
    var coverage: Bool
    /// busted's auto-insulate: each file in a fresh Lua state (true), or all in one.
    var autoInsulate: Bool
    /// `--cdscript-names`: TAP and JUnit name tests as cdscript did, not as busted does.
    var reportNames: ReportNames
    /// The command line after `test`, for the specs' `arg`.
    var arguments: [String]

    /// busted's default module paths, used when neither the command line nor `.busted` gives one.
    static let defaultLpath = TestRunner.defaultLpath
    static let defaultCpath = TestRunner.defaultCpath

    init(_ command: TestFlags, config: BustedConfig?) throws {
        let config = config ?? BustedConfig(values: [:])
        Self.warnAboutUnusedKeys(config)
        func nonEmpty(_ list: [String]) -> [String]? { list.isEmpty ? nil : list }

        roots = command.paths.isEmpty ? TestDiscovery.defaultRoots(config) : command.paths
        patterns = nonEmpty(command.pattern) ?? config.list("pattern", "p") ?? []
        excludes = nonEmpty(command.excludePattern) ?? config.list("exclude-pattern") ?? []
        recursive = command.recursive ?? config.flag("recursive", "R") ?? true
        lpath = nonEmpty(command.lpath)?.joined(separator: ";") ?? config.list("lpath", "m")?.joined(separator: ";") ?? Self.defaultLpath
        cpath = nonEmpty(command.cpath)?.joined(separator: ";") ?? config.list("cpath")?.joined(separator: ";") ?? Self.defaultCpath
        helper = command.helper ?? config.text("helper")
        helperArguments = TestFlags.tagList(nonEmpty(command.xhelper) ?? config.list("Xhelper") ?? [])
        statements = nonEmpty(command.statements) ?? config.list("e") ?? []
        filters = nonEmpty(command.filter) ?? config.list("filter") ?? []
        filterOuts = nonEmpty(command.filterOut) ?? config.list("filter-out") ?? []
        tags = TestFlags.tagList(nonEmpty(command.tags) ?? config.list("tags", "t") ?? [])
        excludeTags = TestFlags.tagList(nonEmpty(command.excludeTags) ?? config.list("exclude-tags") ?? [])
        if let both = excludeTags.first(where: tags.contains) {
            throw Usage(message: "--tags and --exclude-tags both name `\(both)`: a test cannot be run and left out at once")
        }
        verbose = command.verbose ?? config.flag("verbose", "v") ?? false
        // busted's --shuffle is --shuffle-files with --shuffle-tests; --sort likewise.
        let shuffle = command.shuffle ?? config.flag("shuffle")
        shuffleFiles = command.shuffleFiles ?? shuffle ?? config.flag("shuffle-files") ?? false
        shuffleTests = command.shuffleTests ?? shuffle ?? config.flag("shuffle-tests") ?? false
        let sort = command.sort ?? config.flag("sort")
        sortFiles = command.sortFiles ?? sort ?? config.flag("sort-files") ?? false
        sortTests = command.sortTests ?? sort ?? config.flag("sort-tests") ?? false
        if let text = config.text("seed"), command.seed == nil {
            guard let value = Int64(text) ?? Double(text).flatMap({ Int64(exactly: $0) }) else {
                throw Usage(message: ".busted: seed must be a whole number, got \(text)")
            }
            seed = value
        } else {
            seed = command.seed
        }
        if let text = config.text("repeat"), command.repeatCount == nil {
            guard let value = Int(text), value >= 1 else { throw Usage(message: ".busted: repeat must be 1 or more, got \(text)") }
            repeatCount = value
        } else {
            repeatCount = command.repeatCount ?? 1
        }
        keepGoing = command.keepGoing ?? config.flag("keep-going", "k") ?? true
        list = command.list || (config.flag("list", "l") ?? false)
        deferPrint = command.deferPrint ?? config.flag("defer-print") ?? false
        suppressPending = command.suppressPending ?? config.flag("suppress-pending") ?? false
        coverage = command.coverage ?? config.flag("coverage", "c") ?? false
        autoInsulate = command.autoInsulate ?? config.flag("auto-insulate") ?? true
        let outputName = command.output ?? config.text("output", "o") ?? (command.tap ? "TAP" : "utfTerminal")
        do {
            output = try TestOutput(name: outputName, options: TestFlags.tagList(nonEmpty(command.xoutput) ?? config.list("Xoutput") ?? []), verbose: verbose)
        } catch {
            throw Usage(message: error.message)
        }
        reportNames = command.cdscriptNames ? .cdscript : .busted
        arguments = Array(CommandLine.arguments.drop { $0 != "test" }.dropFirst())
        // Shuffled runs say their seed, so that a failure that depends on the order can be run again.
        if seed == nil, shuffleFiles || shuffleTests {
            seed = Int64(UInt32.random(in: 0...UInt32.max))
            printError("cdscript test: shuffled with --seed \(seed!)")
        }
    }

    /// `.busted` keys busted has and cdscript does not use: said, not silently dropped.
    static func warnAboutUnusedKeys(_ config: BustedConfig) {
        let unused: [String: String] = [
            "lang": "messages are in English",
            "loaders": "only Lua test files run",
            "lazy": "setup and teardown stay strict (write lazy_setup/lazy_teardown)",
            "enable-sound": "no sounds are played",
            "lua": "cdscript runs its own Lua 5.4",
        ]
        for (key, why) in unused.sorted(by: { $0.key < $1.key }) where config.values[key] != nil {
            if key == "lang", config.text("lang") == "en" { continue }
            if key == "loaders", config.list("loaders")?.allSatisfy({ $0 == "lua" }) == true { continue }
            if key == "lazy" || key == "enable-sound", config.flag(key) == false { continue }
            printError("cdscript test: .busted's `\(key)` is not used: \(why)")
        }
    }

    /// The test files, in the order they run.
    func files() throws(TestDiscovery.Failure) -> [String] {
        var files = try TestDiscovery.files(in: roots, patterns: patterns, excludes: excludes, recursive: recursive)
        if shuffleFiles, let seed {
            files = TestOrder.shuffled(files, seed: seed)
        } else if sortFiles {
            files.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
        return files
    }

    /// A runner set up for these settings.
    func runner(budget: Int64, memoryLimit: String, updateSnapshots: Bool, pluginPath: [PluginDirectory]) -> TestRunner {
        let runner = TestRunner()
        runner.filters = filters
        runner.filterOuts = filterOuts
        runner.tags = tags
        runner.excludeTags = excludeTags
        runner.updateSnapshots = updateSnapshots
        runner.limits = ScriptLimits(memoryLimit: HardeningSettings.bytes(memoryLimit) ?? ScriptLimits.defaultMemoryLimit, instructionBudget: budget)
        runner.lpath = lpath
        runner.cpath = cpath
        runner.helper = helper
        runner.helperArguments = helperArguments
        runner.statements = statements
        runner.sortTests = sortTests
        runner.shuffleTests = shuffleTests
        runner.seed = seed
        runner.keepGoing = keepGoing
        runner.listOnly = list
        runner.coverage = coverage
        runner.sharesState = !autoInsulate
        runner.arguments = arguments
        // Test files find plugins as scripts do (./plugins, the config folder, CDSCRIPT_PLUGIN_PATH, --plugin-path).
        let prepare = runner.prepareHost
        runner.prepareHost = { host in
            prepare(host)
            host.plugins.path = pluginPath
        }
        return runner
    }
}
