/// The plugins shipped inside the binary, as Lua source: `bell`, `notify`,
/// `exec`, `log`, `outfile`, `formats`, `timer_keys` and `sequence` (BuiltinPlugins/*.lua,
/// embedded as resources). Each is loaded like a plugin file (a module that
/// returns a table with `setup(options)`), with its name and a table of host
/// helpers (`bell`, `spawn`, `which`, `append_line`, `replace_file`, `warn`,
/// `wall_time`, `json`)
/// as `...`. Loading has no effect; `use(name, options)` calls `setup`.
public enum BuiltinPlugins {
    public static let names = ["bell", "exec", "formats", "log", "notify", "outfile", "sequence", "timer_keys"]

    /// Each is BuiltinPlugins/plugin_common.lua followed by BuiltinPlugins/<name>.lua,
    /// one chunk, so that the plugin sees the common locals. Kept as bytes: every
    /// host hands them to Lua as they are, and decoding them into Swift strings
    /// first cost every run about 450,000 instructions (docs/performance.md).
    /// In the order of `names`; pairs, not a `[String: [UInt8]]`, whose type
    /// cost every run a scan of the binary's conformances (0.26 million instructions).
    public static let sources: [(name: String, source: [UInt8])] = [
        ("bell", PackageResources.bell_lua), ("exec", PackageResources.exec_lua),
        ("formats", PackageResources.formats_lua), ("log", PackageResources.log_lua),
        ("notify", PackageResources.notify_lua), ("outfile", PackageResources.outfile_lua),
        ("sequence", PackageResources.sequence_lua), ("timer_keys", PackageResources.timer_keys_lua),
    ].map { ($0.0, PackageResources.plugin_common_lua + $0.1) }
}
