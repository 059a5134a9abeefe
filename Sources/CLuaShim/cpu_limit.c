/* The CPU-time limit per callback, and Ctrl-Z while Lua code runs: both set a
 * hook from a signal handler on the threads running now (interrupt.c tracks
 * them), and both put the usual hook back (hooks.c) once done. */
#include "CLuaCPULimit.h"
#include "CLuaInterrupt.h"
#include "CLuaLimits.h"
#include "CLuaScriptHooks.h"
#include <lauxlib.h>
#include <stdio.h>

/* ---- the CPU-time limit per callback (see CLuaCPULimit.h) ---- */

volatile uint32_t cd_callback_sequence = 0;
static int cpu_periods = 0;           /* fires a callback may span; 0: no limit */
static uint32_t cpu_watched = 0;      /* the callback the last fire saw */
static int cpu_fires = 0;             /* fires that saw it running, 0: none yet */
static volatile sig_atomic_t cpu_stopping = 0; /* its hook is set: the next fire forces */
static volatile uint32_t cpu_stopped = 0;      /* the callback the hook is for */
static char cpu_message[160] = "CPU time limit exceeded";

void cd_cpu_limit_configure(int periods, double seconds) {
    cpu_periods = periods;
    snprintf(cpu_message, sizeof cpu_message,
             "CPU time limit exceeded: more than %g s in one callback (raise it with --cpu-limit)", seconds);
}

void cd_cpu_limit_set_message(const char *message) {
    /* Set before the timer starts: the handler never sees it half written. */
    snprintf(cpu_message, sizeof cpu_message, "%s", message);
}

int cd_cpu_limit_check(void) {
    lua_State *L = cd_interrupt_main;
    if (cpu_periods <= 0 || L == NULL) return 0;
    cd_limits *limits = cd_get_limits(L);
    /* Between callbacks the host runs: nothing of the script's to stop. */
    if (limits == NULL || limits->depth == 0 || limits->run_over) {
        cpu_fires = 0;
        cpu_stopping = 0;
        return 0;
    }
    uint32_t sequence = cd_callback_sequence;
    if (cpu_fires == 0 || sequence != cpu_watched) {
        /* A callback this fire sees first: it has run for less than a period so far. */
        cpu_watched = sequence;
        cpu_fires = 1;
        cpu_stopping = 0;
        return 0;
    }
    cpu_fires++;
    /* The hook set at the last fire did not end it: no hook reaches what runs. */
    if (cpu_stopping) return 1;
    /* It has run for at least cpu_fires - 1 whole periods. */
    if (cpu_fires - 1 < cpu_periods) return 0;
    cpu_stopped = sequence;
    cpu_stopping = 1;
    limits->hook_dirty = 1;
    lua_sethook(L, cd_cpu_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
    lua_State *co = cd_interrupt_running;
    if (co && co != L) lua_sethook(co, cd_cpu_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
    return 0;
}

int cd_cpu_limit_stopped_now(void) { return cpu_stopping && cpu_stopped == cd_callback_sequence; }

void cd_cpu_limit_release_stopped(void) {
    /* A new number for the enclosing callback: the hook left on its threads sees
     * a later callback and puts the usual one back, and the next fire counts the
     * enclosing callback's CPU time from here. */
    if (cd_cpu_limit_stopped_now()) cd_callback_sequence++;
}

void cd_cpu_hook(lua_State *L, lua_Debug *ar) {
    if (cd_interrupted) cd_stop_hook(L, ar);
    cd_limits *limits = cd_get_limits(L);
    if (limits == NULL || limits->depth == 0 || cd_callback_sequence != cpu_stopped) {
        /* A later callback on a thread the stopped one left behind: the usual hook. */
        cd_reapply_hook(L);
        return;
    }
    /* Every following instruction raises too: pcall in a loop cannot go on. */
    if (lua_getinfo(L, "Sl", ar) && ar->currentline > 0)
        lua_pushfstring(L, "%s:%d: ", ar->short_src, ar->currentline);
    else
        lua_pushliteral(L, "");
    lua_pushstring(L, cpu_message);
    lua_concat(L, 2);
    lua_error(L);
}

/* ---- Ctrl-Z while Lua code runs ---- */

static int (*volatile pause_stop)(void) = NULL;

void cd_pause(int (*stop_now)(void)) {
    lua_State *L = cd_interrupt_main;
    if (L == NULL || cd_interrupted) return; /* ending anyway: the stop hook stays */
    cd_limits *limits = cd_get_limits(L);
    /* Between callbacks the loop runs: it takes the stop itself. */
    if (limits == NULL || limits->depth == 0) return;
    pause_stop = stop_now;
    lua_sethook(L, cd_pause_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
    lua_State *co = cd_interrupt_running;
    if (co && co != L) lua_sethook(co, cd_pause_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

void cd_pause_hook(lua_State *L, lua_Debug *ar) {
    int (*stop_now)(void) = pause_stop;
    /* Returns once the process is continued, or at once when the loop or the
     * watchdog took the stop (or it was for another thread). */
    if (stop_now) stop_now();
    /* Then the hook this one displaced: a signal's or the CPU limit's, which
     * raise, or the usual one, and the code goes on where it was. */
    if (cd_interrupted) cd_stop_hook(L, ar);
    cd_limits *limits = cd_get_limits(L);
    if (cpu_stopping && limits && limits->depth > 0 && cd_callback_sequence == cpu_stopped) {
        lua_sethook(L, cd_cpu_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
        cd_cpu_hook(L, ar);
    }
    cd_reapply_hook(L);
}
