-- Reads a busted project's `.busted` file for `cdscript test` (BustedConfig.swift),
-- in a throwaway state: `...` is the file's text, its name, and the task to run
-- (`-r NAME`; "" for busted's `default`). As busted's configuration loader does,
-- the task's keys win over `_all`'s. Returns one line per value, "key\tvalue"
-- (a list gives a line per element; newlines inside a value become "\1").
local text, name, run = ...
local chunk, err = load(text, "@" .. name, "t")
if not chunk then error(err, 0) end
local ok, conf = pcall(chunk)
if not ok then error(tostring(conf), 0) end
if type(conf) ~= "table" then
  error("must return a table of tasks (such as {default = {ROOT = {'spec'}}}), got " .. type(conf), 0)
end

local merged = {}
local function take(task)
  if type(task) ~= "table" then return end
  for k, v in pairs(task) do
    if type(k) == "string" and merged[k] == nil then merged[k] = v end
  end
end
if run ~= "" then
  if type(conf[run]) ~= "table" then error("task `" .. run .. "` not found, or not a table", 0) end
  take(conf[run])
else
  take(conf.default)
end
take(conf._all)

local lines = {}
local function add(key, value)
  local t = type(value)
  if t == "string" or t == "number" or t == "boolean" then
    lines[#lines + 1] = key .. "\t" .. tostring(value):gsub("\n", "\1")
  elseif t == "table" then
    for _, v in ipairs(value) do add(key, v) end
  else
    error("`" .. key .. "` is a " .. t .. "; busted's keys take strings, numbers, booleans or lists of them", 0)
  end
end
local keys = {}
for k in pairs(merged) do keys[#keys + 1] = k end
table.sort(keys)
for _, k in ipairs(keys) do add(k, merged[k]) end
return table.concat(lines, "\n")
