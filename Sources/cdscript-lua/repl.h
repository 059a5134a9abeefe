#ifndef CDSCRIPT_LUA_REPL_H
#define CDSCRIPT_LUA_REPL_H

/* lua5.4's prompt (repl.c): reads standard input to its end. */
#include <lua.h>

/* Runs the prompt on `L` until the end of standard input; `call` runs each
 * chunk (below its arguments) as main.c runs every chunk: with a traceback and
 * Ctrl-C made an error. Leaves the stack as it found it. */
void cd_repl(lua_State *L, int (*call)(lua_State *L, int nargs, int nresults));

#endif
