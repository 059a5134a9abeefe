import CountdownCore

extension StoreBinding {
    /// Before a take-off that ends the countdown here: the stored copy loses the
    /// same time and, left with nothing, is finished, so that every process that
    /// follows it ends it too. Unlike `change`, a record that is gone or
    /// finished in the store stays so: an ending is no reason to store it again.
    func takeOffThatEnds(_ key: CountdownKey, size: Nanoseconds) {
        guard let id = persistentID(key) else { return }
        let now = currentInstant()
        withStore { store in
            try store.modify(id: id) { record in record?.append(-size, at: now) }
        }
    }
}
