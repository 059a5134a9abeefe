local a, b, c
local d,
  e = 1, 2
local f, g,
  h
local i =
  3
local j = nil
local k <const> = nil
local l <close> = nil
if true then
  a = 1
elseif a then
  b = 2
else
  c = 3
end
while true do
  break
end
while a do a = nil end
repeat
  a = (a or 0) + 1
until a > 3
for n = 1, 3 do
  goto continue
  ::continue::
end
do
  local m = a
    and b
    or c
end
return
  a, b
