-- Records what luacov's own reporter decides about each line of some Lua files,
-- as facts for cdscript's line scanner (Sources/ScriptTesting/Lua/line_scanner.lua)
-- to be tested against. Run by scripts/luacov-facts with a copy of luacov on
-- package.path; luacov itself is never part of this tree.
--
-- For every file, luacov's ReporterBase runs twice over made-up statistics: once
-- as if no line ran, once as if every line ran once. A line reported as missed
-- in the first run counts whether or not it ran ("N"); a line reported only in
-- the second counts only when it ran ("N?"); any other line never counts.
--
-- Arguments:
--   files CORPUS ROOT    every *.lua under ROOT (`find -L`), named relative to it;
--                        prints CORPUS <TAB> PATH <TAB> SHA256 <TAB> lines
--   each FILE            every line of FILE judged alone, in a file of its own;
--                        prints one letter a line: C, ? or -
local reporter = require("luacov.reporter")

local Probe = setmetatable({}, { __index = reporter.ReporterBase })
Probe.__index = Probe

function Probe:on_mis_line(_, lineno) self.missed[lineno] = true end
function Probe:on_hit_line(_, lineno) self.hit[lineno] = true end

local function decide(filename, hits)
  local probe = setmetatable({ missed = {}, hit = {}, _data = {}, _cfg = {} }, Probe)
  probe._data[filename] = setmetatable({}, { __index = function() return hits end })
  probe:_run_file(filename)
  return probe
end

-- Line number -> "C" or "?", for the lines that count.
local function verdicts(filename)
  local none, all = decide(filename, 0), decide(filename, 1)
  local out = {}
  for line in pairs(all.hit) do out[line] = none.missed[line] and "C" or "?" end
  for line in pairs(none.missed) do
    assert(all.hit[line], filename .. ":" .. line .. " missed when nothing ran, not hit when all did")
  end
  return out
end

local function quoted(path) return "'" .. path:gsub("'", "'\\''") .. "'" end

local function sha256(path)
  local pipe = assert(io.popen("sha256sum < " .. quoted(path)))
  local digest = pipe:read("l"):match("^(%x+)")
  pipe:close()
  return digest
end

local function files(root)
  local pipe = assert(io.popen("cd " .. quoted(root) .. " && find -L . -type f -name '*.lua' | LC_ALL=C sort"))
  local list = {}
  for line in pipe:lines() do list[#list + 1] = line:sub(3) end
  pipe:close()
  return list
end

local mode = ...
if mode == "files" then
  local _, corpus, root = ...
  for _, name in ipairs(files(root)) do
    local path = root .. "/" .. name
    local found, lines = verdicts(path), {}
    for line, verdict in pairs(found) do lines[#lines + 1] = line end
    table.sort(lines)
    for i, line in ipairs(lines) do lines[i] = line .. (found[line] == "?" and "?" or "") end
    io.write(corpus, "\t", name, "\t", sha256(path), "\t", table.concat(lines, " "), "\n")
  end
elseif mode == "each" then
  local _, cases = ...
  local scratch = os.tmpname()
  for line in io.lines(cases) do
    local file = assert(io.open(scratch, "w"))
    file:write(line, "\n")
    file:close()
    io.write(verdicts(scratch)[1] or "-", "\n")
  end
  os.remove(scratch)
else
  error("usage: luacov_facts.lua files CORPUS ROOT | each FILE")
end
