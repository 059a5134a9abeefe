-- `cdscript test`'s prelude, the part after test_plugins.lua: `process`, what happens to real processes, on the
-- virtual clock: another process running a script or following a stored countdown, kill -9 and
-- a new start, SIGSTOP and SIGCONT, a reboot. The test's own state is the first process; every
-- process shares the test's clock and store, and each sees the others' changes to the store at once.
do
  local Process = {}
  Process.__index = Process
  Process.__name = "process"

  -- The helpers, raising their errors at the test's line (level 2 of the caller) rather than here.
  local function helper(fn)
    return function(...)
      local r = table.pack(pcall(fn, ...))
      if not r[1] then
        local message = r[2]
        if type(message) == "string" then message = message:gsub("^%(cdscript test%):%d+: ", "") end
        -- The first caller outside this prelude: the test's line.
        local level = 2
        while true do
          local info = debug.getinfo(level, "S")
          if not info or info.short_src ~= PRELUDE then break end
          level = level + 1
        end
        error(message, level)
      end
      return table.unpack(r, 2, r.n)
    end
  end
  local P = {}
  for _, name in ipairs({ "start", "kill", "suspend", "resume", "state", "run", "printed", "recorded", "reboot", "stored" }) do
    P[name] = helper(H["process_" .. name])
  end

  local function self_check(p, method)
    if getmetatable(p) ~= Process then
      error("process:" .. method .. ": call it with ':' on a process (p:" .. method .. "(...))", 3)
    end
  end

  local function script_path(path, fn)
    if type(path) ~= "string" then error(fn .. ": expected a path string, got " .. type(path), 3) end
    local f = io.open(path, "r")
    if f then
      f:close()
      return path
    end
    if not path:match("^/") then
      local beside = test_dir .. "/" .. path
      f = io.open(beside, "r")
      if f then
        f:close()
        return beside
      end
    end
    error(fn .. ": cannot read script " .. path, 3)
  end

  local function strings(fn, ...)
    local list = {}
    for i = 1, select("#", ...) do
      local v = select(i, ...)
      if type(v) ~= "string" and type(v) ~= "number" then
        error(fn .. ": script arguments are strings (or numbers), got " .. type(v) .. " as argument " .. i, 3)
      end
      list[i] = tostring(v)
    end
    return list
  end

  local function new(path, source, name, args)
    return setmetatable({ number = P.start(path, source, name, args),
      path = path, source = source, name = name, args = args }, Process)
  end

  -- A process following one stored countdown, as a second terminal would: its ticks every
  -- `every` seconds (default the stored interval).
  local FOLLOWER = "local id, every = ... " ..
    "local h, why = countdown.fetch(id, { every = tonumber(every), on_tick = function() end }) " ..
    "if not h then error('process.follow: the countdown ' .. string.format('%q', id) .. ' is ' .. why, 0) end"

  process = {}

  -- Starts the script at `path` (read as load_script reads it) as another process, with `...`
  -- as its arguments (`arg`); returns the process once its main chunk has run.
  function process.start(path, ...)
    return new(script_path(path, "process.start"), nil, path, strings("process.start", ...))
  end

  -- A process that fetches the stored countdown `id` and follows it.
  function process.follow(id, every)
    if type(id) ~= "string" then error("process.follow: expected an id string, got " .. type(id), 2) end
    if every ~= nil and type(every) ~= "number" then error("process.follow: 'every' is a number of seconds, got " .. type(every), 2) end
    return new(nil, FOLLOWER, "follow " .. id, { id, every and tostring(every) or nil })
  end

  -- The machine reboots after `seconds` down: every process is killed (this one's countdowns
  -- stop, silently), the boot id changes and the wall clock moves on by `seconds`.
  function process.reboot(seconds)
    P.reboot(seconds or 0)
  end

  -- The test's stored countdowns as `cdscript list --json` shows them now: a list of
  -- {id =, state =, kind =, remaining =, total =, every =, deadline =, overtime =, title =, actions =},
  -- ordered by id; a field the listing writes as null is absent.
  function process.stored()
    return P.stored()
  end

  function Process:kill() self_check(self, "kill") P.kill(self.number) return self end
  function Process:suspend() self_check(self, "suspend") P.suspend(self.number) return self end
  function Process:resume() self_check(self, "resume") P.resume(self.number) return self end
  function Process:state() self_check(self, "state") return P.state(self.number) end

  -- kill -9, then the same script with the same arguments in a new process, which `self` now is.
  function Process:restart()
    self_check(self, "restart")
    if P.state(self.number) ~= "killed" then P.kill(self.number) end
    self.number = P.start(self.path, self.source, self.name, self.args)
    return self
  end

  -- Runs Lua code in the process; returns what it returns (nil, booleans, numbers, strings and
  -- tables of them pass between processes; so do the arguments).
  function Process:run(code, ...)
    self_check(self, "run")
    return P.run(self.number, code, ...)
  end

  function Process:printed() self_check(self, "printed") return P.printed(self.number) end
  -- { {id =, remaining =, missed =, time = clock.now()}, ... }: every tick of its countdowns.
  function Process:ticks() self_check(self, "ticks") return P.recorded(self.number, "ticks") end
  -- { {id =, reason = "finished" | "cancelled", time =}, ... }: every end.
  function Process:ends() self_check(self, "ends") return P.recorded(self.number, "ends") end

  -- Its countdown `id`, seen and controlled from the test as its handle there: r:remaining()
  -- and r:state() (nil once it has no active countdown of that id), r:append(s), r:pause(),
  -- r:resume(), r:cancel() (as a key or a script of that process would call them).
  local Remote = {}
  Remote.__index = Remote
  Remote.__name = "remote countdown"
  local CALL = "local id, what, s = ... local h = countdown.get(id) " ..
    "if not h then if what == 'remaining' or what == 'state' then return nil end " ..
    "error('no active countdown ' .. string.format('%q', id) .. ' in this process', 0) end " ..
    "local r = h[what](h, s) if what == 'append' then return true end return r"
  for _, what in ipairs({ "remaining", "state", "append", "pause", "resume", "cancel" }) do
    Remote[what] = function(r, seconds)
      if getmetatable(r) ~= Remote then error("countdown:" .. what .. ": call it with ':'", 2) end
      return P.run(r.process.number, CALL, r.id, what, seconds)
    end
  end

  function Process:countdown(id)
    self_check(self, "countdown")
    if type(id) ~= "string" then error("process:countdown: expected an id string, got " .. type(id), 2) end
    return setmetatable({ process = self, id = id }, Remote)
  end

  -- Its view, as view.screen(), view.get(id) and view.press(key) show and drive it there.
  function Process:screen() self_check(self, "screen") return P.run(self.number, "return view.screen()") end
  -- Without its functions (on_press), which stay in that process.
  local GET = "local e = view.get(...) if e then for k, v in pairs(e) do if type(v) == 'function' then e[k] = nil end end end return e"
  function Process:get(id) self_check(self, "get") return P.run(self.number, GET, id) end
  function Process:press(key) self_check(self, "press") return P.run(self.number, "return view.press(...)", key) end
end
