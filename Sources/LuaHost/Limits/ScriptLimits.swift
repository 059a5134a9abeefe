/// Limits for scripts the host did not write (see docs/hardening.md).
///
/// The memory cap and the instruction budget apply only while Lua code runs
/// inside a call the host made (the main chunk, a hook, a formatter); host
/// functions and the host's own setup are never refused memory, so a memory
/// error never has to unwind a Swift frame.
public struct ScriptLimits: Sendable, Equatable {
    /// Bytes the Lua state may hold; 0 for no cap.
    public var memoryLimit: Int
    /// Lua instructions one callback may run (counted in steps of 1000); 0 for no budget.
    public var instructionBudget: Int64
    /// Removes `io`, `os.execute`, `os.exit`, `os.remove`, `os.rename`, `os.tmpname`,
    /// `package.loadlib`, the C searchers and `debug`; refuses bytecode; reads files only
    /// in the script's folder and the plugin folders; limits `os.getenv` to an allow-list
    /// (docs/hardening.md, "What the sandbox promises").
    public var sandbox: Bool
    /// The longest string `string.rep` may build, in bytes (0: only Lua's own limit).
    public var stringRepLimit: Int

    public init(memoryLimit: Int = 0, instructionBudget: Int64 = 0, sandbox: Bool = false, stringRepLimit: Int = ScriptLimits.defaultStringRepLimit) {
        self.memoryLimit = memoryLimit
        self.instructionBudget = instructionBudget
        self.sandbox = sandbox
        self.stringRepLimit = stringRepLimit
    }

    /// No cap, no budget, no sandbox: what tests and benchmarks get unless they ask.
    public static let none = ScriptLimits()
    /// What `cdscript run` and `timer` use unless told otherwise: the memory cap and
    /// no instruction count. Their CPU-time limit per callback (set up by the command,
    /// not here) bounds runaway code instead, without tracing every instruction.
    public static let runDefaults = ScriptLimits(memoryLimit: defaultMemoryLimit)
    /// What a host without a CPU-time limit uses for code it did not write (listing
    /// plugins): the memory cap and the deterministic instruction budget.
    public static let countedDefaults = ScriptLimits(memoryLimit: defaultMemoryLimit, instructionBudget: defaultInstructionBudget)

    /// 512 MB.
    public static let defaultMemoryLimit = 512 * 1024 * 1024
    /// About a second or two of pure Lua on a current machine: generous for a hook.
    /// `run`, `timer` and `cdscript test` count only when asked (`--budget`); test
    /// stops a runaway test with its CPU-time limit instead.
    public static let defaultInstructionBudget: Int64 = 200_000_000
    /// 64 MB.
    public static let defaultStringRepLimit = 64 * 1024 * 1024
}
