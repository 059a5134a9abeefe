#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FoundationEssentials

/// An error as one line for a message: what `localizedDescription` gave, which
/// is not in `FoundationEssentials` (it reads Foundation's localized strings,
/// and with them ICU). A file error names its path and the system's reason
/// (`strerror`), e.g. `tests/tea_spec.lua: File exists`.
public enum ErrorText {
    public static func line(_ error: any Error) -> String {
        if let cocoa = error as? CocoaError {
            let reason = (cocoa.underlying as? POSIXError).map { Self.reason($0.code.rawValue) }
                ?? Self.reason(for: cocoa.code)
            return cocoa.filePath.map { "\($0): \(reason)" } ?? reason
        }
        if let posix = error as? POSIXError { return reason(posix.code.rawValue) }
        return String(describing: error)
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// The file errors Foundation raises without a system error beneath them.
    private static func reason(for code: CocoaError.Code) -> String {
        switch code {
        case .fileWriteFileExists: return reason(EEXIST)
        case .fileNoSuchFile, .fileReadNoSuchFile: return reason(ENOENT)
        case .fileReadNoPermission, .fileWriteNoPermission: return reason(EACCES)
        case .fileWriteOutOfSpace: return reason(ENOSPC)
        case .fileWriteVolumeReadOnly: return reason(EROFS)
        default: return "file error \(code.rawValue)"
        }
    }
}
