/* Ticks in a row: on_tick hooks of shared functions run one after the other in
 * one protected call, and the traceback of a failure trimmed of that call. */
#include "CLuaBatch.h"
#include "CLuaHandles.h"
#include "CLuaTraceback.h"
#include <lauxlib.h>
#include <string.h>

static int run_batch(lua_State *L);

/* The highest level of L's stack, found as luaL_traceback finds it (a binary
 * search: a stack overflow's million levels cost a few dozen lookups). */
static int last_level(lua_State *L) {
    lua_Debug ar;
    int li = 1, le = 1;
    while (lua_getstack(L, le, &ar)) {
        li = le;
        le *= 2;
    }
    while (li < le) {
        int m = (li + le) / 2;
        if (lua_getstack(L, m, &ar)) li = m + 1;
        else le = m;
    }
    return le - 1;
}

/* The traceback without run_batch's own frame, the host's business: the script's
 * hook shows as the bottom of the stack, as from cd_call_hook. Errors only.
 * Upvalue 1: the batch, which counted the levels below run_batch. */
static int batch_traceback_handler(lua_State *L) {
    const cd_tick_batch *batch = (const cd_tick_batch *)lua_touserdata(L, lua_upvalueindex(1));
    cd_traceback_handler(L);                              /* error ... traceback */
    size_t length;
    const char *text = lua_tolstring(L, -1, &length);
    int last = last_level(L);
    int batch_level = last - batch->levels_below;
    if (text == NULL || batch_level < 1) return 1;
    /* luaL_traceback writes "stack traceback:" and then, per level from 1, a line
     * "\n\t..." (and "\n\t(...tail calls...)" after a tail call); past 21 levels
     * it shows 1 to 10, a line "\n\t...\t(skipping N levels)", and the last 11. */
    const char *list = NULL;
    for (const char *p = text; (p = strstr(p, "stack traceback:")) != NULL; p++) list = p;
    if (list == NULL) return 1;
    int level = 0;
    for (const char *line = strstr(list, "\n\t"); line != NULL; ) {
        const char *next = strstr(line + 2, "\n\t");
        const char *end = next ? next : text + length;
        if (strncmp(line + 2, "...\t(skipping", 13) == 0) {
            level = last - 11;
        } else if (strncmp(line + 2, "(...tail calls...)", 18) != 0 && ++level == batch_level) {
            lua_pushlstring(L, text, (size_t)(line - text));
            lua_pushlstring(L, end, (size_t)(text + length - end));
            lua_concat(L, 2);
            return 1;
        }
        line = next;
    }
    return 1;
}

static int run_batch(lua_State *L) {
    cd_hook_caller *caller = (cd_hook_caller *)lua_touserdata(L, 1);
    cd_tick_batch *batch = (cd_tick_batch *)lua_touserdata(L, 2);
    /* Level 0 is this function; what lies below stays below while hooks run. */
    lua_Debug ar;
    int levels = 1;
    while (lua_getstack(L, levels, &ar)) levels++;
    batch->levels_below = levels - 1;
    /* The row's function and the shared tick stay at 3 and 4, pushed from there
     * for each call: a copy from the stack costs half a registry read. The
     * function is the entry's as long as the entry names its address (held
     * here, that address cannot pass to another object). */
    lua_rawgeti(L, LUA_REGISTRYINDEX, caller->shared_tick_ref);             /* caller batch t */
    lua_pushnil(L);                                                          /* caller batch t fn */
    const void *row_fn = NULL;
    for (;;) {
        const cd_batch_tick *t = &batch->tick;
        if (t->shared_hook <= 0 || t->shared_hook > CD_SHARED_TICK_HOOKS || caller->shared_tick_busy) {
            batch->pending = 1;
            return 0;
        }
        batch->in_tick = 1;
        caller->in_flight_ref = t->handle_ref;
        caller->in_flight_ended = 0;
        const cd_shared_tick_hook *e = &caller->shared_tick_hooks[t->shared_hook - 1];
        if (e->fn != row_fn) {
            lua_rawgeti(L, LUA_REGISTRYINDEX, e->ref);
            lua_replace(L, 4);
            row_fn = e->fn;
        }
        const cd_tick tick = {t->remaining_ns, t->total_ns, 0};
        cd_hold_shared_tick(caller, t->handle_ref, &tick);
        lua_pushvalue(L, 4);
        lua_pushvalue(L, 3);                                                 /* ... fn t */
        batch->saved = cd_limits_begin(L, caller->limits);
        lua_call(L, 1, 0);
        cd_limits_end(L, caller->limits, batch->saved);
        caller->shared_tick_busy = 0;
        batch->in_tick = 0;
        /* Ended inside its own hook: the reference waited for the call to return. */
        if (caller->in_flight_ended) cd_unref_handle(L, caller, t->handle_ref);
        if (cd_interrupt_pending()) return 0;
        if (!batch->take(batch->context, &batch->tick)) return 0;
    }
}

int cd_run_tick_batch(lua_State *L, cd_hook_caller *caller, cd_tick_batch *batch) {
    int base = lua_gettop(L);
    int outer_ref = caller->in_flight_ref, outer_ended = caller->in_flight_ended;
    batch->pending = 0;
    batch->ended = 0;
    batch->in_tick = 0;
    batch->levels_below = 0;
    lua_pushlightuserdata(L, batch);
    lua_pushcclosure(L, batch_traceback_handler, 1);
    lua_pushcfunction(L, run_batch);
    lua_pushlightuserdata(L, caller);
    lua_pushlightuserdata(L, batch);
    int status = lua_pcall(L, 2, 0, base + 1);
    if (batch->in_tick) {
        /* A hook raised: close its callback as cd_call_hook does after lua_pcall. */
        cd_limits_end_failed_hook(L, caller->limits, batch->saved);
        caller->shared_tick_busy = 0;
        batch->ended = caller->in_flight_ended;
    }
    caller->in_flight_ref = outer_ref;
    caller->in_flight_ended = outer_ended;
    return cd_settle(L, base, status);
}
