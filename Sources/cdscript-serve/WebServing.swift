import CommandEnding
import ArgumentParser
import CountdownCore
import CountdownWeb
import TerminalView
import cdscript
import StoreViews

/// The web side of `serve`: the token, the server on its own thread with its
/// own handle on the store, and what is said on start.
final class WebServing: ServeWeb.Server {
    private let server: CountdownWebServer
    /// --tls-cert and --tls-key, read again on SIGHUP.
    private let tlsFiles: (certificate: String, key: String)?

    private init(server: CountdownWebServer, tlsFiles: (certificate: String, key: String)?) {
        self.server = server
        self.tlsFiles = tlsFiles
    }

    static func start(_ request: ServeWeb.Request) throws -> ServeWeb.Server {
        let (token, tokenPath) = try WebListening.token(file: request.tokenFile, stateDir: request.stateDir, command: "cdscript serve")
        var tls: ServerTLS?
        if let certificate = request.tlsCertificate, let key = request.tlsKey {
            do {
                tls = try ServerTLS.load(certificate: certificate, key: key)
            } catch {
                printError("cdscript serve: \(error)")
                throw ExitCode(ExitStatus.unusableTLSFile.rawValue)
            }
        }
        let configuration = ServerConfiguration(host: request.host, port: request.port, controlToken: token.token,
                                                publicRead: request.publicRead, allowedHosts: request.allowedHosts, tls: tls)
        let server = try WebListening.start(configuration, address: request.listen, option: "--listen", command: "cdscript serve",
                                            makeStore: request.openStore, clock: request.now)
        let shownHost = WebListening.shown(host: configuration.host)
        let scheme = tls == nil ? "http" : "https"
        StandardOutput.write("serving \(scheme)://\(shownHost):\(server.port)/ (the overlay: /overlay/ID; the API: /api/countdowns)\n", what: "the log")
        WebListening.sayIfMade(token, path: tokenPath) { StandardOutput.write($0 + "\n", what: "the log") }
        if !configuration.isLoopback && tls == nil {
            printError("cdscript serve: warning: listening on \(configuration.host), beyond this machine, over plain HTTP: the token and the countdowns cross the network unencrypted (--tls-cert and --tls-key serve HTTPS)")
        }
        let tlsFiles = request.tlsCertificate.flatMap { certificate in request.tlsKey.map { (certificate, $0) } }
        return WebServing(server: server, tlsFiles: tlsFiles)
    }

    func storeChanged(_ changes: CountdownChanges) {
        server.storeChanged(changes)
    }

    func reloadTLS() {
        guard let tlsFiles else { return }
        do {
            try server.reloadTLS(certificate: tlsFiles.certificate, key: tlsFiles.key)
        } catch {
            printError("cdscript serve: \(error); the certificate in use stays")
        }
    }

    func stop() {
        try? server.stop()
    }
}
