x = 1 +
2
x
=x
error("e")
local t = {}
for
