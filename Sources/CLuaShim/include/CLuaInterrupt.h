#ifndef CLUAINTERRUPT_H
#define CLUAINTERRUPT_H

/* Interrupting Lua from a signal handler (interrupt.c), and the tracked
 * coroutines that say which thread runs (coroutines.c). The bottom of the
 * limits: interrupt.c calls no other file of the shim. */
#include <signal.h>
#include <lua.h>
#include "CLuaInternal.h"

/* The terminating signal received, or 0 (set by cd_interrupt). */
extern volatile sig_atomic_t cd_interrupted;
/* The terminating signal received, or 0; inline, since every tick asks. */
static inline int cd_interrupt_pending(void) { return cd_interrupted; }
int cd_interrupt_signal(void);
/* The state signals interrupt (LuaVM attaches its main state unless one is
 * attached already, and detaches it at close). */
void cd_interrupt_attach(lua_State *L);
void cd_interrupt_detach(lua_State *L);
/* The state signals interrupt from now on, whichever was attached: a run's
 * reloaded script (run --watch) takes its run's signals over. */
void cd_interrupt_take(lua_State *L);
/* For a signal handler: makes the running Lua code raise "interrupted". */
void cd_interrupt(int signal);
/* The hook cd_interrupt sets: raises "interrupted" at every instruction. */
void cd_stop_hook(lua_State *L, lua_Debug *ar);

/* The state that signals interrupt (NULL: none), and the coroutine of it
 * running now (NULL: the state's main thread), for the signal handlers. */
CD_INTERNAL extern lua_State *volatile cd_interrupt_main;
CD_INTERNAL extern lua_State *volatile cd_interrupt_running;

/* Replaces coroutine.resume and coroutine.wrap (coroutines.c) with versions that
 * track the running thread and keep the budget across coroutines; returns a Lua
 * status. */
int cd_install_tracked_coroutines(lua_State *L);

#endif
