-- Which counted files luacov keeps, and under which name its reporter shows
-- them (luacov's runner.lua: file_included and real_name), for `--coverage`
-- (LuacovConfig.swift). `...` is the include and exclude patterns, the module
-- "pattern\nfile name" pairs (all newline-separated) and the names; returns,
-- one a line for each name, the name its report uses, or "" when left out.
local include_text, exclude_text, module_text, names_text = ...
local function lines(text)
  local out = {}
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do out[#out + 1] = line end
  if text == "" then return {} end
  return out
end
local include, exclude = lines(include_text), lines(exclude_text)
local module_lines = lines(module_text)
local module_patterns, module_files = {}, {}
for i = 1, #module_lines - 1, 2 do
  module_patterns[#module_patterns + 1] = module_lines[i]
  module_files[#module_files + 1] = module_lines[i + 1]
  -- luacov adds the modules' patterns to `include`.
  include[#include + 1] = module_lines[i]
end

local function match_any(patterns, str, on_empty)
  if not patterns[1] then return on_empty end
  for _, pattern in ipairs(patterns) do
    if string.match(str, pattern) then return true end
  end
  return false
end

local function file_included(filename)
  filename = filename:gsub("\\", "/"):gsub("%.lua$", "")
  return match_any(include, filename, true) and not match_any(exclude, filename, false)
end

local wildcard_expansion = "[^/]+"
local function real_name(filename)
  local stripped = filename:gsub("\\", "/"):gsub("%.lua$", "")
  for i, pattern in ipairs(module_patterns) do
    local match = stripped:match(pattern)
    if match then
      local new_filename = module_files[i]
      if pattern:find(wildcard_expansion, 1, true) then
        if not new_filename:match("/$") then new_filename = new_filename .. "/" end
        new_filename = new_filename .. match .. ".lua"
      end
      return (new_filename:gsub("^%.[/\\]", ""))
    end
  end
  return filename
end

local out = {}
for _, name in ipairs(lines(names_text)) do
  local ok, included = pcall(file_included, name)
  if not ok then error("a pattern in .luacov is not a valid Lua pattern: " .. tostring(included), 0) end
  out[#out + 1] = included and real_name(name) or ""
end
return table.concat(out, "\n")
