local M = { description = "runs a command (an argument list, never a shell) when a countdown finishes" }

--- use("exec", {command = {"paplay", "/usr/share/sounds/bell.oga"}, id = "tea"})
--- An argument "{id}" is replaced by the countdown's id.
--- With `once = true` it adds no hook: its `action` is an `on_end_action` for a
--- stored countdown, which runs the command once per end however many processes
--- follow it ("{token}" is replaced by the claim's fencing token), and counts as
--- done when the command has exited; its exit status (128 + N after signal N) is
--- recorded with the claim, and every process that shares the end exits with it.
function M.setup(options)
  check_options(options, { id = true, command = true, once = true })
  local command = options.command
  if type(command) ~= "table" or #command == 0 then
    error("exec: 'command' must be a non-empty list of strings, such as {\"echo\", \"done\"}, got " .. type(command), 2)
  end
  for i, argument in ipairs(command) do
    if type(argument) ~= "string" then error("exec: command[" .. i .. "] must be a string, got " .. type(argument), 2) end
  end
  -- Looked up now, not at the end: a 45-minute exam should not learn at minute 45
  -- that its command does not exist. A program named by a placeholder is looked
  -- up when it runs.
  local find, program = api.std.find, command[1]
  if not find(program, "{", 1, true) and not api.which(program) then
    local hint = find(program, "[%s;&|<>$`'\"]") and
      " (exec runs a program with its arguments, never a shell line: give {\"sh\", \"-c\", LINE} for one)" or ""
    error("exec: no program \"" .. program .. "\" on PATH" .. hint, 2)
  end
  local function spawn(t)
    local argv = {}
    for i, argument in ipairs(command) do
      argument = gsub(argument, "{id}", function() return t.id or "" end)
      argv[i] = (gsub(argument, "{token}", function() return tostring(t.token or "") end))
    end
    local pid, err = api.spawn(argv, plugin)
    if not pid then api.warn("cdscript exec: not run for " .. describe(t) .. ": " .. err) end
    return pid
  end
  local function run(t)
    if follows(options, t) then spawn(t) end
  end
  if options.once then
    local function action(t)
      local pid = spawn(t)
      -- Recorded, not run (cdscript test), or not started: nothing to wait for.
      if not pid or pid == 0 then return end
      return function()
        local exited, code = api.exited(pid)
        if exited == nil then return false end
        return true, exited and code or 128 + code
      end
    end
    return { action = action, run = run }
  end
  return { remove = on("done", run), run = run }
end
return M
