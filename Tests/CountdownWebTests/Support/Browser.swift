import Foundation

/// A headless chromium, driven through Tests/Support/Browser/cdp_driver.py (its
/// DevTools protocol over a pipe): open a page, evaluate in it, wait until an
/// expression holds, read pixels of a screenshot. `close()` ends it; tests call
/// it in a defer.
final class Browser {
    static let driver = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Support/Browser/cdp_driver.py").path

    /// Why the browser tests cannot run here; nil when they can.
    static let unavailable: String? = {
        let paths = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        guard paths.contains(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return "chromium is not installed (scripts/setup installs it)"
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { return "python3 is not installed" }
        return nil
    }()
    static var available: Bool { unavailable == nil }

    struct Failure: Error, CustomStringConvertible { let description: String }

    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer = Data()

    /// `arguments`: more of chromium's flags.
    init(width: Int = 800, height: Int = 300, arguments: [String] = []) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.driver]
        var environment = ProcessInfo.processInfo.environment
        environment["CDP_WIDTH"] = String(width)
        environment["CDP_HEIGHT"] = String(height)
        environment["CDP_EXTRA_ARGS"] = arguments.joined(separator: " ")
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    func close() {
        _ = try? call(["cmd": "quit"], expectReply: false)
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    @discardableResult
    private func call(_ command: [String: Any], expectReply: Bool = true) throws -> [String: Any] {
        var line = try JSONSerialization.data(withJSONObject: command)
        line.append(0x0A)
        try input.fileHandleForWriting.write(contentsOf: line)
        guard expectReply else { return [:] }
        while !buffer.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw Failure(description: "the browser driver ended") }
            buffer.append(chunk)
        }
        let end = buffer.firstIndex(of: 0x0A)!
        let reply = buffer[buffer.startIndex..<end]
        buffer = Data(buffer[(end + 1)...])
        guard let object = try JSONSerialization.jsonObject(with: reply) as? [String: Any] else {
            throw Failure(description: "unreadable reply from the driver")
        }
        if let error = object["error"] as? String { throw Failure(description: error) }
        return object
    }

    func open(_ url: String) throws {
        let reply = try call(["cmd": "open", "url": url])
        guard reply["ok"] as? Bool == true else { throw Failure(description: "\(url) did not load") }
    }

    func eval(_ expression: String) throws -> Any? {
        try call(["cmd": "eval", "expr": expression])["value"]
    }

    /// Text of the element with this id.
    func text(_ id: String) throws -> String? {
        try eval("document.getElementById('\(id)') && document.getElementById('\(id)').textContent") as? String
    }

    /// Waits until `expression` is truthy; its value and the seconds waited (nil value: it never was).
    @discardableResult
    func wait(_ expression: String, timeout: Double = 10) throws -> (value: Any?, seconds: Double) {
        let reply = try call(["cmd": "wait", "expr": expression, "timeout": timeout])
        return (reply["ok"] as? Bool == true ? reply["value"] : nil, reply["elapsed"] as? Double ?? timeout)
    }

    /// RGBA of these points of a screenshot taken over a transparent background.
    func pixels(_ points: [(Int, Int)]) throws -> [[Int]] {
        let reply = try call(["cmd": "pixels", "points": points.map { [$0.0, $0.1] }])
        return reply["rgba"] as? [[Int]] ?? []
    }

    /// Script exceptions and policy violations reported so far.
    func errors() throws -> [String] {
        try call(["cmd": "errors"])["errors"] as? [String] ?? []
    }
}
