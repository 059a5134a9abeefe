-- Quotes, escapes and continued lines.
local q = "say \"end\" -- not a comment"
local r = 'it\'s [[ not long'
local s = "a\
b\
c"
local t = "\z
   \z

   done"
local u = '\\' .. "\\"
local v = "--[[" .. ']]'
local w = "tab\tnew\nline", 'x'
f("a", 'b',
  "c")
g'x' h"y"
io.write"single"
io.write "spaced"
return q, r, s, t, u, v, w
