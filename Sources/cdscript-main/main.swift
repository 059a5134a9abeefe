import cdscript

// The `cdscript` executable: the command line, without the web server
// (`serve` hands over to cdscript-serve; see ServeProgram).
CommandLineEntry.main()
