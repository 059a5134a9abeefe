#ifndef CDSCRIPT_LUA_LUACOV_STANDIN_H
#define CDSCRIPT_LUA_LUACOV_STANDIN_H

/* `-lluacov` under `cdscript test -c` (luacov_standin.c): a spec that starts
 * `arg[-1] -lluacov tool.lua`, as luacov's users write it, gets the tool's lines
 * counted into the run's coverage, without luacov installed. */
#include <lua.h>

/* The environment variable `cdscript test -c` sets to the stats file its
 * subprocesses add their counts to (luacov.stats.out's format). */
#define CDSCRIPT_LUACOV_STATS "CDSCRIPT_LUACOV_STATS"

/* When CDSCRIPT_LUACOV_STATS is set: makes `require "luacov"` (so `-lluacov`,
 * and `-lluacov.tick` alike)
 * start counting lines, and the process add its counts to that file as it
 * ends. Otherwise nothing: `require "luacov"` finds a real luacov, if any. */
void cd_luacov_standin_install(lua_State *L);

#endif
