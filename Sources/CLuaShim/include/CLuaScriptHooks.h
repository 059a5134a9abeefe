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

/* Starts `--coverage`'s counting (coverage.c) in the state of L (a state made
 * by cd_new_limited_state; others are not counted) and sets the hook on L. The
 * hook is then set on every thread: each coroutine made after (a new thread
 * inherits its maker's hook) and each coroutine resumed (coroutines.c, for
 * threads made before, or whose hook another path replaced). Returns 0 when it
 * could not start. */
int cd_coverage_start(lua_State *L);

#endif
