-- The JSON encoder built-in plugins get as api.json (HostPrelude.swift).
-- Taken when the host is made: a script's replacements never run in here.
local gsub, format, byte, concat, sort = string.gsub, string.format, string.byte, table.concat, table.sort
local type, tostring, pairs, ipairs, math_type, huge = type, tostring, pairs, ipairs, math.type, math.huge
local escapes = { ['"'] = '\\"', ['\\'] = '\\\\', ['\b'] = '\\b', ['\f'] = '\\f', ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t' }
local function encode(v)
  local t = type(v)
  if t == "string" then
    return '"' .. gsub(v, '[%c"\\]', function(c) return escapes[c] or format("\\u%04x", byte(c)) end) .. '"'
  elseif t == "number" then
    if v ~= v or v == huge or v == -huge then return "null" end
    if math_type(v) == "integer" then return tostring(v) end
    return format("%.17g", v)
  elseif t == "boolean" then return tostring(v)
  elseif t == "nil" then return "null"
  elseif t == "table" then
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = tostring(k) end
    sort(keys)
    local parts = {}
    for _, k in ipairs(keys) do parts[#parts + 1] = encode(k) .. ":" .. encode(v[k]) end
    return "{" .. concat(parts, ",") .. "}"
  end
  return encode(tostring(v))
end
return encode
