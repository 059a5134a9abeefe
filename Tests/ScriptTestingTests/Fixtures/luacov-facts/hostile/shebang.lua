#!/usr/bin/env lua
print("shebang")
