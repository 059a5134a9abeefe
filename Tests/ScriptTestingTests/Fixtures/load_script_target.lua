-- Loaded by tests through load_script: returns what it was given, and a handle.
local n = ...
local h = countdown.start{ id = "loaded", seconds = tonumber(n) or 1 }
return n, arg[0], h
