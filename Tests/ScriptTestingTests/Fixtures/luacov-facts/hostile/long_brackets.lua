-- Long brackets of every level, nested in each other's text.
local a = [==[
]] still the string ]=] too
]==]
local b = [[ one line ]] .. [=[
two ]] lines ]=] .. "x"
--[==[ a comment
]] not closed here ]=]
end
]==] local c = 1
--[[]] local d = 2
--[=[ ]] ]=] local e = 3
print([[
--[=[ not a comment ]=] ]==]
]])
x = [===[]===]
y = [===[
]===]
z = {
  [[
  ]],
  k = [[
  ]]
}
--[[
local function hidden()
]]
return a, b, c, d, e
