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
/// (`--help`, `--name=value`, `--`, a misspelt or repeated option, a format
/// that does not parse) goes to ArgumentParser as
/// before, which reads it or says what is wrong. StatusPlainWordsTests reads many
/// calls both ways and fails when the two requests differ, so an option added to
/// `status` or a changed default cannot go unnoticed.
extension StatusRequest {
    /// Sets the option `word` (one of those read here) to `value`: false for a
    /// value it does not take (ArgumentParser then says what is wrong), nil for
    /// a word that is not one of them. A switch, where a dictionary of setters
    /// cost every call a scan of the binary's conformances (0.26 million
    /// instructions, 8% of a call) to instantiate its type.
    private static func setPlainOption(_ word: String, _ value: String, in request: inout StatusRequest) -> Bool? {
        switch word {
        case "--state-dir": request.stateDir = value
        case "--store": request.store = value
        case "--redis-cacert": request.tls.caFile = value
        case "--redis-cacert-dir": request.tls.caDirectory = value
        case "--redis-cert": request.tls.certificateFile = value
        case "--redis-key": request.tls.keyFile = value
        case "--redis-sni": request.tls.serverName = value
        case "--format": request.format = value
        case "--separator": request.separator = value
        case "--for":
            guard let destination = StatusDestination(rawValue: value) else { return false }
            request.destination = destination
        default: return nil
        }
        return true
    }

    /// The request for plain words (see above), its format checked; nil for anything else.
    /// Its options may also come before `status` (`cdscript --state-dir DIR status
    /// ID`), where they mean the same (LeadingOptions): such a call went through
    /// ArgumentParser, 18.5 million instructions where this takes 1.4.
    public static func plainWords(_ arguments: [String]) -> StatusRequest? {
        var request = StatusRequest()
        var given: [String] = []
        var named = false
        var rest = arguments[...]
        while let word = rest.popFirst() {
            guard !word.hasPrefix("-") else {
                guard !given.contains(word), let value = rest.popFirst(), !value.hasPrefix("-"),
                      setPlainOption(word, value, in: &request) == true else { return nil }
                given.append(word)
                continue
            }
            if named {
                request.ids.append(word)
            } else {
                // The first word that is not an option's is the command's name.
                guard word == commandName else { return nil }
                named = true
            }
        }
        guard named, (try? StatusFormat(request.format)) != nil else { return nil }
        return request
    }
}
