import ArgumentParser
import CountdownCore
import CountdownWeb
import RedisStore
import SQLiteStore
import SystemIdentity
import TerminalView

/// The web side of `serve`: the token, the server on its own thread and its own
/// handle on the store, and what is said on start.
extension ServeCommand {
    func startWeb(redis: Bool) throws -> CountdownWebServer {
        let tokenPath = web.tokenFile ?? StateDirectory.resolve(option: storeOptions.stateDir) + "/serve-token"
        let token: ControlToken.Outcome
        do {
            token = try ControlToken.load(orCreateAt: tokenPath)
        } catch {
            printError("cdscript serve: \(error)")
            throw ExitCode(ExitStatus.systemError.rawValue)
        }
        var tls: ServerTLS?
        if let certificate = web.tlsCertificate, let key = web.tlsKey {
            do {
                tls = try ServerTLS.load(certificate: certificate, key: key)
            } catch {
                printError("cdscript serve: \(error)")
                throw ExitCode(ExitStatus.unusableTLSFile.rawValue)
            }
        }
        let configuration = try web.configuration(token: token.token, tls: tls)
        let source = WebStoreSource(stateDir: storeOptions.stateDir, store: storeOptions.store, tls: storeOptions.tls.settings, redis: redis)
        let server: CountdownWebServer
        do {
            server = try CountdownWebServer(configuration: configuration, makeStore: { try source.open() }, clock: { source.now() })
        } catch where CountdownWebServer.isAddressInUse(error) {
            printError("cdscript serve: \(web.listen) is taken (another serve, or another program, listens there); give another with --listen HOST:PORT")
            throw ExitCode(ExitStatus.addressInUse.rawValue)
        } catch {
            printError("cdscript serve: cannot listen on \(web.listen): \(error)")
            throw ExitCode(ExitStatus.systemError.rawValue)
        }
        let shownHost = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        let scheme = tls == nil ? "http" : "https"
        StandardOutput.write("serving \(scheme)://\(shownHost):\(server.port)/ (the overlay: /overlay/ID; the API: /api/countdowns)\n", what: "the log")
        if case .created(let made) = token {
            StandardOutput.write("control token (made now, kept in \(tokenPath)): \(made)\n", what: "the log")
        }
        if !configuration.isLoopback && tls == nil {
            printError("cdscript serve: warning: listening on \(configuration.host), beyond this machine, over plain HTTP: the token and the countdowns cross the network unencrypted (--tls-cert and --tls-key serve HTTPS)")
        }
        return server
    }
}

/// How the server's thread opens its own handle on the store `serve` follows, and
/// reads the instant stored countdowns are read at (as every command reads it).
private struct WebStoreSource: Sendable {
    let stateDir: String?
    let store: String?
    let tls: RedisTLSSettings
    let redis: Bool

    func open() throws -> CountdownStoreBackend {
        if redis {
            return try StoreOptions.openShared(stateDir: stateDir, store: store, tls: tls).persistence
        }
        return StoreOptions.makeStore(stateDir: stateDir)
    }

    func now() -> StoreInstant {
        let clock = BootClock()
        return StoreInstant(boot: clock.bootNow(), wall: clock.wallNow(), bootID: redis ? nil : BootID.current)
    }
}
