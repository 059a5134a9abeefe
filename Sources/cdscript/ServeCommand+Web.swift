import CountdownCore
import RedisStore
import SQLiteStore
import SystemIdentity
import CommandLineWords
import StoreViews

/// The web side of `serve` as its options say it, for the server that
/// cdscript-serve starts (ServeWeb): where it listens, whom it lets in, and its
/// own handle on the store.
extension ServeCommand {
    func webRequest(redis: Bool) throws -> ServeWeb.Request {
        let (host, port) = try web.address()
        let stateDir = storeOptions.stateDir
        let store = storeOptions.store
        let tls = storeOptions.tlsSettings
        // The page's changes (append, pause, a start) wait for replicas as the command line's do.
        let wait = try storeOptions.waitSettings()
        return ServeWeb.Request(
            listen: web.listen, host: host, port: port, tokenFile: web.tokenFile, stateDir: stateDir,
            publicRead: web.publicRead, allowedHosts: web.allowedHosts,
            tlsCertificate: web.tlsCertificate, tlsKey: web.tlsKey,
            openStore: {
                if redis {
                    return try StoreOptions.openShared(stateDir: stateDir, store: store, tls: tls, wait: wait).persistence
                }
                return StoreOptions.makeStore(stateDir: stateDir)
            },
            now: { StoreInstant.now(bootID: redis ? nil : BootID.current) })
    }
}
