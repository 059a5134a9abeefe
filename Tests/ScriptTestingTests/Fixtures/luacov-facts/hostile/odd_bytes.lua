-- a byte order mark, bytes that are not UTF-8, and no newline at the end
local s = "ÿþ"
local t = { "Ã©", [[â€® right-to-left ]] }
   
return s, t