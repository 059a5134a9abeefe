-- A command-line tool as depgraph's bin/: its library under src/, its argument
-- from the command line, an exit code of its own for a bad one.
package.path = "src/?.lua;" .. package.path
local core = require("tool.core")
local n = tonumber(arg[1]) or 0
if n < 0 then
  io.stderr:write("tool: negative\n")
  os.exit(2)
end
print(core.triangle(n))
