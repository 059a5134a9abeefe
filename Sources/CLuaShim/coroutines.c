/* coroutine.resume and coroutine.wrap, tracked: they note which thread runs
 * (for interrupt.c's signals, whose hook belongs to one thread), keep the
 * instruction budget across coroutines (see cd_count_hook), and put the
 * coverage hook on every thread resumed. */
#include "CLuaInterrupt.h"
#include "CLuaLimits.h"
#include "CLuaCoverage.h"
#include "CLuaScriptHooks.h"
#include "CLuaCPULimit.h"
#include <lauxlib.h>
#include <lualib.h>

/* Each resume charges at most this many instructions the count hook did not see. */
#define RESUME_PERIOD 100

/* Puts the coverage hook on `co` when the state counts and co's hook lacks it. */
static void ensure_coverage_hook(lua_State *L, lua_State *co) {
    if (!cd_coverage_active(L) || (lua_gethookmask(co) & LUA_MASKLINE)) return;
    lua_Hook hook = lua_gethook(co);
    /* An interrupt's, the CPU limit's or a pause's hook puts the usual one back itself. */
    if (hook == cd_stop_hook || hook == cd_cpu_hook || hook == cd_pause_hook) return;
    cd_reapply_hook_on(L, co);
}

/* coroutine.resume and coroutine.wrap, written from the reference manual's
 * description (§6.2) and held to lua5.4's observed results and messages by
 * CoroutinesMatchLuaTests; what is cdscript's is the bookkeeping around
 * lua_resume (track_resume below). */

/* cdscript: runs `co` with `given` values moved onto it, noting which thread
 * runs and keeping the budget and the coverage hook across the switch.
 * Returns lua_resume's status; its results (or the error object) are left on
 * co's stack, `*results` of them. */
static int track_resume(lua_State *L, lua_State *co, int given, int *results) {
    lua_xmove(L, co, given);
    cd_limits *limits = cd_get_limits(L);
    int budgeted = limits && limits->capped && limits->budget > 0;
    if (cd_interrupted)
        lua_sethook(co, cd_stop_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
    else if (budgeted && lua_gethook(co) == cd_count_hook)
        /* A fresh count: what the last run of this thread left unseen was charged. */
        lua_sethook(co, cd_count_hook, LUA_MASKCOUNT, limits->spent > limits->budget ? 1 : RESUME_PERIOD);
    /* --coverage: the line hook on every thread (one made before counting
     * started, or whose hook another path replaced, lacks it). */
    if (limits && limits->coverage) ensure_coverage_hook(L, co);
    lua_State *outer = cd_interrupt_running;
    cd_interrupt_running = co;
    int status = lua_resume(co, L, given, results);
    cd_interrupt_running = outer;
    /* The count hook saw only whole periods: charge the rest as a whole one. */
    if (budgeted && limits->capped) limits->spent += RESUME_PERIOD;
    return status;
}

/* Resumes `co` with the top `given` values of L. On success the values it
 * yielded or returned are pushed on L and their count returned; on failure
 * the error object (or a message) is pushed and -1 returned. */
static int resume_moving_values(lua_State *L, lua_State *co, int given) {
    if (!lua_checkstack(co, given)) {
        lua_pushliteral(L, "too many arguments to resume");
        return -1;
    }
    int results = 0;
    int status = track_resume(L, co, given, &results);
    if (status != LUA_OK && status != LUA_YIELD) {
        lua_xmove(co, L, 1); /* the error object */
        return -1;
    }
    if (!lua_checkstack(L, results + 1)) {
        lua_pop(co, results);
        lua_pushliteral(L, "too many results to resume");
        return -1;
    }
    lua_xmove(co, L, results);
    return results;
}

/* coroutine.resume(co, ...): true and what co yielded or returned, or false
 * and the error; never raises for co's own errors. */
static int resume_function(lua_State *L) {
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co != NULL, 1, "thread");
    int count = resume_moving_values(L, co, lua_gettop(L) - 1);
    lua_pushboolean(L, count >= 0);
    if (count < 0) count = 1; /* the error object */
    lua_rotate(L, -(count + 1), 1); /* the flag goes first */
    return count + 1;
}

/* A failed wrapped coroutine is closed (its pending to-be-closed variables
 * run) and its error raised in the caller, a message with the caller's
 * position in front of it. */
static int raise_wrapped_failure(lua_State *L, lua_State *co) {
    int status = lua_status(co);
    if (status != LUA_OK && status != LUA_YIELD) {
        /* It died by an error: close it; an error while closing replaces the first. */
        lua_pop(L, 1);
        status = lua_resetthread(co);
        lua_xmove(co, L, 1);
    }
    if (status != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING) {
        luaL_where(L, 1);
        lua_rotate(L, -2, 1);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

/* The function coroutine.wrap returns; upvalue 1: its coroutine. */
static int call_wrapped(lua_State *L) {
    lua_State *co = lua_tothread(L, lua_upvalueindex(1));
    int count = resume_moving_values(L, co, lua_gettop(L));
    if (count < 0) return raise_wrapped_failure(L, co);
    return count;
}

static int wrap_function(lua_State *L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_State *co = lua_newthread(L);
    lua_pushvalue(L, 1);
    lua_xmove(L, co, 1); /* the body, waiting for the first call */
    lua_pushcclosure(L, call_wrapped, 1);
    return 1;
}

static int install_tracked_coroutines(lua_State *L) {
    luaL_requiref(L, LUA_COLIBNAME, luaopen_coroutine, 1);
    lua_pushcfunction(L, resume_function);
    lua_setfield(L, -2, "resume");
    lua_pushcfunction(L, wrap_function);
    lua_setfield(L, -2, "wrap");
    return 0;
}

int cd_install_tracked_coroutines(lua_State *L) {
    lua_pushcfunction(L, install_tracked_coroutines);
    return lua_pcall(L, 0, 0, 0);
}
