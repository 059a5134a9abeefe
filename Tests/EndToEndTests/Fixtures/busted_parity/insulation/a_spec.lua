-- Loaded first: leaves a module, a global in _G, and a global of its own.
package.loaded.parity_loaded_once = { loads = (package.loaded.parity_loaded_once or { loads = 0 }).loads + 1 }
_G.parity_from_a = "a"
own_global_of_a = "mine"
it("a leaves things behind", function() assert.are.equal(1, package.loaded.parity_loaded_once.loads) end)
