return { hello = function(name) return "hello, " .. name end }
