#ifndef CLUASCRIPTHOOKS_H
#define CLUASCRIPTHOOKS_H

/* debug.sethook and debug.gethook for scripts, beside the host's own hooks
 * (hooks.c), and the one place that knows which hook a thread should have. */
#include <lua.h>

/* Threads that have a hook of the script's own (debug.sethook, see hooks.c). */
extern int cd_script_hook_count;
/* Puts back the hook thread L needs (the script's own beside the host's). */
void cd_reapply_hook(lua_State *L);
/* The same for thread `co` of L's state (L: the running thread, for the stack). */
void cd_reapply_hook_on(lua_State *L, lua_State *co);
/* Replaces debug.sethook and debug.gethook (see hooks.c); returns a Lua status. */
int cd_install_script_hooks(lua_State *L);

#endif
