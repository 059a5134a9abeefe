#ifndef CLUATRACEBACK_H
#define CLUATRACEBACK_H

/* Protected calls whose errors carry a Lua traceback. */
#include <lua.h>
#include "CLuaInternal.h"

/* Calls the function below `nargs` arguments, with a message handler that adds a
 * traceback. Returns a Lua status; on error the message (with traceback) is on top.
 * LUA_ERRMEM skips the handler: the message is then Lua's bare one. */
int cd_pcall_traceback(lua_State *L, int nargs, int nresults);
/* cd_pcall_traceback for a hook (on_press, on_error, a global hook): when it runs
 * inside another callback and runs out of that callback's budget or CPU time, the
 * limit is the hook's error alone (see cd_limits_end_failed_hook). */
int cd_pcall_hook(lua_State *L, int nargs, int nresults);

/* Pushes the message handler that adds a Lua traceback to an error. */
void cd_push_traceback_handler(lua_State *L);

/* The message handler itself (cd_push_traceback_handler pushes it). */
CD_INTERNAL int cd_traceback_handler(lua_State *L);

#endif
