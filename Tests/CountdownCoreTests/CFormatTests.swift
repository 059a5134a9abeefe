import CountdownCore
import Foundation
import Testing

@Suite("CFormat writes what Foundation's String(format:) writes, for the formats cdscript uses")
struct CFormatTests {
    @Test("Lua's %.14g gives the same digits as String(format:)", arguments: [0.1, 1.0 / 3, -2.5, 1e100, 1e-300, 123456789012345.6, 0.0, -0.0, .infinity, -.infinity, .nan])
    func luaNumbers(_ number: Double) {
        #expect(CFormat.string("%.14g", number) == String(format: "%.14g", number))
    }

    @Test("a coverage row and a test time come out as before")
    func reportFormats() {
        #expect(CFormat.string("%4ld/%-4ld %6.2f%%", 3, 40, 7.5) == "   3/40     7.50%")
        #expect(CFormat.string("%4ld/%-4ld %6.2f%%", 12345, 7, 100.0) == String(format: "%4d/%-4d %6.2f%%", 12345, 7, 100.0))
        #expect(CFormat.string("(%.2f ms)", 0.4149) == "(0.41 ms)")
        #expect(CFormat.string("(%.2f ms total)", 1234.567) == String(format: "(%.2f ms total)", 1234.567))
    }

    @Test("text longer than the first buffer is written whole")
    func longText() {
        let wide = CFormat.string("%300.1f|%ld", 2.0, 7)
        #expect(wide == String(repeating: " ", count: 297) + "2.0|7")
    }
}
