import Foundation
import Testing

/// Every example of README.md and docs/*.md runs with the binary under test (the markers
/// that say how are documented on `DocsExamples`), so that a page cannot rot.
@Suite("The examples of the README and the docs pages run as shown")
struct DocsExamplesTests {
    @Test("every example of the page runs, passes or prints what the page shows", arguments: DocsExamples.pages)
    func pageExamplesWork(page: String) throws {
        let problems = try DocsExamples.problems(ofPage: page)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n\n"))")
    }

    @Test("every link between the pages leads to a page and a heading that exist", arguments: DocsExamples.pages)
    func linksResolve(page: String) throws {
        let broken = try DocsExamples.brokenLinks(ofPage: page)
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
    }

    @Test("the pages have examples that run: whole scripts, specs and commands")
    func pagesHaveRunnableExamples() throws {
        var kinds: [String: Int] = [:]
        for page in DocsExamples.pages {
            let markdown = try String(contentsOf: DocsExamples.root.appendingPathComponent(page), encoding: .utf8)
            for block in DocsExamples.blocks(of: markdown) where block.language == "lua" || block.language == "console" {
                kinds["\(block.language) \(block.words.filter { !$0.hasPrefix("file=") }.joined(separator: " "))", default: 0] += 1
            }
        }
        for kind in ["lua ", "lua spec", "console run"] { #expect(kinds[kind, default: 0] > 0, "no ```\(kind) block in \(kinds)") }
    }

    @Test("a broken script, a failing spec, a fragment that does not compile, a wrong output and a mistyped marker are each a problem")
    func brokenExamplesAreCaught() throws {
        let page = DocsExamples.root.appendingPathComponent("Tests/EndToEndTests/Fixtures/docs/broken_examples.md").path
        let problems = try DocsExamples.problems(ofPage: page)
        #expect(problems.count == 5, "\(problems.joined(separator: "\n\n"))")
        for (line, what) in [(5, "the script fails"), (11, "the spec fails"), (17, "does not compile"), (23, "prints"), (30, "unknown word 'fragmnet'")] {
            #expect(problems.contains { $0.hasPrefix("broken_examples.md:\(line): ") && $0.contains(what) }, "\(what) at line \(line) in \(problems)")
        }
    }

    @Test("a link to a page or a heading that does not exist is broken; one that exists is not")
    func brokenLinksAreCaught() throws {
        let broken = try DocsExamples.brokenLinks(ofPage: "Tests/EndToEndTests/Fixtures/docs/broken_examples.md")
        #expect(broken.count == 3, "\(broken)")
        for target in ["missing.md", "#no-such-heading", "working_examples.md#no-such-heading"] {
            #expect(broken.contains { $0.hasSuffix(" for \(target)") }, "\(target) in \(broken)")
        }
    }

    @Test("a module written by one block is found by the script and the spec after it; a fragment is only compiled")
    func workingExamplesPass() throws {
        let page = DocsExamples.root.appendingPathComponent("Tests/EndToEndTests/Fixtures/docs/working_examples.md").path
        let problems = try DocsExamples.problems(ofPage: page)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n\n"))")
    }
}
