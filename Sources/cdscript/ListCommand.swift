import ArgumentParser
import StoreViews
import CommandLineWords

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show the stored countdowns: id, state, remaining time, deadline."
    )

    @OptionGroup var storeOptions: StoreOptions

    @Flag(help: "Print the countdowns as a JSON array.")
    var json = false

    func run() throws {
        try exitingAsCommand { try ListingWriter.list(try storeOptions.openShared(), json: json) }
    }
}
