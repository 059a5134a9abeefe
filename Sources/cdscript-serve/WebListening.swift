import CommandEnding
import ArgumentParser
import CountdownCore
import CountdownWeb
import SQLiteStore
import TerminalView
import cdscript
import StoreViews

/// What `serve` and `run --serve` share when they listen: the control token
/// (made once, kept in the state folder unless `--token-file` names one), the
/// server started with the codes users know (11 when the address is taken),
/// and the token said once, when it is made.
enum WebListening {
    /// The control token at `file`, or at `serve-token` in the state folder;
    /// a token that cannot be read or made is exit 5, said by `command`.
    static func token(file: String?, stateDir: String?, command: String) throws -> (outcome: ControlToken.Outcome, path: String) {
        let path = file ?? StateDirectory.resolve(option: stateDir) + "/serve-token"
        do {
            return (try ControlToken.load(orCreateAt: path), path)
        } catch {
            printError("\(command): \(error)")
            throw ExitCode(ExitStatus.systemError.rawValue)
        }
    }

    /// Starts the server on `address` (as `option` gave it), or exits: 11 when
    /// the address is taken, 5 when it cannot listen there at all.
    static func start(_ configuration: ServerConfiguration, address: String, option: String, command: String,
                      makeStore: @escaping @Sendable () throws -> CountdownStoreBackend,
                      clock: @escaping @Sendable () -> StoreInstant) throws -> CountdownWebServer {
        do {
            return try CountdownWebServer(configuration: configuration, makeStore: makeStore, clock: clock)
        } catch where CountdownWebServer.isAddressInUse(error) {
            printError("\(command): \(address) is taken (a serve, a run with --serve, or another program listens there); give another with \(option) HOST:PORT")
            throw ExitCode(ExitStatus.addressInUse.rawValue)
        } catch {
            printError("\(command): cannot listen on \(address): \(error)")
            throw ExitCode(ExitStatus.systemError.rawValue)
        }
    }

    /// Says a token made now, once, with where it is kept, through `say` (a line without its newline).
    static func sayIfMade(_ token: ControlToken.Outcome, path: String, say: (String) -> Void) {
        if case .created(let made) = token {
            say("control token (made now, kept in \(path)): \(made)")
        }
    }

    /// `host` as a URL shows it: an IPv6 address in brackets.
    static func shown(host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }
}
