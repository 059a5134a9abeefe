import cdscript
import StoreViews

// cdscript-serve: the command line with the web server linked in. `cdscript serve`
// hands its process over to it (same arguments), and `run --serve` starts it with
// `--script-view` first to serve the script's page (ScriptViewServer).
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == ScriptViewServer.mode {
    ScriptViewServer.main(Array(arguments.dropFirst()))
}
ServeWeb.start = { try WebServing.start($0) }
CommandLineEntry.main()
