import ArgumentParser
import StoreViews
import CommandLineWords

struct ClearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear",
        abstract: "Remove the stored countdowns that have finished, and any that cannot be read."
    )

    @OptionGroup var storeOptions: StoreOptions

    func run() throws {
        try exitingAsCommand { try StoreRemoval.clear(try storeOptions.openShared()) }
    }
}
