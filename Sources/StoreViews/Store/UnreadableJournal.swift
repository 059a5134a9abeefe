import CommandEnding

/// A Redis outage journal that could not be read was set aside during this
/// command (said on stderr where it was found, with the changes it may hold):
/// whatever else the command did, it exits 6, as for a store it could not use,
/// so that a script around it learns that queued changes were not sent.
/// The commands that open a store set `found` from `StoreLocation.open`'s
/// `journalSetAside`; the command line checks it once the command has run.
public enum UnreadableJournal {
    nonisolated(unsafe) public static var found = false

    /// Throws exit 6 (`CommandExit`) when a journal was set aside.
    public static func check() throws {
        if found { throw CommandExit(.storeError) }
    }
}
