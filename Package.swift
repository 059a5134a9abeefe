// swift-tools-version:6.1
import PackageDescription

// Layers, bottom to top; every dependency points down:
//   CLua (system library) -> CLuaShim (C helpers) ->
//   CountdownCore (pure Swift: clocks, countdowns, scheduler, formatting) ->
//   LuaHost, EventLoop (adapters) -> cdscript (wiring only)
// TerminalView (elements, layout, diffing renderer; TerminalSession is its only
// I/O) sits beside CountdownCore; LuaHost binds it as the `view` library.
let package = Package(
    name: "cdscript",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "cdscript", targets: ["cdscript"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"])]
        ),
        .target(
            name: "CLuaShim",
            dependencies: ["CLua"]
        ),
        .target(name: "CountdownCore"),
        .target(name: "CTerminal"),
        .target(name: "TerminalView", dependencies: ["CTerminal"]),
        .target(name: "LuaHost", dependencies: ["CLua", "CLuaShim", "CountdownCore", "TerminalView"]),
        .target(name: "CLinux"),
        .target(name: "EventLoop", dependencies: ["CLinux", "CountdownCore"]),
        .executableTarget(
            name: "cdscript",
            dependencies: [
                "CountdownCore", "LuaHost", "EventLoop", "TerminalView",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "CountdownCoreTests", dependencies: ["CountdownCore"]),
        .testTarget(name: "LuaHostTests", dependencies: ["LuaHost", "CLua", "CLuaShim", "CountdownCore"]),
        .testTarget(name: "EndToEndTests", dependencies: []),
        .testTarget(name: "TerminalViewTests", dependencies: ["TerminalView"]),
        .testTarget(name: "ViewTests", dependencies: ["LuaHost", "TerminalView", "CountdownCore", "CLua", "CLuaShim"]),
    ],
    swiftLanguageModes: [.v6]
)
