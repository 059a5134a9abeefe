-- The library functions built-in plugins call, taken before any script runs (api.std).
return { pairs = pairs, ipairs = ipairs, type = type, tostring = tostring, error = error,
  sort = table.sort, concat = table.concat, gsub = string.gsub, format = string.format,
  find = string.find, floor = math.floor, byte = string.byte, math_type = math.type, huge = math.huge }
