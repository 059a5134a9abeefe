#if canImport(Glibc)
import Glibc
#endif
import CTerminal

/// Standard output with its first failure kept (CTerminal.h, "standard output").
///
/// Every writer of stdout goes through here or through Lua's `print` (which
/// writes through the same C function), so that a reader that went away or a
/// full disk is seen at the write that failed, with its errno, instead of a
/// trap in Foundation's `FileHandle.write` or a silent loss in Swift's `print`.
public enum StandardOutput {
    /// Why standard output could not be written.
    public enum Failure: Equatable, Sendable {
        /// The reader went away (EPIPE): a pipe into `head`, say.
        case closedPipe
        /// Any other write error (ENOSPC, EIO, ...): its errno (nil when stdio kept
        /// only its error flag), and what was written.
        case error(errno: Int32?, what: String)
    }

    /// Writes `text` and flushes. Returns false once writing has failed (this
    /// write or an earlier one); `what` names it for the message ("the listing").
    @discardableResult
    public static func write(_ text: String, what: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                cdt_output_write(chars.baseAddress, chars.count, what) == 0
            }
        }
    }

    /// Flushes stdout and notices failed writes that others made (the script's
    /// `io.write`). Returns false once writing has failed.
    @discardableResult
    public static func flush(what: String = "what the script wrote") -> Bool {
        cdt_output_flush(what) == 0
    }

    /// Records a failure seen elsewhere: the terminal the view draws on.
    public static func fail(errno error: Int32, what: String) {
        cdt_output_fail(error, what)
    }

    /// The first failure, or nil.
    public static var failure: Failure? {
        let error = cdt_output_failure()
        if error == 0 { return nil }
        if error == EPIPE { return .closedPipe }
        return .error(errno: error == CDT_OUTPUT_UNKNOWN_ERROR ? nil : error, what: String(cString: cdt_output_failure_what()))
    }

    /// Runs `action` (a C function: it may be called from inside Lua's `print`)
    /// once, at the first failure.
    public static func onFailure(_ action: cdt_output_failure_fn?) {
        cdt_output_on_failure(action)
    }
}

/// Standard error, for messages. Never traps and never fails a run: stderr may
/// be a closed pipe or a full disk too, and then there is nobody left to tell.
public enum StandardError {
    /// Writes `message` and a newline, in one write where it fits.
    public static func line(_ message: String) {
        var text = message + "\n"
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return }
                offset += n
            }
        }
    }
}
