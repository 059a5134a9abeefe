#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// printf-style formatting through the C library's `vsnprintf`, for the few
/// fixed formats cdscript writes (`%.2f ms`, `%4d/%-4d %6.2f%%`, Lua's `%.14g`).
///
/// Foundation's `String(format:)` would link Foundation's internationalization
/// and ICU's 34 MB of data; the C library formats numbers exactly as Lua itself
/// does (Lua's `tostring` of a float is `snprintf("%.14g")`). C's varargs read
/// what the format names, so the caller keeps the two in step: Swift's `Int` is
/// C's `long` (`%ld`), `Int32` is `int` (`%d`), `Double` is `%f`/`%g`.
public enum CFormat {
    /// `format` with `arguments`, as `snprintf` writes it (in the C locale,
    /// which a Swift program keeps unless it calls `setlocale`).
    public static func string(_ format: String, _ arguments: any CVarArg...) -> String {
        withVaList(arguments) { list in
            var buffer = [CChar](repeating: 0, count: 128)
            // vsnprintf consumes its va_list: a second pass needs a fresh one.
            let needed = Int(vsnprintf(&buffer, buffer.count, format, list))
            if needed < buffer.count { return String(decoding: buffer.prefix(max(needed, 0)).map { UInt8(bitPattern: $0) }, as: UTF8.self) }
            return withVaList(arguments) { again in
                var large = [CChar](repeating: 0, count: needed + 1)
                let written = Int(vsnprintf(&large, large.count, format, again))
                return String(decoding: large.prefix(max(written, 0)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
    }
}
