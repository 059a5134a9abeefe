-- Pomodoro rounds: `cdscript timer SPEC --then DURATION --rounds N` (timer.lua on
-- the built-in `sequence` plugin), and the plugin itself, on the virtual clock.

local TIMER = "../Sources/cdscript/BuiltinScripts/timer.lua"

-- The stored countdown `id`, as `cdscript list --json` shows it (process.stored() is that list).
local function stored(id)
  for _, c in ipairs(process.stored()) do
    if c.id == id then return c end
  end
end

describe("cdscript timer 25m --then 5m --rounds 4", function()
  it("runs work and break in turn, each named with its round, and ends after the fourth work", function()
    load_script(TIMER, "25m", "--then", "5m", "--rounds", "4", "--every", "60")
    local seen = { view.get("title").text .. " " .. view.get("clock").text }
    for _ = 1, 6 do
      clock.advance(view.get("title").text:match("^work") and 1500 or 300)
      seen[#seen + 1] = view.get("title").text .. " " .. view.get("clock").text
    end
    expect(seen).to_equal({ "work 1/4 25:00", "break 1/4 5:00", "work 2/4 25:00", "break 2/4 5:00",
      "work 3/4 25:00", "break 3/4 5:00", "work 4/4 25:00" })
    expect(pcall(view.get, "status")).to_be(false)
    clock.advance(1499)
    expect(pcall(view.get, "status")).to_be(false)
    clock.advance(1)
    expect(view.get("status").text).to_be("Time's up")
    expect(countdown.get("timer")).to_be(nil)
  end)

  it("puts --title before the phase's name", function()
    load_script(TIMER, "25m", "--then", "5m", "--rounds", "2", "--title", "Thesis", "--every", "60")
    expect(view.get("title").text).to_be("Thesis · work 1/2")
    clock.advance(1500)
    expect(view.get("title").text).to_be("Thesis · break 1/2")
  end)

  it("runs --exec once at every phase's end", function()
    load_script(TIMER, "2m", "--then", "1m", "--rounds", "3", "--every", "60", "--exec", "true")
    local counts = {}
    for _, step in ipairs({ 120, 60, 120, 60, 120 }) do
      clock.advance(step)
      counts[#counts + 1] = #plugin_calls("exec")
    end
    expect(counts).to_equal({ 1, 2, 3, 4, 5 })
  end)

  it("with --id stores each phase with its name as the title, and its handle reads it", function()
    load_script(TIMER, "25m", "--then", "5m", "--rounds", "2", "--id", "pomo", "--every", "60")
    expect(stored("pomo").title).to_be("work 1/2")
    expect(stored("pomo").total).to_be(1500)
    expect(countdown.get("pomo").title).to_be("work 1/2")
    clock.advance(1500)
    expect(stored("pomo").title).to_be("break 1/2")
    expect(stored("pomo").total).to_be(300)
    expect(countdown.get("pomo").title).to_be("break 1/2")
    clock.advance(300)
    expect(stored("pomo").title).to_be("work 2/2")
  end)

  it("killed in its second work and started again, goes on in that work with the time left", function()
    local p = process.start(TIMER, "25m", "--then", "5m", "--rounds", "4", "--id", "pomo", "--every", "60")
    clock.advance(1500 + 300 + 600)
    expect(p:get("title").text).to_be("work 2/4")
    p:kill()
    clock.advance(120)
    p:restart()
    expect(p:get("title").text).to_be("work 2/4")
    expect(p:get("clock").text).to_be("13:00")
    expect(p:countdown("pomo"):remaining()).to_be_near(780, 0.05)
    clock.advance(780)
    expect(p:get("title").text).to_be("break 2/4")
    expect(stored("pomo").title).to_be("break 2/4")
  end)

  it("a second terminal with the same command follows the phases: one countdown, the same phase in both", function()
    local a = process.start(TIMER, "25m", "--then", "5m", "--rounds", "2", "--id", "pomo", "--every", "60")
    clock.advance(60)
    local b = process.start(TIMER, "25m", "--then", "5m", "--rounds", "2", "--id", "pomo", "--every", "60")
    expect(b:get("clock").text).to_be("24:00")
    clock.advance(1440)
    expect(a:get("title").text).to_be("break 1/2")
    expect(b:get("title").text).to_be("break 1/2")
    expect(a:countdown("pomo"):remaining()).to_be_near(b:countdown("pomo"):remaining(), 0.05)
    clock.advance(300)
    expect(a:get("title").text).to_be("work 2/2")
    expect(b:get("title").text).to_be("work 2/2")
    expect(stored("pomo").title).to_be("work 2/2")
  end)

  it("refuses --rounds without --then, rounds below 1, a clock time and --overtime", function()
    expect(function() load_script(TIMER, "25m", "--rounds", "4") end).to_throw("--then and --rounds go together")
    expect(function() load_script(TIMER, "25m", "--then", "5m") end).to_throw("--then and --rounds go together")
    expect(function() load_script(TIMER, "25m", "--then", "5m", "--rounds", "0") end).to_throw("--rounds must be a whole number, 1 or more")
    expect(function() load_script(TIMER, "25m", "--then", "5m", "--rounds", "2.5") end).to_throw("--rounds must be a whole number")
    expect(function() load_script(TIMER, "25m", "--then", "0", "--rounds", "2") end).to_throw("--then must be a duration")
    expect(function() load_script(TIMER, "20:00", "--then", "5m", "--rounds", "2") end).to_throw("--rounds needs a duration SPEC")
    expect(function() load_script(TIMER, "25m", "--then", "5m", "--rounds", "2", "--overtime") end).to_throw("--overtime with --rounds")
  end)
end)

describe('use("sequence")', function()
  local function phases() return { { name = "inhale", seconds = 4 }, { name = "hold", seconds = "7s" }, { name = "exhale", seconds = 8 } } end

  it("tells each phase as it begins, and each end with its phase; the last round ends with its first phase", function()
    local begun, ended = {}, {}
    local s = use("sequence", { id = "breath", rounds = 2, phases = phases(),
      on_phase = function(p) begun[#begun + 1] = p.title end,
      on_done = function(t, reason, p) ended[#ended + 1] = p.title .. " " .. reason end })
    local started = clock.now()
    s.start()
    clock.run_all()
    expect(begun).to_equal({ "inhale 1/2", "hold 1/2", "exhale 1/2", "inhale 2/2" })
    expect(ended).to_equal({ "inhale 1/2 finished", "hold 1/2 finished", "exhale 1/2 finished", "inhale 2/2 finished" })
    expect(clock.now() - started).to_be(4 + 7 + 8 + 4)
  end)

  it("runs the last round whole with full_last_round", function()
    local s = use("sequence", { id = "breath", rounds = 2, phases = phases(), full_last_round = true })
    local started = clock.now()
    s.start()
    expect(#s.phases()).to_be(6)
    clock.run_all()
    expect(clock.now() - started).to_be(2 * (4 + 7 + 8))
    expect(s.phase().title).to_be("exhale 2/2")
    expect(s.phase().last).to_be(true)
  end)

  it("gives on_tick the phase with the tick", function()
    local shown = {}
    use("sequence", { id = "s", phases = { { name = "a", seconds = 2 }, { name = "b", seconds = 1 } }, rounds = 2,
      on_tick = function(t, p) shown[#shown + 1] = ("%s%d"):format(p.name, t.remaining) end }).start()
    clock.run_all()
    expect(shown).to_equal({ "a2", "a1", "b1", "a2", "a1" })
  end)

  it("refuses what it cannot run, naming the option", function()
    expect(function() use("sequence", { phases = phases() }) end).to_throw("'id' is required")
    expect(function() use("sequence", { id = "x", phases = {} }) end).to_throw("'phases' must be a list")
    expect(function() use("sequence", { id = "x", phases = phases(), rounds = 0 }) end).to_throw("'rounds' must be a whole number")
    expect(function() use("sequence", { id = "x", phases = { { name = "a", seconds = -1 } } }) end).to_throw("phases[1].seconds must be a duration")
    expect(function() use("sequence", { id = "x", phases = phases(), colour = "red" }) end).to_throw("unknown option 'colour'")
  end)
end)

describe("h.title", function()
  it("reads a stored countdown's title, as started and as fetched; nil without one", function()
    local h = countdown.start{ id = "tea", seconds = 60, persist = true, title = "Green tea" }
    expect(h.title).to_be("Green tea")
    expect(countdown.start{ id = "plain", seconds = 60 }.title).to_be(nil)
    local other = process.follow("tea")
    expect(other:run("return countdown.get('tea').title")).to_be("Green tea")
  end)
end)
