#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's environment, read one variable at a time.
///
/// `ProcessInfo.processInfo.environment` copies every variable into a new
/// dictionary on each use (0.3M instructions here); a `cdscript run` reads five
/// names before its script starts. Functions that read the environment take a
/// lookup (`(String) -> String?`), this one by default, so that tests can pass a
/// dictionary's subscript instead.
public enum ProcessEnvironment {
    /// The value of `name`; nil when it is not set.
    public static func value(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        return String(cString: raw)
    }
}
