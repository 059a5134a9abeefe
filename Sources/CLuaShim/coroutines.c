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

/* After lcorolib.c, 5.4.4. */

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
    if (limits && limits->coverage) ensure_coverage_hook(L, co);
    lua_State *outer = cd_interrupt_running;
    cd_interrupt_running = co;
    status = lua_resume(co, L, narg, &nres);
    cd_interrupt_running = outer;
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
