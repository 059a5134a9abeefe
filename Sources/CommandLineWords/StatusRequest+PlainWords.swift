import StoreViews

/// `cdscript status` runs every second under a status bar, and ArgumentParser's
/// parse was a third of its CPU (about 3 of 10 ms, release build): it builds the
/// whole command tree and reflects on each command's properties, and every
/// generic property-wrapper type it meets is resolved by name, which scans all
/// protocol conformances of the statically linked runtime and Foundation.
///
/// Words of the plain shape `status [--state-dir DIR] [--store URL]
/// [--redis-cacert FILE] (and the other --redis-* options that take a value) [--format TEXT] [--separator TEXT] [--for text|tmux] [ID...]`, in any order, each option at most
/// once, and no value or id that starts with "-", are read here into a
/// `StatusRequest`, without touching ArgumentParser's types. Anything else
/// (`--help`, `--name=value`, `--`, a misspelt or repeated option, an option
/// before `status`, a format that does not parse) goes to ArgumentParser as
/// before, which reads it or says what is wrong. StatusPlainWordsTests reads many
/// calls both ways and fails when the two requests differ, so an option added to
/// `status` or a changed default cannot go unnoticed.
extension StatusRequest {
    /// The options read here, each with what it sets; false for a value it does
    /// not take (ArgumentParser then says what is wrong).
    private static let plainOptions: [String: @Sendable (inout StatusRequest, String) -> Bool] = [
        "--state-dir": { $0.stateDir = $1; return true },
        "--store": { $0.store = $1; return true },
        "--redis-cacert": { $0.tls.caFile = $1; return true },
        "--redis-cacert-dir": { $0.tls.caDirectory = $1; return true },
        "--redis-cert": { $0.tls.certificateFile = $1; return true },
        "--redis-key": { $0.tls.keyFile = $1; return true },
        "--redis-sni": { $0.tls.serverName = $1; return true },
        "--format": { $0.format = $1; return true },
        "--separator": { $0.separator = $1; return true },
        "--for": { request, value in
            guard let destination = StatusDestination(rawValue: value) else { return false }
            request.destination = destination
            return true
        },
    ]

    /// The request for plain words (see above), its format checked; nil for anything else.
    public static func plainWords(_ arguments: [String]) -> StatusRequest? {
        guard arguments.first == commandName else { return nil }
        var request = StatusRequest()
        var given: Set<String> = []
        var rest = arguments.dropFirst()
        while let word = rest.popFirst() {
            guard !word.hasPrefix("-") else {
                guard let option = plainOptions[word], given.insert(word).inserted,
                      let value = rest.popFirst(), !value.hasPrefix("-"), option(&request, value) else { return nil }
                continue
            }
            request.ids.append(word)
        }
        guard (try? StatusFormat(request.format)) != nil else { return nil }
        return request
    }
}
