-- Runs one whole-script example of a docs page on the virtual clock, for
-- DocsExamplesTests: the script named by CDSCRIPT_DOC_EXAMPLE is loaded as
-- `cdscript run` would load it, then every countdown it started runs to its end.
it("runs to its end without an error", function()
  load_script(assert(os.getenv("CDSCRIPT_DOC_EXAMPLE"), "CDSCRIPT_DOC_EXAMPLE is not set"))
  clock.run_all{ limit = 1000000 }
end)
