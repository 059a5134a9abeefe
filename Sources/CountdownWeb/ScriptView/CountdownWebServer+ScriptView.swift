import NIOCore
import ScriptViewModel

extension CountdownWebServer {
    /// Hands a new state of the script's view to the server's thread, which
    /// keeps it for new pages and sends it to the open ones. Safe from any
    /// thread; nothing happens when the server shows no script's view.
    public func publishView(_ frame: ScriptViewFrame) {
        let core = self.core
        core.eventLoop.execute { core.configuration.scriptView?.publish(frame) }
    }

    /// Open streams of the script's view, read on the server's thread (for tests).
    public func viewStreamCount() throws -> Int {
        let core = self.core
        return try core.eventLoop.submit { core.configuration.scriptView?.subscribers.count ?? 0 }.wait()
    }
}
