/// The kernel's id of the current boot. Two readings agree exactly when no reboot
/// happened between them, which tells a store whether its boot-clock deadlines still hold.
public enum BootID {
    public static let path = "/proc/sys/kernel/random/boot_id"

    /// This boot's id, or nil where the kernel does not provide one (then stored
    /// countdowns always resume by the wall clock). Read once per process: a
    /// reboot ends the process, so the id cannot change under it.
    public static let current: String? = read(path: path)

    /// The boot id in the file at `path`, without the white space around it;
    /// nil when the file is missing or blank.
    public static func read(path: String) -> String? {
        guard let id = ProcFile.contents(of: path).map(ProcFile.trimmed), !id.isEmpty else { return nil }
        return id
    }
}
