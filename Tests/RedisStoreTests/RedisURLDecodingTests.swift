@testable import RedisStore
import Testing

@Suite("A URL's %XX sequences are decoded as the bytes they stand for, and left alone when malformed")
struct RedisURLDecodingTests {
    @Test("a sequence stands for its byte, in either case of hex digit; bytes of several make one character", arguments: [
        ("ca%20file.pem", "ca file.pem"), ("p%40ss%2fword%2F", "p@ss/word/"), ("%E2%8F%B3", "⏳"), ("plain", "plain"), ("", ""),
    ])
    func decoded(_ text: String, _ expected: String) {
        #expect(RedisURL.percentDecoded(text) == expected)
    }

    @Test("a % without two hex digits after it, or bytes that are not UTF-8, leave the text as it was", arguments: [
        "100%", "a%2", "%zz", "%FF", "%C3",
    ])
    func malformed(_ text: String) {
        #expect(RedisURL.percentDecoded(text) == text)
    }
}
