import Testing

/// The table of countdowns by id (ids.c) against a model kept in Lua: thousands of
/// ids, short and long (interned by Lua or not), with NUL bytes, started, replaced,
/// cancelled, appended and ended in a random order. After each step,
/// `countdown.get` must find exactly what the model says.
@Suite("Countdowns by id: the id table keeps up with any order of starts and ends")
struct IDTableTests {
    /// The script takes its seed as argument; `run_steps(n)` does n random steps,
    /// then prints one line per id where `countdown.get` and the model disagree.
    static let script = """
        local seed = tonumber(arg[1])
        local function random(n)                      -- an LCG: the same steps for a seed
          seed = (seed * 1103515245 + 12345) % 2147483648
          return seed % n + 1
        end
        local ids = {}
        for k = 1, 300 do
          local kind = k % 3
          -- Short ids are interned by Lua; those over 40 bytes are not, so equal ids
          -- may be two strings at two addresses.
          if kind == 0 then ids[k] = "c" .. k
          elseif kind == 1 then ids[k] = string.rep("long-", 10) .. k
          else ids[k] = "\\0" .. k .. "\\255" end
        end
        local model, handles = {}, {}
        local function fresh(id)                       -- a long id rebuilt: same bytes, new string
          return #id > 40 and (id:sub(1, 20) .. id:sub(21)) or id
        end
        local function start(id)
          local h
          h = countdown.start{ id = fresh(id), seconds = random(50) / 10,
            on_done = function() if model[id] == h then model[id] = nil end end }
          model[id] = h
          handles[#handles + 1] = h
        end
        local wrong = 0
        local function check(step)
          for _, id in ipairs(ids) do
            if countdown.get(fresh(id)) ~= model[id] and wrong < 5 then  -- the first few say enough
              wrong = wrong + 1
              print("step " .. step .. ": " .. ("%q"):format(id))
            end
          end
        end
        local done = 0
        function run_steps(n)                          -- the clock moves between calls
          for _ = 1, n do
            done = done + 1
            local op = random(10)
            if op <= 6 then
              start(ids[random(#ids)])
            elseif op <= 8 and #handles > 0 then
              handles[random(#handles)]:cancel()       -- its on_done updates the model
            elseif #handles > 0 then
              local h = handles[random(#handles)]
              if h:state() ~= "running" then
                h:append(random(30) / 10)              -- restarts it under its id, replacing any other
                model[h.id] = h
              end
            end
          end
          check(done)
        end
        """

    @Test("starts, replacements, cancels, restarts and ends agree with the model", arguments: [1, 2, 3, 4, 5])
    func agreesWithModel(seed: Int) {
        let bed = LuaTestbed()
        bed.mustRun(Self.script, arguments: ["ids.lua", String(seed)])
        for round in 0..<60 {
            bed.mustRun("run_steps(50)")
            // Ends come between the rounds: none, some, or most of the running ones.
            bed.advance(to: bed.now + Double(round % 4) * 0.7)
        }
        try? bed.runAll()
        bed.mustRun("run_steps(0)")
        #expect(bed.lines == [])
        #expect(bed.eval("#countdown.list()") == "0")
        #expect(bed.errors.isEmpty)
    }
}
