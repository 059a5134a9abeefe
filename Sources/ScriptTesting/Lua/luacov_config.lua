-- Reads a `.luacov` file for `--coverage` (LuacovConfig.swift): `...` is its
-- text and name; returns its `include` and `exclude` lists (one Lua pattern a
-- line) and its `modules` as luacov's runner turns them into patterns: one
-- "pattern\nfile name" pair after another, in the order luacov tries them.
local text, name = ...
local env = setmetatable({}, { __index = _G })
local chunk, err = load(text, "@" .. name, "t", env)
if not chunk then error(err, 0) end
local ok, conf = pcall(chunk)
if not ok then error(tostring(conf), 0) end
-- A .luacov file returns its table, or sets its keys as globals (luacov takes
-- both, the globals first).
if type(conf) == "table" then
  for key, value in pairs(conf) do
    if rawget(env, key) == nil then rawset(env, key, value) end
  end
end
conf = env
local function list(v)
  local out = {}
  for _, p in ipairs(type(v) == "table" and v or {}) do out[#out + 1] = tostring(p) end
  return table.concat(out, "\n")
end

-- luacov's runner.lua (acknowledge_modules, compare_names): "a.b" matches the
-- file a/b.lua wherever it is, "a.*" any a/x.lua; a name's more literal parts
-- win over wildcards, then names sort as strings.
local wildcard_expansion = "[^/]+"
local function escape_module_punctuation(ch)
  if ch == "." then return "/" elseif ch == "*" then return wildcard_expansion else return "%" .. ch end
end
local function reversed_parts(module)
  local parts = {}
  for part in module:gmatch("[^%.]+") do table.insert(parts, 1, part) end
  return parts
end
local function compare_names(name1, name2)
  local parts1, parts2 = reversed_parts(name1), reversed_parts(name2)
  for i = 1, math.max(#parts1, #parts2) do
    if not parts1[i] then return false end
    if not parts2[i] then return true end
    local literal1, literal2 = not parts1[i]:find("%*"), not parts2[i]:find("%*")
    if literal1 ~= literal2 then return literal1 end
  end
  return name1 < name2
end
local modules = rawget(conf, "modules")
local pairs_out = {}
if type(modules) == "table" then
  local names = {}
  for module in pairs(modules) do
    if type(module) ~= "string" or type(modules[module]) ~= "string" then
      error(name .. ": modules: each entry is a module name and a file name (strings)", 0)
    end
    names[#names + 1] = module
  end
  table.sort(names, compare_names)
  for _, module in ipairs(names) do
    local pattern = module:gsub("%p", escape_module_punctuation) .. "$"
    local filename = modules[module]:gsub("\\", "/")
    pairs_out[#pairs_out + 1] = pattern .. "\n" .. filename
    if filename:match("init%.lua$") then
      pairs_out[#pairs_out + 1] = pattern:gsub("%$$", "/init$") .. "\n" .. filename
    end
  end
elseif modules ~= nil then
  error(name .. ": modules: expected a table, got " .. type(modules), 0)
end
return list(rawget(conf, "include")), list(rawget(conf, "exclude")), table.concat(pairs_out, "\n")
