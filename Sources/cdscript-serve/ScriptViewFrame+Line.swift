import Foundation
import ScriptViewModel

/// A frame as it arrives from the run, one line of the view's JSON: the keys a
/// click may press are read back out of its buttons.
extension ScriptViewFrame {
    init?(line: String) {
        guard let view = try? JSONDecoder().decode(Buttons.self, from: Data(line.utf8)) else { return nil }
        var keys: [String: Bool] = [:]
        for element in view.elements where element.kind == "button" {
            if let key = element.key { keys[key] = element.enabled ?? false }
        }
        self.init(json: line, buttonKeys: keys)
    }

    private struct Buttons: Decodable {
        struct Element: Decodable {
            var kind: String
            var key: String?
            var enabled: Bool?
        }
        var elements: [Element]
    }
}
