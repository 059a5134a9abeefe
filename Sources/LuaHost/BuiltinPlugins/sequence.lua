local M = { description = "a sequence of countdowns under one id: phases (work, break) repeated for rounds, as a pomodoro" }

-- Taken now: a script may replace these globals later.
local countdown = countdown
local duration = countdown.duration
local math_type, pcall = math.type, pcall

--- local pomodoro = use("sequence", {
---   id = "study", rounds = 4,
---   phases = { { name = "work", seconds = "25m" }, { name = "break", seconds = "5m" } },
---   on_phase = function(phase) ... end,           -- a phase begins (or is continued)
---   on_tick = function(t, phase) ... end, on_done = function(t, reason, phase) ... end,
--- })
--- pomodoro.start()     -- the first phase, or (persist) the stored phase, continued
---
--- The phases run one after the other, round after round, under one id; each is a
--- countdown of its own, so each end is an end (`on_done`, a bell, an end action).
--- A phase is a table: name, round, rounds, index (in the whole sequence), count,
--- seconds, title ("work 2/4", or "TITLE · work 2/4" with `title`) and last.
--- The last round ends with its first phase (a pomodoro ends with work, not with a
--- break) unless `full_last_round = true`.
--- With `persist = true` each phase is stored with its title, so `cdscript list`,
--- `status` and the bars show the phase, and `start()` continues the stored phase
--- (read back from the title) in a new process; a process that follows the
--- sequence moves to the next phase another one has started, or starts it.
--- Other options: every, on_end_action, end_lease (each phase's, as countdown.start
--- takes them), keys (a `use("timer_keys")`: its keys act on the running phase).
function M.setup(options)
  check_options(options, { id = true, phases = true, rounds = true, full_last_round = true, title = true,
    persist = true, every = true, on_phase = true, on_tick = true, on_done = true, on_end_action = true,
    end_lease = true, keys = true })
  local id = options.id
  if id == nil then error("sequence: 'id' is required (one id for every phase)", 3) end
  local phases = options.phases
  if type(phases) ~= "table" or #phases == 0 then
    error("sequence: 'phases' must be a list of phases such as { {name = \"work\", seconds = \"25m\"} }, got " .. type(phases), 3)
  end
  local rounds = options.rounds or 1
  if math_type(rounds) ~= "integer" or rounds < 1 then
    error("sequence: 'rounds' must be a whole number, 1 or more, got " .. tostring(rounds), 3)
  end
  if options.title ~= nil and type(options.title) ~= "string" then
    error("sequence: 'title' must be a string, got " .. type(options.title), 3)
  end
  for _, name in ipairs({ "on_phase", "on_tick", "on_done" }) do
    if options[name] ~= nil and type(options[name]) ~= "function" then
      error("sequence: '" .. name .. "' must be a function, got " .. type(options[name]), 3)
    end
  end
  local kinds = {}
  for i, phase in ipairs(phases) do
    if type(phase) ~= "table" or type(phase.name) ~= "string" or phase.name == "" then
      error("sequence: phases[" .. i .. "] must be a table with a 'name' (text) and 'seconds', such as {name = \"work\", seconds = \"25m\"}", 3)
    end
    local ok, seconds = pcall(duration, phase.seconds)
    if not ok or type(seconds) ~= "number" or seconds <= 0 then
      error("sequence: phases[" .. i .. "].seconds must be a duration longer than 0 (such as 300 or \"5m\"), got " .. tostring(phase.seconds), 3)
    end
    kinds[i] = { name = phase.name, seconds = seconds }
  end

  -- The whole sequence, phase by phase; the last round stops after its first
  -- phase unless asked to run whole.
  local list = {}
  for round = 1, rounds do
    for i, kind in ipairs(kinds) do
      if round == rounds and i > 1 and not options.full_last_round then break end
      local title = kind.name .. " " .. round .. "/" .. rounds
      if options.title then title = options.title .. " · " .. title end
      list[#list + 1] = { name = kind.name, seconds = kind.seconds, round = round, rounds = rounds, title = title }
    end
  end
  for index, phase in ipairs(list) do
    phase.index, phase.count, phase.last = index, #list, index == #list
  end

  local keys = options.keys
  local persist = options.persist and true or false
  local seq = {}
  -- The index of the running phase; nil while a fetch finds out which it is.
  local current
  -- A fetch's first tick comes before its phase is known: held, then handed on.
  local held_tick
  local handle
  local advance

  local function index_of(title)
    for index, phase in ipairs(list) do
      if phase.title == title then return index end
    end
  end

  local function on_tick(t)
    if current == nil then
      held_tick = t
      return
    end
    -- Another process that follows the sequence began the next phase first: this
    -- countdown took it up (a replacement under the id has no end here), and the
    -- stored title names it. The end of the phase before is told as an end.
    if persist and handle then
      local moved = index_of(handle.title)
      if moved and moved > current then
        local ended = list[current]
        current = moved
        if options.on_done then options.on_done(t, "finished", ended) end
        if options.on_phase then options.on_phase(list[moved]) end
      end
    end
    if options.on_tick then return options.on_tick(t, list[current]) end
  end
  local function on_done(t, reason)
    local phase = list[current or 1]
    if options.on_done then options.on_done(t, reason, phase) end
    -- Each phase's end is an end; the next phase begins after it is told.
    if reason == "finished" and not phase.last then advance(phase.index + 1) end
  end
  local hooks = { every = options.every, on_tick = on_tick, on_done = on_done,
    on_end_action = options.on_end_action, end_lease = options.end_lease }
  if keys then hooks = keys.wrap(hooks) end

  local function start_options(phase)
    return { id = id, seconds = phase.seconds, every = options.every, on_tick = on_tick, on_done = on_done,
      persist = persist or nil, title = persist and phase.title or nil,
      on_end_action = options.on_end_action, end_lease = options.end_lease }
  end

  local function begin(index, found)
    current = index
    local phase = list[index]
    if found then
      handle = found
      if keys then keys.follow(found, start_options(phase)) end
    end
    if options.on_phase then options.on_phase(phase) end
    if found then
      local t = held_tick
      held_tick = nil
      if t and options.on_tick then options.on_tick(t, phase) end
    else
      local start = start_options(phase)
      handle = keys and keys.start(start) or countdown.start(start)
    end
    return handle
  end

  -- The stored phase of this sequence, when one runs under the id: its index,
  -- and the handle that now follows it.
  local function stored_phase()
    if not persist then return nil end
    current, held_tick = nil, nil
    local found = countdown.fetch(id, hooks)
    if not found then return nil end
    -- Something else stored under the id (no phase's title) is replaced.
    local index = index_of(found.title)
    return index, index and found
  end

  -- After a phase's end: the next phase, or a later one another process that
  -- follows the sequence has started meanwhile.
  advance = function(index)
    local stored, found = stored_phase()
    if stored and stored >= index then return begin(stored, found) end
    return begin(index)
  end

  --- Starts the sequence, or continues the phase stored under its id.
  function seq.start()
    local stored, found = stored_phase()
    if stored then return begin(stored, found) end
    return begin(1)
  end

  --- The running phase (a table as above), or nil before start.
  function seq.phase() return current and list[current] end
  --- The handle of the running phase.
  function seq.handle() return handle end
  --- Every phase of the sequence, in order.
  function seq.phases() return list end
  return seq
end
return M
