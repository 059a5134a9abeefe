local a = 1
-- luacov: disable
local b = 2
--[[ luacov: enable ]]
local c = 3
--luacov:enable
local d = 4
local e = 5 -- luacov: disable
local f = 6
-- LUACOV: ENABLE
local g = 7
-- luacov: enable now
local h = 8
  -- luacov: enable
local i = 9
-- luacov: disable
local j = 10
