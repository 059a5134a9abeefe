-- Line ends of every kind.
local x = 1
local y

if x then
  y = 2
end
	local z = {
  a = 1,
}
return x, y, z