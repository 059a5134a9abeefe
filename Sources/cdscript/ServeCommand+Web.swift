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
        let (token, tokenPath) = try WebListening.token(file: web.tokenFile, stateDir: storeOptions.stateDir, command: "cdscript serve")
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
        let source = WebStoreSource(stateDir: storeOptions.stateDir, store: storeOptions.store, tls: storeOptions.tlsSettings, redis: redis)
        let server = try WebListening.start(configuration, address: web.listen, option: "--listen", command: "cdscript serve",
                                            makeStore: { try source.open() }, clock: { source.now() })
        let shownHost = WebListening.shown(host: configuration.host)
        let scheme = tls == nil ? "http" : "https"
        StandardOutput.write("serving \(scheme)://\(shownHost):\(server.port)/ (the overlay: /overlay/ID; the API: /api/countdowns)\n", what: "the log")
        WebListening.sayIfMade(token, path: tokenPath)
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
        StoreInstant.now(bootID: redis ? nil : BootID.current)
    }
}
