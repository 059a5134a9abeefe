-- The JSON encoder built-in plugins get as api.json (host_prelude.lua compiles
-- it at api.json's first call). Its library functions come from the snapshot
-- taken when the host was made (std_snapshot.lua): a script's replacements
-- never run in here.
local std = ...
local gsub, format, byte, concat, sort = std.gsub, std.format, std.byte, std.concat, std.sort
local type, tostring, pairs, ipairs, math_type, huge = std.type, std.tostring, std.pairs, std.ipairs, std.math_type, std.huge
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
    -- A sequence (keys 1..n and no others, n > 0) is an array; any other table an object.
    local count, n = 0, 0
    for _ in pairs(v) do count = count + 1 end
    while v[n + 1] ~= nil do n = n + 1 end
    local parts = {}
    if n > 0 and n == count then
      for i = 1, n do parts[i] = encode(v[i]) end
      return "[" .. concat(parts, ",") .. "]"
    end
    -- Object keys are strings; each keeps the key it came from, so 1 finds v[1].
    local names, keys = {}, {}
    for k in pairs(v) do
      local name = tostring(k)
      names[#names + 1], keys[name] = name, k
    end
    sort(names)
    for _, name in ipairs(names) do parts[#parts + 1] = encode(name) .. ":" .. encode(v[keys[name]]) end
    return "{" .. concat(parts, ",") .. "}"
  end
  return encode(tostring(v))
end
return encode
