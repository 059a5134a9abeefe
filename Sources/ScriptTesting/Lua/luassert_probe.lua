-- Why luassert cannot be loaded here, or "" (TestRunner.missingDependency).
local ok, err = pcall(require, "luassert")
if ok then return "" end
return "luassert, the assertion library of busted, cannot be loaded (on Debian: apt install lua-luassert; " ..
  "or put it on LUA_PATH_5_4):\n" .. tostring(err)
