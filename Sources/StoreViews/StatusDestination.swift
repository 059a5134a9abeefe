/// Who reads `cdscript status`'s line (`--for`), and so how it is escaped once
/// joined (`BarEscaping`, one escaper per bar).
public enum StatusDestination: String, CaseIterable, Equatable, Sendable {
    /// A shell prompt, polybar's `custom/script` module, anything that shows
    /// text: `%{` is written `% {`, since polybar would read it as a tag, and
    /// nothing else loses by it.
    case text
    /// tmux's `#(cdscript status --for tmux)`: as `text`, and every `#` escaped
    /// for tmux (`BarEscaping.tmux`), since tmux expands `#[...]`, `#{...}` and
    /// `#(...)` in what the command prints.
    case tmux

    /// The line as this reader is to get it.
    public func escape(_ line: String) -> String {
        let text = BarEscaping.polybar(line)
        return self == .tmux ? BarEscaping.tmux(text) : text
    }
}
