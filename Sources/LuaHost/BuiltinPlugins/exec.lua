local M = { description = "runs a command (an argument list, never a shell) when a countdown finishes" }

--- use("exec", {command = {"paplay", "/usr/share/sounds/bell.oga"}, id = "tea"})
--- An argument "{id}" is replaced by the countdown's id.
function M.setup(options)
  check_options(options, { id = true, command = true })
  local command = options.command
  if type(command) ~= "table" or #command == 0 then
    error("exec: 'command' must be a non-empty list of strings, such as {\"echo\", \"done\"}, got " .. type(command), 2)
  end
  for i, argument in ipairs(command) do
    if type(argument) ~= "string" then error("exec: command[" .. i .. "] must be a string, got " .. type(argument), 2) end
  end
  local function run(t)
    if not follows(options, t) then return end
    local argv = {}
    for i, argument in ipairs(command) do argv[i] = (gsub(argument, "{id}", function() return t.id or "" end)) end
    local pid, err = api.spawn(argv, plugin)
    if not pid then api.warn("cdscript exec: not run for " .. describe(t) .. ": " .. err) end
  end
  return { remove = on("done", run), run = run }
end
return M
