/// The run loop's side of a script's view in the browser: after each pass it
/// is given the view's state, and sends a frame only when the page would see a
/// difference. So the page hears of a change at most once per pass of the loop
/// (the terminal's frame rate: it redraws once per pass too), and a view that
/// does not change sends nothing, however often the loop wakes.
///
/// Owned by the thread that owns the script; `send` hands the frame (a value)
/// to the server's thread.
public final class ScriptViewPublisher {
    private var lastState: ScriptViewState?
    private var lastJSON: String?
    private let send: (ScriptViewFrame) -> Void
    /// Frames sent so far.
    public private(set) var sentCount = 0

    public init(send: @escaping (ScriptViewFrame) -> Void) {
        self.send = send
    }

    /// Sends `state` unless the page already has it.
    public func update(_ state: ScriptViewState) {
        guard state != lastState else { return }
        lastState = state
        let frame = ScriptViewFrame(state)
        // Fields the page does not show (a label's "has changed" mark) differ without a visible change.
        guard frame.json != lastJSON else { return }
        lastJSON = frame.json
        sentCount += 1
        send(frame)
    }
}
