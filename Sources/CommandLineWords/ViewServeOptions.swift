import ArgumentParser
import ScriptRunning

/// `run SCRIPT --serve HOST:PORT`: the script's view in a browser as well
/// (docs/serve.md, "A script's view in the browser").
public struct ViewServeOptions: ParsableArguments {
    public init() {}

    @Option(name: .customLong("serve"), help: ArgumentHelp("Show the script's view in a browser too, at http://HOST:PORT/ (port 0: any free port, said on start): its labels, big digits, bars and buttons, live; a click presses the button's key (with the control token). With stdout a terminal the terminal view runs as well; otherwise the browser is the only view, and the run goes on until the view is closed or a signal ends it.", valueName: "HOST:PORT"))
    var serve: String?

    @Option(name: .customLong("token-file"), help: ArgumentHelp("With --serve: the control token's file (default: serve-token in the state folder, shared with `cdscript serve`; made with mode 0600, and the token printed, on first start).", valueName: "PATH"), completion: .file())
    public var tokenFile: String?

    @Option(name: .customLong("allow-host"), help: ArgumentHelp("With --serve: a name the page is reached by (a Host header accepted) besides the address and localhost. Repeatable.", valueName: "NAME"))
    public var allowedHosts: [String] = []

    public func validate() throws {
        if let serve { _ = try ListenAddress.parse(serve, option: "--serve") }
        if serve == nil, tokenFile != nil || !allowedHosts.isEmpty {
            throw ValidationError("--token-file and --allow-host go with --serve HOST:PORT")
        }
    }

    /// The page's settings, with the program that serves it (nil without --serve).
    public func settings(stateDir: String?) -> ViewServeSettings? {
        guard let serve else { return nil }
        let program = ServeProgram.path
        return ViewServeSettings(address: serve, tokenFile: tokenFile, allowedHosts: allowedHosts, stateDir: stateDir,
                                 program: program, programProblem: ServeProgram.unusable(program))
    }
}
