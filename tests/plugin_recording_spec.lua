-- In tests, plugins with side effects act on nothing real: exec and notify run
-- no command, log and outfile write no file, bell rings nothing. plugin_calls(name)
-- lists what they would have done in this test ({plugin, argv} for exec and notify,
-- {plugin, path, line} for log and outfile, {plugin} for bell); plugin_calls() lists all.

describe("plugins in tests", function()
  local marker = os.tmpname()
  os.remove(marker)

  it("exec runs no command and records it", function()
    use("exec", { command = { "touch", marker, "{id}" } })
    countdown.start{ id = "tea", seconds = 1 }
    clock.advance(1)
    assert.is_nil(io.open(marker, "r"))
    assert.are.same({ { plugin = "exec", argv = { "touch", marker, "tea" } } }, plugin_calls("exec"))
  end)

  it("notify shows nothing and records the command it would run", function()
    use("notify", { title = "Tea", message = "ready", program = "no-such-notifier" })
    countdown.start{ seconds = 1 }
    clock.advance(1)
    assert.are.same({ { plugin = "notify", argv = { "no-such-notifier", "Tea", "ready" } } }, plugin_calls("notify"))
  end)

  it("log writes to memory, not to its file", function()
    use("log", { path = marker, ticks = false })
    countdown.start{ id = "a", seconds = 1 }
    clock.advance(1)
    assert.is_nil(io.open(marker, "r"))
    local calls = plugin_calls("log")
    assert.are.equal(2, #calls)
    assert.are.equal(marker, calls[1].path)
    assert.matches('"event":"start"', calls[1].line)
    assert.matches('"event":"done"', calls[2].line)
    assert.matches('"time":"2027%-01%-01T00:00:03.000Z"', calls[2].line) -- the file's clock at the time
  end)

  it("outfile writes no file and records each text it would have written, replaced or added", function()
    local out = use("outfile", { path = marker })
    out.write("24:59")
    out.write("24:59") -- the same text again writes nothing
    out.write("24:58")
    out.append("lap 1")
    assert.is_nil(io.open(marker, "r"))
    assert.are.same({
      { plugin = "outfile", path = marker, line = "24:59" },
      { plugin = "outfile", path = marker, line = "24:58" },
      { plugin = "outfile", path = marker, line = "lap 1" },
    }, plugin_calls("outfile"))
  end)

  it("bell rings nothing and counts", function()
    use("bell")
    countdown.start{ seconds = 1 }
    countdown.start{ seconds = 2 }
    clock.run_all()
    assert.are.equal(2, #plugin_calls("bell"))
    assert.are.equal(2, #plugin_calls())
  end)

  it("each test starts with no calls", function()
    assert.are.same({}, plugin_calls())
  end)
end)
