import CountdownCore
import FoundationEssentials
import NIOCore
import NIOHTTP1
import ScriptViewModel

/// What a server that shows a script's view (`cdscript run SCRIPT --serve`)
/// serves instead of the stored countdowns:
///
/// | request | answer |
/// | --- | --- |
/// | `GET /` | the view's page (Pages/view.html) |
/// | `GET /assets/NAME` | the pages' scripts and styles |
/// | `GET /api/view` | the view now, as `ScriptViewJSON` writes it |
/// | `GET /api/view/events` | the view's event stream: the view on connect, then again at each change |
/// | `POST /api/view/press` | `{"key": "r"}` with the control token: presses that button's key (202) |
///
/// Reads and control are checked as for the stored countdowns (`RequestGuard`).
/// Its state (the last frame, the open streams) belongs to the server's one
/// event-loop thread; the thread that owns the script reaches it only through
/// `CountdownWebServer.publishView`, with a frame (a value), and a click
/// reaches the script only through `press` (the key inbox's pipe).
public final class ScriptViewChannel: @unchecked Sendable {
    /// Queues a pressed key for the script's thread; false when it cannot now.
    private let press: @Sendable (String) -> Bool
    private var frame = ScriptViewFrame(ScriptViewState())
    let subscribers = EventSubscribers()

    /// `press` hands a key to the thread that owns the script (cdscript-serve writes it as a `key` line for the run: KeyLines).
    public init(press: @escaping @Sendable (String) -> Bool) {
        self.press = press
    }

    /// The event a new stream starts with: the view as it is now.
    var snapshotText: String { EventStreamText.frame(frame.json) }

    /// A new state of the view, on the server's thread: kept for new pages and
    /// sent to every open stream, encoded once.
    func publish(_ frame: ScriptViewFrame) {
        self.frame = frame
        guard subscribers.count > 0 else { return }
        subscribers.broadcast(ByteBuffer(string: EventStreamText.frame(frame.json)))
    }

    func route(_ request: WebRequest, segments s: [String], query: [String: String], guard requestGuard: RequestGuard) -> Routed {
        guard s.first == "api" else {
            guard request.method == .GET else { return .response(.wrongMethod(allowed: [.GET])) }
            if s.isEmpty { return .response(WebResponse(status: .ok, contentType: StaticPages.html, body: StaticPages.view.bytes)) }
            if s.count == 2, s[0] == "assets", let asset = StaticPages.assets[s[1]] {
                return .response(WebResponse(status: .ok, contentType: asset.contentType, body: asset.bytes))
            }
            return .response(.error(.notFound, "no such page: this server shows a script's view, at /"))
        }
        // Only what the table has (APIRoutes, held to docs/openapi.yaml).
        switch ScriptViewRoute.match(request.method, s) {
        case .notFound:
            return .response(.error(.notFound, "no such resource"))
        case .wrongMethod(let allowed):
            return .response(.wrongMethod(allowed: allowed))
        case .route(let route, _):
            let refusal = route.method == .GET ? requestGuard.checkRead(request.headers, query: query)
                                               : requestGuard.checkControl(request.headers)
            if let refusal { return .response(refusal) }
            switch route {
            case .view: return .response(.json(frame.json + "\n"))
            case .events: return .stream(first: snapshotText, subscribers: subscribers)
            case .press: return .response(pressed(request.body))
            }
        }
    }

    /// `POST /api/view/press`: a button's key, pressed as if typed. Only keys
    /// that a button of the view binds: the page clicks buttons, it does not
    /// type (`q` and Space are the terminal's).
    private func pressed(_ body: [UInt8]) -> WebResponse {
        let key: String
        do {
            key = try JSONDecoder().decode([String: String].self, from: Data(body))["key"] ?? ""
        } catch {
            return .error(.badRequest, "the body must be a JSON object such as {\"key\": \"r\"}")
        }
        guard !key.isEmpty else { return .error(.badRequest, "\"key\" is missing") }
        var shown = ""
        CountdownJSON.appendString(key, to: &shown)
        guard let enabled = frame.buttonKeys[key] else {
            return .error(.notFound, "no button of the view has the key \(shown.prefix(80))")
        }
        guard enabled else { return .error(.conflict, "the button of the key \(shown) is disabled") }
        guard press(key) else { return .error(.serviceUnavailable, "too many presses are waiting for the script: try again") }
        return .json("{\"pressed\":\(shown)}\n", status: .accepted)
    }
}
