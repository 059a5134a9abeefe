local function deep(n)
  if n == 0 then error("deep down") end
  deep(n - 1)
end
io.write("started\n")
deep(2)
