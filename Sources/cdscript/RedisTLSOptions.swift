import ArgumentParser
import RedisStore

/// `cdscript test`'s --redis-* TLS options (its --store is a test store of its own).
struct RedisTLSOptions: ParsableArguments {
    @Option(name: .customLong(RedisTLSHelp.caFileName), help: RedisTLSHelp.caFile, completion: .file())
    var caFile: String?

    @Option(name: .customLong(RedisTLSHelp.caDirectoryName), help: RedisTLSHelp.caDirectory, completion: .directory)
    var caDirectory: String?

    @Option(name: .customLong(RedisTLSHelp.certificateFileName), help: RedisTLSHelp.certificateFile, completion: .file())
    var certificateFile: String?

    @Option(name: .customLong(RedisTLSHelp.keyFileName), help: RedisTLSHelp.keyFile, completion: .file())
    var keyFile: String?

    @Option(name: .customLong(RedisTLSHelp.serverNameName), help: RedisTLSHelp.serverName)
    var serverName: String?

    @Flag(name: .customLong(RedisTLSHelp.insecureName), help: RedisTLSHelp.insecure)
    var insecure = false

    /// What the options say (nil where they say nothing).
    var settings: RedisTLSSettings {
        RedisTLSSettings(caFile: caFile, caDirectory: caDirectory, certificateFile: certificateFile, keyFile: keyFile,
                         serverName: serverName, insecure: insecure ? true : nil)
    }
}
