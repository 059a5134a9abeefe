/* Interrupting Lua from a signal handler, as lua.c does: lua_sethook is
 * async-signal-safe, and the hook it sets raises "interrupted" at the next
 * instruction, call or return of that thread. Hooks belong to one thread (a
 * coroutine has its own), so the coroutine running now is tracked: resume and
 * wrap are replaced by versions that note which thread they run (and that keep
 * the instruction budget across coroutines, see cd_count_hook). */
#include <lauxlib.h>
#include <lualib.h>
#include "CLuaLimits.h"
#include "CLuaCoverage.h"
#include <stdio.h>

volatile sig_atomic_t cd_interrupted = 0;
static lua_State *volatile interrupt_main = NULL;
static lua_State *volatile interrupt_running = NULL;

/* Each resume charges at most this many instructions the count hook did not see. */
#define RESUME_PERIOD 100

int cd_interrupt_signal(void) { return cd_interrupted; }

void cd_interrupt_attach(lua_State *L) {
    /* The first state wins: a run makes its state first, and a state made later
     * for something else must not take signals away from it. */
    if (interrupt_main != NULL) return;
    interrupt_running = NULL;
    interrupt_main = L;
}

void cd_interrupt_detach(lua_State *L) {
    if (interrupt_main == L) {
        interrupt_main = NULL;
        interrupt_running = NULL;
    }
}

void cd_stop_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    /* Every following instruction raises too: pcall in a loop cannot go on. */
    lua_sethook(L, cd_stop_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
    luaL_error(L, "interrupted");
}

void cd_interrupt(int signal) {
    cd_interrupted = signal;
    lua_State *L = interrupt_main;
    if (L) lua_sethook(L, cd_stop_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
    lua_State *co = interrupt_running;
    if (co && co != L) lua_sethook(co, cd_stop_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}

/* ---- coroutine.resume and coroutine.wrap, tracked (after lcorolib.c, 5.4.4) ---- */

static int auxresume(lua_State *L, lua_State *co, int narg) {
    int status, nres;
    if (!lua_checkstack(co, narg)) {
        lua_pushliteral(L, "too many arguments to resume");
        return -1;
    }
    lua_xmove(L, co, narg);
    cd_limits *limits = cd_get_limits(L);
    int budgeted = limits && limits->capped && limits->budget > 0;
    if (cd_interrupted)
        lua_sethook(co, cd_stop_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
    else if (budgeted && lua_gethook(co) == cd_count_hook)
        /* A fresh count: what the last run of this thread left unseen was charged. */
        lua_sethook(co, cd_count_hook, LUA_MASKCOUNT, limits->spent > limits->budget ? 1 : RESUME_PERIOD);
    /* --coverage: the line hook on every thread (one made before counting
     * started, or whose hook another path replaced, lacks it). */
    if (limits && limits->coverage) cd_coverage_ensure(L, co);
    lua_State *outer = interrupt_running;
    interrupt_running = co;
    status = lua_resume(co, L, narg, &nres);
    interrupt_running = outer;
    /* The count hook saw only whole periods: charge the rest as a whole one. */
    if (budgeted && limits->capped) limits->spent += RESUME_PERIOD;
    if (status == LUA_OK || status == LUA_YIELD) {
        if (!lua_checkstack(L, nres + 1)) {
            lua_pop(co, nres);
            lua_pushliteral(L, "too many results to resume");
            return -1;
        }
        lua_xmove(co, L, nres);
        return nres;
    }
    lua_xmove(co, L, 1);
    return -1;
}

static int coresume(lua_State *L) {
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co, 1, "coroutine");
    int r = auxresume(L, co, lua_gettop(L) - 1);
    if (r < 0) {
        lua_pushboolean(L, 0);
        lua_insert(L, -2);
        return 2;
    }
    lua_pushboolean(L, 1);
    lua_insert(L, -(r + 1));
    return r + 1;
}

static int auxwrap(lua_State *L) {
    lua_State *co = lua_tothread(L, lua_upvalueindex(1));
    int r = auxresume(L, co, lua_gettop(L));
    if (r < 0) {
        int stat = lua_status(co);
        if (stat != LUA_OK && stat != LUA_YIELD) {
            stat = lua_resetthread(co);
            lua_xmove(co, L, 1);
        }
        if (stat != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING) {
            luaL_where(L, 1);
            lua_insert(L, -2);
            lua_concat(L, 2);
        }
        return lua_error(L);
    }
    return r;
}

static int cowrap(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_State *NL = lua_newthread(L);
    lua_pushvalue(L, 1);
    lua_xmove(L, NL, 1);
    lua_pushcclosure(L, auxwrap, 1);
    return 1;
}

static int install_tracked_coroutines(lua_State *L) {
    luaL_requiref(L, LUA_COLIBNAME, luaopen_coroutine, 1);
    lua_pushcfunction(L, coresume);
    lua_setfield(L, -2, "resume");
    lua_pushcfunction(L, cowrap);
    lua_setfield(L, -2, "wrap");
    return 0;
}

int cd_install_tracked_coroutines(lua_State *L) {
    lua_pushcfunction(L, install_tracked_coroutines);
    return lua_pcall(L, 0, 0, 0);
}

/* ---- the CPU-time limit per callback (see CLuaLimits.h) ---- */

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

int cd_cpu_limit_check(void) {
    lua_State *L = interrupt_main;
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
    lua_State *co = interrupt_running;
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
    lua_State *L = interrupt_main;
    if (L == NULL || cd_interrupted) return; /* ending anyway: the stop hook stays */
    cd_limits *limits = cd_get_limits(L);
    /* Between callbacks the loop runs: it takes the stop itself. */
    if (limits == NULL || limits->depth == 0) return;
    pause_stop = stop_now;
    lua_sethook(L, cd_pause_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
    lua_State *co = interrupt_running;
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
