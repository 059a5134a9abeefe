-- Reads a `.luacov` file's `include` and `exclude` lists for `cdscript test
-- --coverage` (Coverage.swift): `...` is its text and name; returns the two
-- lists, one Lua pattern a line.
local text, name = ...
local env = setmetatable({}, { __index = _G })
local chunk, err = load(text, "@" .. name, "t", env)
if not chunk then error(err, 0) end
local ok, conf = pcall(chunk)
if not ok then error(tostring(conf), 0) end
-- A .luacov file returns its table, or sets its keys as globals.
if type(conf) ~= "table" then conf = env end
local function list(v)
  local out = {}
  for _, p in ipairs(type(v) == "table" and v or {}) do out[#out + 1] = tostring(p) end
  return table.concat(out, "\n")
end
return list(rawget(conf, "include")), list(rawget(conf, "exclude"))
