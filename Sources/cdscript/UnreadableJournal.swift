import ArgumentParser
import StoreViews

/// A Redis outage journal that could not be read was set aside during this
/// command (said on stderr where it was found, with the changes it may hold):
/// whatever else the command did, it exits 6, as for a store it could not use,
/// so that a script around it learns that queued changes were not sent.
enum UnreadableJournal {
    nonisolated(unsafe) static var found = false

    /// Throws exit 6 when a journal was set aside.
    static func check() throws {
        if found { throw ExitCode(ExitStatus.storeError.rawValue) }
    }
}
