@testable import LuaHost
import Testing

@Suite("The built-in plugins' sources")
struct BuiltinPluginSourcesTests {
    @Test("one source per name, in the order of the names, each starting with the common part")
    func oneSourcePerName() {
        #expect(BuiltinPlugins.sources.map(\.name) == BuiltinPlugins.names)
        for (name, source) in BuiltinPlugins.sources {
            #expect(source.starts(with: PackageResources.plugin_common_lua), "\(name)")
            #expect(source.count > PackageResources.plugin_common_lua.count, "\(name)")
        }
    }
}
