import CountdownCore

/// The store is a regular file, or nothing yet. Anything else at its path is
/// refused before it is opened, named for what it is and left as it is: SQLite
/// (and the header check) would open a FIFO and wait for a writer forever, so
/// `list`, `status`, `check` and `append` hung on one; a socket or a device is no
/// database either, and a folder is no file.
extension SQLiteCountdownStore {
    /// Throws `.unavailable` when something other than a regular file is at the
    /// store's path; does nothing when nothing is there (the caller creates the
    /// file, or reads no countdowns) or `stat` cannot tell (the open says why).
    func refuseUnlessRegularFile() throws(StoreError) {
        guard let kind = FileKind.notAFile(at: path) else { return }
        throw StoreError(.unavailable, path: path, reason: "it is \(kind); it was left as it is")
    }
}
