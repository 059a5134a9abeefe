-- A module required by name: luacov names it lib/util.lua, without "./".
package.path = "./?.lua;" .. package.path
local util = require("lib.util")
print(util.double(21), util.never ~= nil)
