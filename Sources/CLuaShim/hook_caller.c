/* Calling a countdown's hooks: the caller made once per state, the flags worked
 * out once per countdown, and on_tick functions that share one tick. */
#include "CLuaHookCaller.h"
#include "CLuaHandles.h"
#include "CLuaIds.h"
#include "CLuaTickEscape.h"
#include "CLuaTraceback.h"
#include <lauxlib.h>
#include <stdlib.h>

/* The one list of these names: StartOptions.fields (Swift) is built from it. */
static const char *const OPTION_NAMES[CD_OPTION_COUNT] = {
    "id", "seconds", "at", "every", "on_tick", "on_done", "on_error", "persist"
};

const char *cd_start_option_name(int option) {
    return option >= 0 && option < CD_OPTION_COUNT ? OPTION_NAMES[option] : NULL;
}

static int make_hook_caller(lua_State *L) {
    cd_hook_caller *caller = (cd_hook_caller *)lua_touserdata(L, 1);
    cd_push_tick_metatable(L);
    caller->tick_metatable_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    cd_tick zero = {0, 0, 0};
    caller->shared_tick = cd_new_tick_box(L, 0, caller->tick_metatable_ref, &zero);
    caller->shared_tick_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    /* Short strings are interned and never move: a table key "seconds" is this
     * very string, for as long as this table keeps it alive. */
    lua_createtable(L, CD_OPTION_COUNT, 0);
    for (int i = 0; i < CD_OPTION_COUNT; i++) {
        lua_pushstring(L, OPTION_NAMES[i]);
        caller->option_names[i] = lua_tostring(L, -1);
        lua_rawseti(L, -2, i + 1);
    }
    caller->option_names_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    cd_push_handle_metatable(L);
    caller->handle_metatable_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_createtable(L, 1, 0);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "v");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    caller->last_hook_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    caller->last_hook = NULL;
    if (caller->limits && caller->limits->hook_pin_ref <= 0) {
        lua_pushboolean(L, 0);
        caller->limits->hook_pin_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    /* Keys taken now, in this protected call: storing a function under one later
     * never allocates, so never raises. */
    for (int i = 0; i < CD_SHARED_TICK_HOOKS; i++) {
        lua_pushboolean(L, 0);
        caller->shared_tick_hooks[i].ref = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    return 0;
}

cd_hook_caller *cd_hook_caller_new(lua_State *L) {
    cd_hook_caller *caller = (cd_hook_caller *)calloc(1, sizeof(cd_hook_caller));
    if (caller == NULL) return NULL;
    caller->limits = cd_get_limits(L);
    caller->in_flight_ref = LUA_NOREF;
    lua_pushcfunction(L, make_hook_caller);
    lua_pushlightuserdata(L, caller);
    if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
        lua_pop(L, 1);
        free(caller);
        return NULL;
    }
    return caller;
}

void cd_hook_caller_free(cd_hook_caller *caller) {
    if (caller == NULL) return;
    free(caller->free_handle_refs);
    cd_id_map_free(&caller->ids);
    free(caller);
}

/* Holds the hook at `index` until the end of the outermost callback (see
 * cd_limits.hook_pin_ref), so that its address identifies it meanwhile. */
static void pin_hook(lua_State *L, cd_hook_caller *caller, int index) {
    cd_limits *limits = caller->limits;
    if (limits == NULL || limits->hook_pin_ref <= 0) return;
    lua_pushvalue(L, index);
    lua_rawseti(L, LUA_REGISTRYINDEX, limits->hook_pin_ref);
    limits->hook_pinned = 1;
}

/* cd_tick_stays_local with the last verdict at hand: countdowns started in a loop
 * share their hook. */
int cd_hook_is_local_at(lua_State *L, cd_hook_caller *caller, int index, const void *fn) {
    if (fn == caller->last_hook) {
        /* Pinned since it was judged in this callback: nothing else can be at its address. */
        if (caller->limits && caller->limits->hook_pinned) return caller->last_hook_local;
        /* Otherwise the same address is the same function only if the weak anchor still holds it. */
        lua_rawgeti(L, LUA_REGISTRYINDEX, caller->last_hook_ref);
        lua_rawgeti(L, -1, 1);
        int same = lua_rawequal(L, -1, index);
        lua_settop(L, -3);
        if (same) {
            pin_hook(L, caller, index);
            return caller->last_hook_local;
        }
    }
    int local = cd_tick_stays_local(L, index);
    lua_rawgeti(L, LUA_REGISTRYINDEX, caller->last_hook_ref);
    lua_pushvalue(L, index);
    lua_rawseti(L, -2, 1);
    lua_settop(L, -2);
    caller->last_hook = fn;
    caller->last_hook_local = local;
    pin_hook(L, caller, index);
    return local;
}

int cd_hook_flags(lua_State *L, cd_hook_caller *caller, int index) {
    index = lua_absindex(L, index);
    int flags = 0;
    /* A user value a handle was made without reads as none (LUA_TNONE), a nil. */
    if (lua_getiuservalue(L, index, CD_UV_ID) > LUA_TNIL) flags |= CD_HOOK_HAS_ID;
    lua_pop(L, 1);
    for (cd_hook_slot hook = CD_HOOK_ON_TICK; hook <= CD_HOOK_ON_DONE; hook++) {
        int type = lua_getiuservalue(L, index, cd_hook_uv(hook));
        if (type > LUA_TNIL) flags |= hook == CD_HOOK_ON_TICK ? CD_HOOK_HAS_TICK : CD_HOOK_HAS_DONE;
        if (type == LUA_TFUNCTION && cd_hook_is_local(L, caller, lua_gettop(L))) flags |= cd_hook_local_flag(hook);
        lua_pop(L, 1);
    }
    return flags;
}

/* Pushes the on_tick function cd_share_tick_hook numbered `shared_hook` and the
 * shared tick, held (cd_hold_shared_tick). */
static void push_shared_tick_call(lua_State *L, cd_hook_caller *caller, int shared_hook, int handle_ref, const cd_tick *tick) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, caller->shared_tick_hooks[shared_hook - 1].ref);  /* fn */
    lua_rawgeti(L, LUA_REGISTRYINDEX, caller->shared_tick_ref);                         /* fn t */
    cd_hold_shared_tick(caller, handle_ref, tick);
}

/* cd_share_tick_hook for the on_tick function at `index`. */
/* `fn` is the address of the function at `index` (lua_topointer). */
int cd_share_tick_hook_at(lua_State *L, cd_hook_caller *caller, int index, const void *fn) {
    /* Live entries hold their function: its address names it and no other. */
    int free_entry = -1;
    for (int i = 0; i < CD_SHARED_TICK_HOOKS; i++) {
        cd_shared_tick_hook *e = &caller->shared_tick_hooks[i];
        if (e->fn == fn) {
            e->uses++;
            return i + 1;
        }
        if (e->uses == 0 && free_entry < 0) free_entry = i;
    }
    if (free_entry < 0) return 0;
    cd_shared_tick_hook *e = &caller->shared_tick_hooks[free_entry];
    lua_pushvalue(L, index);
    lua_rawseti(L, LUA_REGISTRYINDEX, e->ref);
    e->fn = fn;
    e->uses = 1;
    return free_entry + 1;
}

int cd_share_tick_hook(lua_State *L, cd_hook_caller *caller, int index, int flags) {
    if (!(flags & CD_HOOK_TICK_LOCAL)) return 0;
    int shared = 0;
    if (lua_getiuservalue(L, index, CD_UV_TICK) == LUA_TFUNCTION) shared = cd_share_tick_hook_at(L, caller, lua_gettop(L), lua_topointer(L, -1));
    lua_settop(L, -2);
    return shared;
}

void cd_release_tick_hook(lua_State *L, cd_hook_caller *caller, int shared_hook) {
    if (shared_hook <= 0 || shared_hook > CD_SHARED_TICK_HOOKS) return;
    cd_shared_tick_hook *e = &caller->shared_tick_hooks[shared_hook - 1];
    if (e->uses <= 0 || --e->uses > 0) return;
    e->fn = NULL;
    lua_pushboolean(L, 0);
    lua_rawseti(L, LUA_REGISTRYINDEX, e->ref);
}

int cd_call_hook(lua_State *L, cd_hook_caller *caller, int msgh, const cd_hook_call *call) {
    const int handle_ref = call->handle_ref;
    const cd_hook_slot hook = call->hook;
    const int flags = call->flags;
    /* Every API call here runs for every tick: no rotations (lua_rotate,
     * lua_insert, lua_remove, lua_replace each cost as much as a table read). */
    int base = lua_gettop(L);
    int from_loop = msgh != 0;
    if (!from_loop) {
        lua_pushcfunction(L, cd_traceback_handler);
        msgh = base + 1;
    }
    /* A shared on_tick with the shared tick free: neither the handle nor its
     * registry entry is read (the tick names the countdown by reference). */
    if (hook == CD_HOOK_ON_TICK && call->shared_hook > 0 && !caller->shared_tick_busy) {
        push_shared_tick_call(L, caller, call->shared_hook, handle_ref, &call->tick);  /* fn t */
        cd_limits_saved saved = cd_limits_begin(L, caller->limits);
        int status = lua_pcall(L, 1, 0, msgh);        /* [err] */
        if (status == LUA_OK) cd_limits_end(L, caller->limits, saved);
        else cd_limits_end_failed_hook(L, caller->limits, saved);
        caller->shared_tick_busy = 0;
        return cd_settle(L, base, status);
    }
    int handle_index = from_loop ? base + 1 : base + 2;
    lua_rawgeti(L, LUA_REGISTRYINDEX, handle_ref);     /* h */
    if (lua_getiuservalue(L, handle_index, cd_hook_uv(hook)) <= LUA_TNIL) {  /* h fn (none: a handle made without it) */
        lua_settop(L, base);
        return LUA_OK;
    }
    /* The shared tick, unless a hook that holds it is running (this call is then
     * nested in it: a start's first tick, an on_done run by a cancel). */
    int shared = (flags & cd_hook_local_flag(hook)) && !caller->shared_tick_busy;
    if (shared) {
        /* This hook provably lets its `t` go (tick_escape.c). */
        lua_rawgeti(L, LUA_REGISTRYINDEX, caller->shared_tick_ref);
        cd_hold_shared_tick(caller, handle_ref, &call->tick);
    } else {                                           /* h fn t */
        /* An anonymous countdown's tick needs no link to its handle: its id stays nil. */
        cd_new_tick_box(L, (flags & CD_HOOK_HAS_ID) ? handle_index : 0, caller->tick_metatable_ref, &call->tick);
    }
    int nargs = 1;
    if (call->reason) {
        lua_pushstring(L, call->reason);
        nargs = 2;
    }
    cd_limits_saved saved = cd_limits_begin(L, caller->limits);
    int status = lua_pcall(L, nargs, 0, msgh);         /* h [err] */
    if (status == LUA_OK) cd_limits_end(L, caller->limits, saved);
    else cd_limits_end_failed_hook(L, caller->limits, saved);
    if (shared) caller->shared_tick_busy = 0;
    return cd_settle(L, base, status);
}
