import CountdownCore
@testable import CountdownWeb
import Testing

@Suite("Request targets: strict percent-decoding")
struct RequestTargetTests {
    @Test("Segments and query parameters are decoded; %2F stays inside its segment")
    func decoding() throws {
        let target = try #require(RequestTarget("/c/a%2Fb%20%E2%80%AE?format=%7Bmm%7D:%7Bss%7D&done=Time+up&bg"))
        #expect(target.segments == ["c", "a/b \u{202E}"])
        #expect(target.query == ["format": "{mm}:{ss}", "done": "Time up", "bg": ""])
        #expect(RequestTarget("/")?.segments == [])
        #expect(RequestTarget("/api/countdowns/")?.segments == ["api", "countdowns"])
    }

    @Test("A malformed escape or bytes that are not UTF-8 make the target unreadable")
    func malformed() {
        #expect(RequestTarget("/c/%") == nil)
        #expect(RequestTarget("/c/%4") == nil)
        #expect(RequestTarget("/c/%zz") == nil)
        #expect(RequestTarget("/c/%C3") == nil)
        #expect(RequestTarget("/c/x?a=%ff") == nil)
        #expect(RequestTarget("http://evil.example/") == nil)
    }
}
