local missing = require("no.such.module")

it("never runs", function() end)
