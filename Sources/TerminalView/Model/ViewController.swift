/// What the view shows while Space holds countdowns paused: a line of text in
/// a style, on the bottom row (and as a plain line when paused and resumed).
/// Scripts change it or hide it with `view.paused_text{text=, style=, hidden=}`.
public struct PauseNote: Equatable, Sendable {
    public static let defaultText = "paused — Space to resume"
    public var text = PauseNote.defaultText
    /// The plain-mode line printed when Space resumes.
    public var resumedText = "resumed"
    public var style = CellStyle(bold: true, inverse: true)
    public var styleText = "bold inverse"
    public var visible = true

    public init() {}
}

/// The view as scripts and the host see it: the elements, where they are drawn,
/// and the keys that press buttons.
///
/// Two outputs: a full-screen surface (a terminal or a `VirtualTerminal`), redrawn
/// by `render()` once per pass of the run loop with only the changed cells; or
/// plain lines, one `id: text` line per change of an element, written at once.
///
/// The view *opens* when the script creates its first element: only then does it
/// take over the terminal, and only then does the run wait for the view to close
/// instead of for the last countdown.
public final class ViewController {
    public enum Output {
        /// Full screen, with or without colours.
        case screen(ViewSurface, colours: Bool)
        /// One line per change; no escape sequences.
        case plain((String) -> Void)
    }

    /// What a key press did.
    public enum PressOutcome: Equatable, Sendable {
        /// An enabled button bound to the key; its `on_press` should run.
        case pressed(id: String)
        /// The key's button is disabled: nothing happens.
        case disabled(id: String)
        /// `q` or Ctrl-C: the view closed.
        case quit
        /// Space, not bound by the script: pause or resume all countdowns.
        case togglePause
        /// No button has this key.
        case unbound
        /// A handler of the script's (`view.on_key`) took the key.
        case handled
    }

    public private(set) var model = ViewModel()
    public let output: Output
    /// True once the first element exists.
    public private(set) var isOpen = false
    /// True after `close()` (`q`, Ctrl-C, `view.close()`).
    public private(set) var isClosed = false
    /// The key that closed the view (`q`, or a plain-mode "ctrl-c" line); nil when
    /// the script closed it or it is open. A run ended by a key before its
    /// countdowns did is no success (see the exit codes).
    public private(set) var quitKey: String?
    /// The last title set, if any.
    public private(set) var title: String?
    /// Called once when the view opens, after the surface took over (the host
    /// starts reading keys then).
    public var onOpen: () -> Void = {}

    /// The last error of a hook while the view is open, as shown on the bottom
    /// row (issue 29: an error must not leave a frozen screen with no sign of it);
    /// nil when there was none. Its traceback is printed after the terminal is
    /// given back, with everything else written to stderr meanwhile.
    public private(set) var errorNote: String?
    /// Errors shown since the view opened.
    public private(set) var errorCount = 0
    /// How the error line is drawn.
    public static let errorStyle = CellStyle(bold: true, colour: .red)

    /// The note shown while Space holds countdowns paused (see `PauseNote`).
    public private(set) var pauseNote = PauseNote()
    /// True while Space holds countdowns paused.
    public private(set) var isPausedBySpace = false

    private let layout: Layout
    private var writer = FrameWriter()
    private var dirty = false
    /// The title and the bell wait for the next `render`. Flags, not text: a
    /// script setting the title or ringing in a loop between two frames makes the
    /// host hold one title and one bell, not every one of them.
    private var titlePending = false
    private var bellPending = false
    private var plainLines: [ElementKey: String] = [:]
    /// The ids on screen after the last render when some elements did not fit;
    /// nil when all are shown or the layout must be worked out again. A change to
    /// an element off screen then costs no redraw.
    private var shownIDs: Set<ElementKey>?

    public init(output: Output) {
        self.output = output
        if case .screen(_, let colours) = output {
            layout = Layout(colours: colours)
        } else {
            layout = Layout(colours: false)
        }
    }

    public var isPlain: Bool {
        if case .plain = output { return true }
        return false
    }

    public func element(_ id: String) -> Element? { model.element(id) }

    /// An estimate of the memory the host holds for an element with `textBytes`
    /// of text (its id and string fields): `ViewModel.bytesPerElement`, and the
    /// text, twice in plain mode, which keeps each element's last line.
    public func heldBytes(textBytes: Int) -> Int {
        ViewModel.bytesPerElement + textBytes * (isPlain ? 2 : 1)
    }

    /// Creates an element; the first one opens the view.
    @discardableResult
    public func add(_ kind: ElementKind, id: String, fields: [(String, FieldValue)]) throws(ViewError) -> Element {
        let element = try model.add(kind, id: id, fields: fields)
        shownIDs = nil
        open()
        changed(element)
        return element
    }

    /// Changes fields of an element; nothing changes when a field is wrong.
    public func set(_ id: String, fields: [(String, FieldValue)]) throws(ViewError) {
        if try model.set(id, fields: fields), let element = model.element(id) {
            changed(element)
        }
    }

    /// Handles a key, by its canonical name (see `Key`).
    public func press(_ key: String) -> PressOutcome {
        if let id = model.button(forKey: key) {
            return model.element(id)?.enabled == true ? .pressed(id: id) : .disabled(id: id)
        }
        switch key {
        case Key.quit, "ctrl-c":
            quitKey = key
            close()
            return .quit
        case Key.pause:
            return .togglePause
        default:
            return .unbound
        }
    }

    /// Sets the window title (full screen only; plain output has none).
    public func setTitle(_ text: String) {
        title = text
        guard isOpen, !isClosed, case .screen = output else { return }
        titlePending = true
        dirty = true
    }

    /// Rings the terminal bell (full screen only).
    public func bell() {
        guard !isClosed, case .screen = output else { return }
        bellPending = true
        dirty = true
    }

    /// Space paused (true) or resumed (false) the countdowns: full screen shows
    /// the pause note on the bottom row while paused; plain output prints one
    /// line on each change. Nothing shows when the script hid the note.
    public func setPausedBySpace(_ paused: Bool) {
        guard paused != isPausedBySpace else { return }
        isPausedBySpace = paused
        guard !isClosed, pauseNote.visible else { return }
        switch output {
        case .screen:
            shownIDs = nil
            dirty = true
        case .plain(let emit):
            if isOpen { emit(PlainLine.printable(paused ? pauseNote.text : pauseNote.resumedText)) }
        }
    }

    /// Changes the pause note's text, style or visibility (`view.paused_text`).
    public func setPauseNote(_ note: PauseNote) {
        pauseNote = note
        if isPausedBySpace, case .screen = output {
            shownIDs = nil
            dirty = true
        }
    }

    /// Shows a hook's error on the bottom row of the full screen at the next
    /// `render`, in place of the last one, with the count of the others
    /// ("(+2 more)"). The rest of the view runs on. Plain output shows nothing:
    /// its stderr is not held back, so the error is printed at once there.
    /// `text` should be one line; control characters are drawn as blanks.
    public func showError(_ text: String) {
        guard isOpen, !isClosed, case .screen = output else { return }
        errorCount += 1
        errorNote = errorCount > 1 ? "\(text) (+\(errorCount - 1) more)" : text
        shownIDs = nil
        dirty = true
    }

    /// What the view held before `startOver`, for `restore`.
    public struct Contents {
        let model: ViewModel
        let plainLines: [ElementKey: String]
        let title: String?
        let pauseNote: PauseNote
        let errorNote: String?
        let errorCount: Int
    }

    /// For a script reloaded on save (`run --watch`): empties the view for the
    /// new version (elements, title, notes), which stays open on the same
    /// terminal and is drawn again in full; returns what it held, so that a
    /// version that fails can put it back (`restore`).
    public func startOver() -> Contents {
        let contents = Contents(model: model, plainLines: plainLines, title: title, pauseNote: pauseNote, errorNote: errorNote, errorCount: errorCount)
        model = ViewModel()
        plainLines = [:]
        title = nil
        pauseNote = PauseNote()
        errorNote = nil
        errorCount = 0
        redrawAll()
        return contents
    }

    /// Puts back what `startOver` took away.
    public func restore(_ contents: Contents) {
        model = contents.model
        plainLines = contents.plainLines
        title = contents.title
        pauseNote = contents.pauseNote
        errorNote = contents.errorNote
        errorCount = contents.errorCount
        redrawAll()
    }

    /// Closes the view: the run ends after the current pass. The terminal is
    /// given back by the host when the run ends.
    public func close() {
        // A closed view is not drawn again, but what changed just before is (the
        // bell rings, the window title shows the end): the timer rings and closes
        // at its deadline, in one pass.
        if !isClosed { render() }
        isClosed = true
    }

    /// Draws what changed since the last call, in one write; nothing when nothing changed.
    public func render() {
        guard dirty, !isClosed, isOpen, case .screen(let surface, _) = output else { return }
        dirty = false
        let size = surface.size
        let elements = model.elements
        shownIDs = Layout.shownIndices(elements, size: bodySize(size)).map { Set($0.map { ElementKey(elements[$0].id) }) }
        let control = (titlePending ? title.map(ANSI.title) ?? "" : "") + (bellPending ? ANSI.bell : "")
        titlePending = false
        bellPending = false
        let frame = control + writer.frame(composed(size))
        if !frame.isEmpty { surface.write(frame) }
    }

    /// The terminal changed size or was given back and taken over again: the
    /// next `render` clears and draws everything.
    public func redrawAll() {
        writer.invalidate()
        shownIDs = nil
        if title != nil, case .screen = output { titlePending = true }
        dirty = true
    }

    /// The view as text: the screen's rows, or in plain mode the current line of
    /// every element. Draws pending changes first.
    public func screenText() -> String {
        switch output {
        case .screen(let surface, _):
            render()
            return composed(surface.size).text
        case .plain:
            return model.elements.map(PlainLine.line).joined(separator: "\n")
        }
    }

    private var showsPauseNote: Bool { isPausedBySpace && pauseNote.visible }

    /// The lines under the elements, top to bottom: the pause note while it
    /// shows, then the error line.
    private var notes: [(text: String, style: CellStyle)] {
        var lines: [(text: String, style: CellStyle)] = []
        if showsPauseNote { lines.append((pauseNote.text, pauseNote.style)) }
        if let errorNote { lines.append((errorNote, Self.errorStyle)) }
        return lines
    }

    /// The notes that fit: all of them while a row is left to the elements; on a
    /// one-row terminal the first alone (being paused matters most).
    private func shownNotes(_ size: TerminalSize) -> [(text: String, style: CellStyle)] {
        let all = notes
        guard !all.isEmpty, size.rows >= 1 else { return [] }
        return Array(all.prefix(max(1, size.rows - 1)))
    }

    /// The rows left to the elements: all but those of the notes.
    private func bodySize(_ size: TerminalSize) -> TerminalSize {
        let taken = shownNotes(size).count
        return taken > 0 && size.rows > taken ? TerminalSize(columns: size.columns, rows: size.rows - taken) : size
    }

    /// The screen: the elements, and the notes on the bottom rows (a note alone
    /// when the terminal has one row).
    private func composed(_ size: TerminalSize) -> Screen {
        let shown = shownNotes(size)
        guard !shown.isEmpty else { return layout.compose(model.elements, size: size) }
        var screen = Screen(size: size)
        let bodyRows = size.rows - shown.count
        if bodyRows > 0 {
            let body = layout.compose(model.elements, size: bodySize(size))
            for row in 0..<bodyRows {
                for column in 0..<size.columns { screen[row, column] = body[row, column] }
            }
        }
        for (i, note) in shown.enumerated() {
            layout.place(note.text, style: note.style, row: bodyRows + i, on: &screen)
        }
        return screen
    }

    private func open() {
        guard !isOpen else { return }
        isOpen = true
        if case .screen(let surface, _) = output {
            surface.begin()
            if title != nil { titlePending = true }
        }
        onOpen()
    }

    private func changed(_ element: Element) {
        guard !isClosed else { return }
        switch output {
        case .screen:
            if let shownIDs, !shownIDs.contains(ElementKey(element.id)) { return }
            dirty = true
        case .plain(let emit):
            let line = PlainLine.line(for: element)
            if plainLines[ElementKey(element.id)] != line {
                plainLines[ElementKey(element.id)] = line
                emit(line)
            }
        }
    }
}
