-- Prints `arg` from its lowest index (the interpreter's own path left out: it
-- differs between the two), the script's varargs and a line of stdin; exits
-- with os.exit when asked to (`exit CODE`, `exit true`, `exit false`).
local first = 0
while arg[first - 1] do first = first - 1 end
local parts = { "INTERPRETER" }
for i = first + 1, #arg do parts[#parts + 1] = i .. "=" .. tostring(arg[i]) end
print(table.concat(parts, " "))
print("varargs", select("#", ...), ...)
io.write("stdin:", tostring(io.read("l")), "\n")
print("collector", collectgarbage("incremental"))
if arg[1] == "exit" then
  local how = arg[2]
  io.write("before exit")
  if how == "true" then os.exit(true) elseif how == "false" then os.exit(false) end
  os.exit(tonumber(how))
end
