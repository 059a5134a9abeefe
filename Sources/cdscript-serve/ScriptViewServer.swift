#if canImport(Glibc)
import CommandEnding
import Glibc
#endif
import ArgumentParser
import CountdownCore
import CountdownWeb
import ScriptViewModel
import cdscript
import CommandLineWords
import StoreViews

/// `cdscript-serve --script-view --serve HOST:PORT [--token-file F]
/// [--state-dir D] [--allow-host H]...`: the page of a script that runs in
/// another process (`cdscript run --serve`, ScriptRunning's ViewServing, which starts
/// this with these arguments). Its standard input brings the view, one frame a
/// line; its standard output (a pipe) takes back `say TEXT` lines for the run's
/// own output, `ready` once it listens, and `key KEY` for each click. It ends
/// when its input ends: the run ended, however it ended.
enum ScriptViewServer {
    static let mode = "--script-view"

    /// Serves until standard input ends, then exits: 0, or the codes `run
    /// --serve` exits with (11 the address is taken, 5 it cannot listen, 64 bad arguments).
    static func main(_ arguments: [String]) -> Never {
        // Keys written to a run that is gone fail with EPIPE; the end of input ends this process.
        signal(SIGPIPE, SIG_IGN)
        do {
            let settings = try Settings(arguments)
            let server = try start(settings)
            relayFrames(to: server)
            try? server.stop()
            exit(0)
        } catch let code as ExitCode {
            exit(code.rawValue)
        } catch {
            printError("cdscript-serve: \(error)")
            exit(ExitStatus.usage.rawValue)
        }
    }

    struct Settings {
        var address = ""
        var tokenFile: String?
        var stateDir: String?
        var allowedHosts: [String] = []

        init(_ arguments: [String]) throws {
            var rest = arguments[...]
            while let option = rest.popFirst() {
                guard let value = rest.popFirst() else { throw ValidationError("\(option) needs a value") }
                switch option {
                case "--serve": address = value
                case "--token-file": tokenFile = value
                case "--state-dir": stateDir = value
                case "--allow-host": allowedHosts.append(value)
                default: throw ValidationError("unknown option \(option) after \(ScriptViewServer.mode)")
                }
            }
            guard !address.isEmpty else { throw ValidationError("\(ScriptViewServer.mode) needs --serve HOST:PORT") }
        }
    }

    /// Listens, says where (and the token made now) and `ready`.
    static func start(_ settings: Settings) throws -> CountdownWebServer {
        let (token, tokenPath) = try WebListening.token(file: settings.tokenFile, stateDir: settings.stateDir, command: "cdscript run")
        let (host, port) = try ListenAddress.parse(settings.address, option: "--serve")
        var configuration = ServerConfiguration(host: host, port: port, controlToken: token.token, allowedHosts: settings.allowedHosts)
        configuration.scriptView = ScriptViewChannel(press: { KeyLines.post($0) })
        // The stored countdowns are not served here (`cdscript serve` does): an empty store stands in.
        let server = try WebListening.start(configuration, address: settings.address, option: "--serve", command: "cdscript run",
                                            makeStore: { InMemoryCountdownStore() }, clock: { StoreInstant.now(bootID: nil) })
        let shownHost = WebListening.shown(host: host)
        KeyLines.say("serving the view at http://\(shownHost):\(server.port)/ (its buttons need the control token: open it as /#token=TOKEN)")
        WebListening.sayIfMade(token, path: tokenPath) { KeyLines.say($0) }
        if !configuration.isLoopback {
            printError("cdscript run: warning: serving the view on \(host), beyond this machine, over plain HTTP: the token crosses the network unencrypted")
        }
        KeyLines.say(nil)
        return server
    }

    /// Hands each frame read from standard input to the server, until the input ends.
    static func relayFrames(to server: CountdownWebServer) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(STDIN_FILENO, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            pending += buffer[..<n]
            guard let last = pending.lastIndex(of: 0x0A) else { continue }
            // Only the newest whole frame matters: each one is the whole view.
            let whole = pending[..<last]
            let start = whole.lastIndex(of: 0x0A).map { $0 + 1 } ?? whole.startIndex
            if let frame = ScriptViewFrame(line: String(decoding: whole[start...], as: UTF8.self)) {
                server.publishView(frame)
            }
            pending.removeSubrange(...last)
        }
    }
}

/// The lines this process writes to the run on standard output (a pipe).
enum KeyLines {
    /// Before `ready` (nil): a line for the run to print; blocking, the run waits for it.
    static func say(_ text: String?) {
        let line = Array(((text.map { "say " + $0 } ?? "ready") + "\n").utf8)
        var offset = 0
        while offset < line.count {
            let n = line[offset...].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            offset += n
        }
        if text == nil {
            // From now on a click never waits for the run: a full pipe refuses it (503).
            _ = fcntl(STDOUT_FILENO, F_SETFL, fcntl(STDOUT_FILENO, F_GETFL) | O_NONBLOCK)
        }
    }

    /// A click's key, on the server's thread: one write of a few bytes (whole
    /// under PIPE_BUF, so lines never interleave); false when the pipe is full or the key cannot be one.
    static func post(_ key: String) -> Bool {
        guard ScriptViewKey.canBeKey(key) else { return false }
        let line = Array(("key " + key + "\n").utf8)
        while true {
            let written = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written == line.count { return true }
            if written < 0 && errno == EINTR { continue }
            return false
        }
    }
}
