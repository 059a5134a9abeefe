import Foundation

/// The kernel's id of the current boot. Two readings agree exactly when no reboot
/// happened between them, which tells a store whether its boot-clock deadlines still hold.
public enum BootID {
    public static let path = "/proc/sys/kernel/random/boot_id"

    /// The current boot's id, or nil where the kernel does not provide one
    /// (then stored countdowns always resume by the wall clock).
    public static func current(path: String = BootID.path) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let id = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return id.isEmpty ? nil : id
    }
}
