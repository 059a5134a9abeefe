#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import CountdownCore
import CountdownWeb
import EventLoop
import SQLiteStore
import TerminalView

/// `run --serve`: the script's view on a web page (CountdownWeb's
/// `ScriptViewChannel`), beside the terminal's or instead of it.
///
/// One thread still owns the script: after each pass of the run loop the view's
/// state is compared with the last one sent and, when the page would see a
/// difference, copied to the server's thread as a frame (`ScriptViewPublisher`);
/// a click comes back as a key on a pipe the loop watches, like the terminal's
/// input (`ScriptViewKeyInbox`), and is pressed on this thread.
final class ViewServing {
    let server: CountdownWebServer
    private let inbox: ScriptViewKeyInbox
    private var publisher: ScriptViewPublisher?

    /// Starts the server, or exits as `serve` does: 11 when the address is taken.
    init(options: ViewServeOptions, address: String, stateDir: String?) throws {
        let (token, tokenPath) = try WebListening.token(file: options.tokenFile, stateDir: stateDir, command: "cdscript run")
        let inbox: ScriptViewKeyInbox
        do {
            inbox = try ScriptViewKeyInbox()
        } catch {
            printError("cdscript run: \(error)")
            throw ExitCode(ExitStatus.systemError.rawValue)
        }
        self.inbox = inbox
        let (host, port) = try ListenAddress.parse(address, option: "--serve")
        var configuration = ServerConfiguration(host: host, port: port, controlToken: token.token, allowedHosts: options.allowedHosts)
        configuration.scriptView = ScriptViewChannel(press: { inbox.post($0) })
        // The stored countdowns are not served here (`cdscript serve` does): an empty store stands in.
        server = try WebListening.start(configuration, address: address, option: "--serve", command: "cdscript run",
                                        makeStore: { InMemoryCountdownStore() }, clock: { StoreInstant.now(bootID: nil) })
        let shownHost = WebListening.shown(host: host)
        StandardOutput.write("serving the view at http://\(shownHost):\(server.port)/ (its buttons need the control token: open it as /#token=TOKEN)\n", what: "the log")
        WebListening.sayIfMade(token, path: tokenPath)
        StandardOutput.flush()
        if !configuration.isLoopback {
            printError("cdscript run: warning: serving the view on \(host), beyond this machine, over plain HTTP: the token crosses the network unencrypted")
        }
    }

    /// Publishes `view`'s state after every pass of `loop`, and presses the keys the page sends.
    func attach(to view: ViewRuntime, loop: MainLoop) {
        let server = self.server
        let publisher = ScriptViewPublisher { server.publishView($0) }
        self.publisher = publisher
        let inbox = self.inbox
        loop.watch(inbox.readFD) { [unowned view] in
            for key in inbox.drain() {
                // Only a key a button binds now: the page clicks buttons, it does not type.
                guard view.controller.model.button(forKey: key) != nil else { continue }
                view.host.view?.press(key)
            }
        }
        let render = loop.afterPass
        loop.afterPass = { [unowned view] in
            render()
            publisher.update(ScriptViewState(of: view.controller))
        }
    }

    /// Stops listening and closes the pages' connections (they say "reconnecting",
    /// or that the view was closed). Once.
    func stop() {
        try? server.stop()
    }
}
