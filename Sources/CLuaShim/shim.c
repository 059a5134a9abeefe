#include "CLuaShim.h"
#include "CLuaLimits.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const HANDLE_METATABLE = "cdscript.handle";

/* A host function's upvalue: one read of an upvalue per call instead of three
 * (the function, its context, and the state's limits, which the state keeps from
 * its creation to its close). */
typedef struct host_closure {
    cd_host_function fn;
    void *context;
    cd_limits *limits;
} host_closure;

static int trampoline(lua_State *L) {
    const host_closure *closure = (const host_closure *)lua_touserdata(L, lua_upvalueindex(1));
    cd_host_function fn = closure->fn;
    void *context = closure->context;
    /* Host code never meets the memory cap: its allocations must not raise. */
    cd_limits *limits = closure->limits;
    if (limits && limits->run_over)
        return luaL_error(L, "the run is over: a finalizer at exit cannot call cdscript's functions");
    int capped = limits ? limits->capped : 0;
    if (limits) limits->capped = 0;
    int n = fn(L, context);
    if (limits) limits->capped = capped;
    if (n == CD_RAISE) {
        /* Prefix "file:line:" of the calling Lua code, as luaL_error does. */
        if (lua_type(L, -1) == LUA_TSTRING) {
            luaL_where(L, 1);
            lua_insert(L, -2);
            lua_concat(L, 2);
        }
        return lua_error(L);
    }
    return n;
}

void cd_push_host_function(lua_State *L, cd_host_function fn, void *context) {
    host_closure *closure = (host_closure *)lua_newuserdatauv(L, sizeof(host_closure), 0);
    closure->fn = fn;
    closure->context = context;
    closure->limits = cd_get_limits(L);
    lua_pushcclosure(L, trampoline, 1);
}

int cd_registry_index(void) { return LUA_REGISTRYINDEX; }
void cd_pop(lua_State *L, int n) { lua_pop(L, n); }
void cd_new_table(lua_State *L) { lua_newtable(L); }
const char *cd_to_string(lua_State *L, int index, size_t *length) { return lua_tolstring(L, index, length); }

int cd_gc_generational(lua_State *L) {
    return lua_gc(L, LUA_GCGEN, 0, 0);
}

static int open_libs(lua_State *L) {
    luaL_openlibs(L);
    lua_pushcfunction(L, cd_print);
    lua_setglobal(L, "print");
    return 0;
}

int cd_open_libs(lua_State *L) {
    lua_pushcfunction(L, open_libs);
    return lua_pcall(L, 0, 0, 0);
}

int cd_load_text(lua_State *L, const char *source, size_t length, const char *chunk_name) {
    return luaL_loadbufferx(L, source, length, chunk_name, "t");
}

int cd_load_script(lua_State *L, const char *source, size_t length, const char *chunk_name, int allow_binary) {
    if (length == 0 || source[0] != LUA_SIGNATURE[0]) return luaL_loadbufferx(L, source, length, chunk_name, "t");
    if (allow_binary) return luaL_loadbufferx(L, source, length, chunk_name, "b");
    /* Crafted bytecode can crash the VM: under --sandbox scripts are source only. */
    const char *name = (chunk_name[0] == '@' || chunk_name[0] == '=') ? chunk_name + 1 : chunk_name;
    lua_pushfstring(L, "%s: precompiled (binary) chunks are refused under --sandbox (run the Lua source instead)", name);
    return LUA_ERRSYNTAX;
}

static int traceback_handler(lua_State *L) {
    const char *message = lua_tostring(L, 1);
    if (message == NULL) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
            message = lua_tostring(L, -1);
        else
            message = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, message, 1);
    return 1;
}

int cd_pcall_hook(lua_State *L, int nargs, int nresults) {
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, traceback_handler);
    lua_insert(L, base);
    cd_limits *limits = cd_get_limits(L);
    cd_limits_saved saved = cd_limits_begin(L, limits);
    int status = lua_pcall(L, nargs, nresults, base);
    if (status == LUA_OK) cd_limits_end(L, limits, saved);
    else cd_limits_end_failed_hook(L, limits, saved);
    lua_remove(L, base);
    return status;
}

int cd_pcall_traceback(lua_State *L, int nargs, int nresults) {
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, traceback_handler);
    lua_insert(L, base);
    cd_limits_saved saved = cd_limits_begin(L, cd_get_limits(L));
    int status = lua_pcall(L, nargs, nresults, base);
    cd_limits_end(L, cd_get_limits(L), saved);
    lua_remove(L, base);
    return status;
}

/* ---- ticks ---------------------------------------------------------- */

static const char TICK_METATABLE_KEY = 0;

/* A tick's payload. A tick handed to a hook that may keep it links to its
 * countdown's handle through its user value (for `t.id`, even after the countdown
 * has ended); the shared tick (see cd_call_hook) names the handle by reference
 * instead, valid for as long as the hook runs. */
typedef struct tick_box {
    cd_tick tick;
    int handle_ref;
} tick_box;

static const char *const TICK_FIELDS[CD_TICK_FIELD_COUNT + 1] = {
    [CD_TICK_ID] = "id", [CD_TICK_REMAINING] = "remaining", [CD_TICK_DAYS] = "days",
    [CD_TICK_HOURS] = "hours", [CD_TICK_MINUTES] = "minutes", [CD_TICK_SECONDS] = "seconds",
    [CD_TICK_TENTHS] = "tenths", [CD_TICK_ELAPSED] = "elapsed", [CD_TICK_PROGRESS] = "progress",
    [CD_TICK_MISSED] = "missed", [CD_TICK_OVERTIME] = "overtime", [CD_TICK_FIELD_COUNT] = NULL
};

/* Pushes field `i` of the tick at `index`; units are truncated, as clocks show them. */
static void push_tick_field(lua_State *L, int index, const cd_tick *t, cd_tick_field i) {
    int64_t r = t->remaining_ns < 0 ? 0 : t->remaining_ns;
    int64_t secs = r / 1000000000;
    int64_t elapsed = t->total_ns - r;
    if (elapsed < 0) elapsed = 0;
    switch (i) {
    case CD_TICK_ID: {
        /* The countdown's handle (the tick's user value 1), whose CD_UV_ID is the id. */
        int handle_ref = ((const tick_box *)t)->handle_ref;
        int type = handle_ref != LUA_NOREF ? lua_rawgeti(L, LUA_REGISTRYINDEX, handle_ref)
                                           : lua_getiuservalue(L, index, 1);
        if (type == LUA_TUSERDATA) {
            lua_getiuservalue(L, -1, CD_UV_ID);
            lua_remove(L, -2);
        } else {
            lua_pop(L, 1);
            lua_pushnil(L);
        }
        break;
    }
    case CD_TICK_REMAINING: lua_pushnumber(L, (lua_Number)r / 1e9); break;
    case CD_TICK_DAYS: lua_pushinteger(L, secs / 86400); break;
    case CD_TICK_HOURS: lua_pushinteger(L, (secs / 3600) % 24); break;
    case CD_TICK_MINUTES: lua_pushinteger(L, (secs / 60) % 60); break;
    case CD_TICK_SECONDS: lua_pushinteger(L, secs % 60); break;
    case CD_TICK_TENTHS: lua_pushinteger(L, (r / 100000000) % 10); break;
    case CD_TICK_ELAPSED: lua_pushnumber(L, (lua_Number)elapsed / 1e9); break;
    case CD_TICK_PROGRESS: {
        lua_Number p = t->total_ns <= 0 ? 1.0 : (lua_Number)elapsed / (lua_Number)t->total_ns;
        lua_pushnumber(L, p < 0 ? 0 : p > 1 ? 1 : p);
        break;
    }
    case CD_TICK_MISSED: lua_pushinteger(L, t->missed); break;
    /* Seconds past the end of an overtime countdown (its remaining below zero); 0 before. */
    case CD_TICK_OVERTIME: lua_pushnumber(L, t->remaining_ns < 0 ? (lua_Number)(-t->remaining_ns) / 1e9 : 0); break;
    case CD_TICK_FIELD_COUNT:
    default: lua_pushnil(L);
    }
}

static int tick_field_index(const char *key) {
    for (int i = 0; TICK_FIELDS[i]; i++)
        if (strcmp(key, TICK_FIELDS[i]) == 0) return i;
    return -1;
}

static int tick_index(lua_State *L) {
    const cd_tick *t = (const cd_tick *)lua_touserdata(L, 1);
    const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
    int i = key ? tick_field_index(key) : -1;
    if (i < 0) lua_pushnil(L);
    else push_tick_field(L, 1, t, i);
    return 1;
}

static int tick_newindex(lua_State *L) {
    return luaL_error(L, "a tick is read-only (copy the fields you need into a table of your own)");
}

static int tick_next(lua_State *L) {
    const cd_tick *t = (const cd_tick *)lua_touserdata(L, 1);
    int i = lua_isnil(L, 2) ? 0 : tick_field_index(lua_tostring(L, 2)) + 1;
    for (; TICK_FIELDS[i]; i++) {
        push_tick_field(L, 1, t, i);
        if (!lua_isnil(L, -1)) {
            lua_pushstring(L, TICK_FIELDS[i]);
            lua_insert(L, -2);
            return 2;
        }
        lua_pop(L, 1);
    }
    lua_pushnil(L);
    return 1;
}

static int tick_pairs(lua_State *L) {
    lua_pushcfunction(L, tick_next);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

static int tick_tostring(lua_State *L) {
    const cd_tick *t = (const cd_tick *)lua_touserdata(L, 1);
    push_tick_field(L, 1, t, CD_TICK_ID);
    const char *id = lua_tostring(L, -1);
    lua_pushfstring(L, "tick of %s%s%s: %f s remaining", id ? "\"" : "", id ? id : "an anonymous countdown",
                    id ? "\"" : "", (lua_Number)(t->remaining_ns < 0 ? 0 : t->remaining_ns) / 1e9);
    return 1;
}

static void push_tick_metatable(lua_State *L) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &TICK_METATABLE_KEY) != LUA_TNIL) return;
    lua_pop(L, 1);
    lua_createtable(L, 0, 6);
    lua_pushcfunction(L, tick_index);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, tick_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushcfunction(L, tick_pairs);
    lua_setfield(L, -2, "__pairs");
    lua_pushcfunction(L, tick_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pushstring(L, "countdown tick");
    lua_setfield(L, -2, "__name");
    lua_pushstring(L, "locked");
    lua_setfield(L, -2, "__metatable");
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &TICK_METATABLE_KEY);
}

/* Pushes a new tick box; its user value (when `handle_index` is nonzero) is the
 * handle. The metatable is registry[metatable_ref], or looked up by key for LUA_NOREF. */
static tick_box *new_tick(lua_State *L, int handle_index, int metatable_ref, const cd_tick *tick) {
    tick_box *t = (tick_box *)lua_newuserdatauv(L, sizeof(tick_box), handle_index != 0);
    t->tick = *tick;
    t->handle_ref = LUA_NOREF;
    if (handle_index != 0) {
        lua_pushvalue(L, handle_index);
        lua_setiuservalue(L, -2, 1);
    }
    if (metatable_ref != LUA_NOREF) lua_rawgeti(L, LUA_REGISTRYINDEX, metatable_ref);
    else push_tick_metatable(L);
    lua_setmetatable(L, -2);
    return t;
}

void cd_push_tick(lua_State *L, int handle_index, const cd_tick *tick) {
    if (handle_index < 0) handle_index = lua_gettop(L) + handle_index + 1;
    new_tick(L, handle_index, LUA_NOREF, tick);
}

const cd_tick *cd_to_tick(lua_State *L, int index) {
    if (lua_type(L, index) != LUA_TUSERDATA || !lua_getmetatable(L, index)) return NULL;
    lua_rawgetp(L, LUA_REGISTRYINDEX, &TICK_METATABLE_KEY);
    int same = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
    return same ? &((const tick_box *)lua_touserdata(L, index))->tick : NULL;
}

void cd_push_traceback_handler(lua_State *L) {
    lua_pushcfunction(L, traceback_handler);
}

/* ---- calling hooks ---------------------------------------------------- */

static const char *const OPTION_NAMES[CD_OPTION_COUNT] = {
    "id", "seconds", "at", "every", "on_tick", "on_done", "on_error", "persist"
};

static int make_hook_caller(lua_State *L) {
    cd_hook_caller *caller = (cd_hook_caller *)lua_touserdata(L, 1);
    push_tick_metatable(L);
    caller->tick_metatable_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    cd_tick zero = {0, 0, 0};
    caller->shared_tick = new_tick(L, 0, caller->tick_metatable_ref, &zero);
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
static int hook_is_local_at(lua_State *L, cd_hook_caller *caller, int index, const void *fn) {
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

static int hook_is_local(lua_State *L, cd_hook_caller *caller, int index) {
    return hook_is_local_at(L, caller, index, lua_topointer(L, index));
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
        if (type == LUA_TFUNCTION && hook_is_local(L, caller, lua_gettop(L))) flags |= cd_hook_local_flag(hook);
        lua_pop(L, 1);
    }
    return flags;
}

/* Fills the shared tick with `tick` for the countdown whose handle is
 * registry[handle_ref], and marks it as held. */
static void hold_shared_tick(cd_hook_caller *caller, int handle_ref, const cd_tick *tick) {
    tick_box *box = (tick_box *)caller->shared_tick;
    box->tick = *tick;
    box->handle_ref = handle_ref;
    caller->shared_tick_busy = 1;
}

/* Pushes the on_tick function cd_share_tick_hook numbered `shared_hook` and the
 * shared tick, held (hold_shared_tick). */
static void push_shared_tick_call(lua_State *L, cd_hook_caller *caller, int shared_hook, int handle_ref, const cd_tick *tick) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, caller->shared_tick_hooks[shared_hook - 1].ref);  /* fn */
    lua_rawgeti(L, LUA_REGISTRYINDEX, caller->shared_tick_ref);                         /* fn t */
    hold_shared_tick(caller, handle_ref, tick);
}

/* The stack after a protected hook call begun at `base`: nothing left above it
 * after success, the error message alone at base + 1 after an error. */
static int settle(lua_State *L, int base, int status) {
    if (status == LUA_OK) {
        lua_settop(L, base);
    } else {
        lua_copy(L, -1, base + 1);
        lua_settop(L, base + 1);
    }
    return status;
}

/* cd_share_tick_hook for the on_tick function at `index`. */
/* `fn` is the address of the function at `index` (lua_topointer). */
static int share_tick_hook_at(lua_State *L, cd_hook_caller *caller, int index, const void *fn) {
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
    if (lua_getiuservalue(L, index, CD_UV_TICK) == LUA_TFUNCTION) shared = share_tick_hook_at(L, caller, lua_gettop(L), lua_topointer(L, -1));
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

int cd_call_hook(lua_State *L, cd_hook_caller *caller, int msgh, int handle_ref, cd_hook_slot hook, int flags, int shared_hook,
                 int64_t remaining_ns, int64_t total_ns, int64_t missed, const char *reason) {
    const cd_tick tick = {remaining_ns, total_ns, missed};
    /* Every API call here runs for every tick: no rotations (lua_rotate,
     * lua_insert, lua_remove, lua_replace each cost as much as a table read). */
    int base = lua_gettop(L);
    int from_loop = msgh != 0;
    if (!from_loop) {
        lua_pushcfunction(L, traceback_handler);
        msgh = base + 1;
    }
    /* A shared on_tick with the shared tick free: neither the handle nor its
     * registry entry is read (the tick names the countdown by reference). */
    if (hook == CD_HOOK_ON_TICK && shared_hook > 0 && !caller->shared_tick_busy) {
        push_shared_tick_call(L, caller, shared_hook, handle_ref, &tick);  /* fn t */
        cd_limits_saved saved = cd_limits_begin(L, caller->limits);
        int status = lua_pcall(L, 1, 0, msgh);        /* [err] */
        if (status == LUA_OK) cd_limits_end(L, caller->limits, saved);
        else cd_limits_end_failed_hook(L, caller->limits, saved);
        caller->shared_tick_busy = 0;
        return settle(L, base, status);
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
        tick_box *t = (tick_box *)caller->shared_tick;
        t->tick = tick;
        t->handle_ref = handle_ref;
        caller->shared_tick_busy = 1;
    } else {                                           /* h fn t */
        /* An anonymous countdown's tick needs no link to its handle: its id stays nil. */
        new_tick(L, (flags & CD_HOOK_HAS_ID) ? handle_index : 0, caller->tick_metatable_ref, &tick);
    }
    int nargs = 1;
    if (reason) {
        lua_pushstring(L, reason);
        nargs = 2;
    }
    cd_limits_saved saved = cd_limits_begin(L, caller->limits);
    int status = lua_pcall(L, nargs, 0, msgh);         /* h [err] */
    if (status == LUA_OK) cd_limits_end(L, caller->limits, saved);
    else cd_limits_end_failed_hook(L, caller->limits, saved);
    if (shared) caller->shared_tick_busy = 0;
    return settle(L, base, status);
}

/* ---- ticks in a row -------------------------------------------------- */

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
    traceback_handler(L);                              /* error ... traceback */
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
        hold_shared_tick(caller, t->handle_ref, &tick);
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
    return settle(L, base, status);
}

int cd_ref_handle(lua_State *L, cd_hook_caller *caller) {
    if (caller->free_handle_count > 0) {
        int ref = caller->free_handle_refs[--caller->free_handle_count];
        lua_rawseti(L, LUA_REGISTRYINDEX, ref);
        return ref;
    }
    int ref = caller->next_handle_ref;
    /* A nil key is nobody's: luaL_ref only hands out keys on its free list (which
     * hold the list's links) and the one past a border (the registry's length),
     * and after this store that border lies further on. */
    if (ref > 0 && lua_rawgeti(L, LUA_REGISTRYINDEX, ref) == LUA_TNIL) {
        lua_settop(L, -2);
        lua_rawseti(L, LUA_REGISTRYINDEX, ref);
    } else {
        if (ref > 0) lua_settop(L, -2);
        ref = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    caller->next_handle_ref = ref + 1;
    return ref;
}

void cd_unref_handle(lua_State *L, cd_hook_caller *caller, int ref) {
    if (ref <= 0) return;
    if (caller->free_handle_count == caller->free_handle_capacity) {
        int capacity = caller->free_handle_capacity ? caller->free_handle_capacity * 2 : 64;
        int *refs = (int *)realloc(caller->free_handle_refs, sizeof(int) * (size_t)capacity);
        if (refs == NULL) {
            /* Out of memory here: luaL_ref's own free list takes the key instead. */
            luaL_unref(L, LUA_REGISTRYINDEX, ref);
            return;
        }
        caller->free_handle_refs = refs;
        caller->free_handle_capacity = capacity;
    }
    lua_pushinteger(L, 0);
    lua_rawseti(L, LUA_REGISTRYINDEX, ref);
    caller->free_handle_refs[caller->free_handle_count++] = ref;
}

void cd_push_weak_keyed_table(lua_State *L, const void *key) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, key) == LUA_TTABLE) return;
    lua_pop(L, 1);
    lua_createtable(L, 0, 4);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, key);
}

void cd_push_ref(lua_State *L, int ref) { lua_rawgeti(L, LUA_REGISTRYINDEX, ref); }
int cd_ref(lua_State *L) { return luaL_ref(L, LUA_REGISTRYINDEX); }
void cd_unref(lua_State *L, int ref) { luaL_unref(L, LUA_REGISTRYINDEX, ref); }

void cd_push_handle_metatable(lua_State *L) {
    if (luaL_newmetatable(L, HANDLE_METATABLE)) {
        lua_pushstring(L, "countdown handle");
        lua_setfield(L, -2, "__name");
    }
    /* The registry keeps it for the state's life: its address stays valid. */
    cd_limits *limits = cd_get_limits(L);
    if (limits) limits->handle_metatable = lua_topointer(L, -1);
}

/* The handle metatable's __index: `h.id` reads user value CD_UV_ID, anything else is
 * looked up in the methods table (upvalue 1). In C, because every method call
 * (`h:cancel()`) comes through here first. Upvalue 2 is the string "id",
 * upvalue 3 the handle metatable. */
static int handle_index(lua_State *L) {
    if (lua_rawequal(L, 2, lua_upvalueindex(2))) {
        /* Reachable with any self through debug.getmetatable; user values need a handle. */
        if (lua_type(L, 1) != LUA_TUSERDATA || !lua_getmetatable(L, 1) || !lua_rawequal(L, -1, lua_upvalueindex(3)))
            return luaL_error(L, "id: expected a countdown handle, got %s", luaL_typename(L, 1));
        lua_settop(L, 1);
        lua_getiuservalue(L, 1, CD_UV_ID);
        return 1;
    }
    lua_settop(L, 2);
    lua_rawget(L, lua_upvalueindex(1));
    return 1;
}

void cd_push_handle_index(lua_State *L) {
    lua_pushliteral(L, "id");
    cd_push_handle_metatable(L);
    lua_pushcclosure(L, handle_index, 3);
}

cd_handle *cd_new_handle(lua_State *L) {
    cd_handle *h = (cd_handle *)lua_newuserdatauv(L, sizeof(cd_handle), 4);
    h->slot = -1;
    h->generation = 0;
    h->final_state = 0;
    h->persistent = 0;
    h->every_ns = 1000000000;
    cd_push_handle_metatable(L);
    lua_setmetatable(L, -2);
    return h;
}

cd_handle *cd_to_handle(lua_State *L, int index) {
    cd_limits *limits = cd_get_limits(L);
    if (limits == NULL || limits->handle_metatable == NULL)
        return (cd_handle *)luaL_testudata(L, index, HANDLE_METATABLE);
    /* luaL_testudata's test without its lookup of the metatable by name (a string
     * key in the registry): the same answer at a third of the cost. */
    if (lua_type(L, index) != LUA_TUSERDATA || !lua_getmetatable(L, index)) return NULL;
    const void *metatable = lua_topointer(L, -1);
    lua_settop(L, -2);
    return metatable == limits->handle_metatable ? (cd_handle *)lua_touserdata(L, index) : NULL;
}

/* ---- starting countdowns ------------------------------------------------ */

/* The options each quick read takes (a mask of 1 << CD_OPTION_*): fetch's are the
 * start's less what a stored countdown already has (its id, duration and
 * persistence). */
#define START_OPTIONS ((1 << CD_OPTION_ID) | (1 << CD_OPTION_SECONDS) | (1 << CD_OPTION_EVERY) | \
                       (1 << CD_OPTION_ON_TICK) | (1 << CD_OPTION_ON_DONE) | (1 << CD_OPTION_PERSIST))
#define FETCH_OPTIONS ((1 << CD_OPTION_EVERY) | (1 << CD_OPTION_ON_TICK) | (1 << CD_OPTION_ON_DONE))

/* cd_start_read and cd_fetch_read: one pass over the options at `index`, any key
 * outside `allowed` sending the caller the long way. Inlined into each, so that
 * `allowed` is a constant there. */
static inline __attribute__((always_inline)) int read_options(lua_State *L, cd_hook_caller *caller, int index,
                                                              cd_start_options *options, int allowed, int needs_seconds) {
    if (lua_type(L, index) != LUA_TTABLE) return 0;
    index = lua_absindex(L, index);
    int base = lua_gettop(L);
    int has_seconds = 0;
    options->has_every = 0;
    options->found = 0;
    options->base = base;
    options->id_index = options->tick_index = options->done_index = 0;
    /* The id and the hooks stay where lua_next put them, each with its key below
     * it and a copy of the key above to go on from: no copying into slots of their
     * own, and no pop. At most three, so at most six slots more than a plain walk. */
    int kept = 0;
    /* One pass over the table: each key is found by address among the names, so
     * the check for unknown keys costs nothing more. */
    lua_pushnil(L);
    while (lua_next(L, index) != 0) {                  /* ... key value */
        int value = base + 2 + 2 * kept;
        int keep = 0;
        /* One call for the key's type and text: a number key is converted in place,
         * harmless, since it matches no name and the loop ends here (its next
         * lua_next would have needed the key as it was). */
        const char *key = lua_tolstring(L, -2, NULL);
        if (key == NULL) goto long_way;
        int option = 0;
        while (option < CD_OPTION_COUNT && caller->option_names[option] != key) option++;
        int type = lua_type(L, -1);
        /* Each case checks `allowed` itself: a constant once inlined, so that the
         * check costs nothing where the option is allowed. */
#define ALLOWED(option) if (!(allowed & (1 << (option)))) goto long_way
        switch (option) {
        case CD_OPTION_ID: {
            ALLOWED(CD_OPTION_ID);
            size_t length;
            const char *bytes = type == LUA_TSTRING ? lua_tolstring(L, -1, &length) : NULL;
            if (bytes == NULL || length == 0) goto long_way;
            options->id_index = value;
            keep = 1;
            options->found |= CD_HOOK_HAS_ID;
            /* The id's slot is a cache miss in a big table: start fetching it now,
             * a few hundred instructions before the handle binds it. */
            options->id_hash = cd_prefetch_id_slot(caller, bytes, length);
            break;
        }
        case CD_OPTION_SECONDS:
            ALLOWED(CD_OPTION_SECONDS);
            if (type != LUA_TNUMBER) goto long_way;
            options->seconds = lua_tonumberx(L, -1, NULL);
            has_seconds = 1;
            break;
        case CD_OPTION_EVERY:
            ALLOWED(CD_OPTION_EVERY);
            if (type != LUA_TNUMBER) goto long_way;
            options->every = lua_tonumberx(L, -1, NULL);
            options->has_every = 1;
            break;
        case CD_OPTION_ON_TICK:
        case CD_OPTION_ON_DONE:
            ALLOWED(option);
            if (type != LUA_TFUNCTION) goto long_way;
            if (option == CD_OPTION_ON_TICK) {
                options->tick_index = value;
                options->found |= CD_HOOK_HAS_TICK;
            } else {
                options->done_index = value;
                options->found |= CD_HOOK_HAS_DONE;
            }
            keep = 1;
            break;
        case CD_OPTION_PERSIST:
            ALLOWED(CD_OPTION_PERSIST);
            if (type != LUA_TBOOLEAN || lua_toboolean(L, -1)) goto long_way;
            break;
        default:                                       /* at, on_error, unknown */
            goto long_way;
        }
#undef ALLOWED
        if (keep) {
            lua_pushvalue(L, -2);                      /* ... key value key */
            kept++;
        } else {
            lua_settop(L, -2);                         /* ... key */
        }
    }
    if (has_seconds || !needs_seconds) return 1;
long_way:
    lua_settop(L, base);
    return 0;
}

int cd_start_read(lua_State *L, cd_hook_caller *caller, int index, cd_start_options *options) {
    return read_options(L, caller, index, options, START_OPTIONS, 1);
}

int cd_fetch_read(lua_State *L, cd_hook_caller *caller, int index, cd_start_options *options) {
    return read_options(L, caller, index, options, FETCH_OPTIONS, 0);
}

cd_handle *cd_start_handle(lua_State *L, cd_hook_caller *caller, const cd_start_options *options, int64_t every_ns,
                           int *flags, int *shared_hook, int *ref, cd_handle **replaced) {
    int base = options->base;
    int f = options->found;
    /* User values up to the last one given, not four: lua_getiuservalue of a
     * missing one pushes nil (and says LUA_TNONE), which every reader takes as
     * absent; the quick path never has an on_error (CD_UV_ERROR), which
     * ErrorPolicy then reads as the default. 16 bytes less per countdown for each
     * one left out (a countdown with on_tick alone: 80 bytes, not 128 with all four), and less
     * memory for the collector to go through. */
    int user_values = (f & CD_HOOK_HAS_DONE) ? CD_UV_DONE : (f & CD_HOOK_HAS_ID) ? CD_UV_ID : (f & CD_HOOK_HAS_TICK) ? CD_UV_TICK : 0;
    cd_handle *h = (cd_handle *)lua_newuserdatauv(L, sizeof(cd_handle), user_values);
    int handle = lua_gettop(L);
    h->slot = -1;
    h->generation = 0;
    h->final_state = 0;
    h->persistent = 0;
    h->every_ns = every_ns;
    lua_rawgeti(L, LUA_REGISTRYINDEX, caller->handle_metatable_ref);
    lua_setmetatable(L, handle);
    /* New user values are nil: set only those given (cd_start_read says which). */
    if (f & CD_HOOK_HAS_ID) {
        lua_pushvalue(L, options->id_index);
        lua_setiuservalue(L, handle, CD_UV_ID);
    }
    const void *tick_fn = NULL;
    if (f & CD_HOOK_HAS_TICK) {
        tick_fn = lua_topointer(L, options->tick_index);
        if (hook_is_local_at(L, caller, options->tick_index, tick_fn)) f |= CD_HOOK_TICK_LOCAL;
        lua_pushvalue(L, options->tick_index);
        lua_setiuservalue(L, handle, CD_UV_TICK);
    }
    if (f & CD_HOOK_HAS_DONE) {
        if (hook_is_local(L, caller, options->done_index)) f |= CD_HOOK_DONE_LOCAL;
        lua_pushvalue(L, options->done_index);
        lua_setiuservalue(L, handle, CD_UV_DONE);
    }
    lua_pushvalue(L, handle);
    int r = cd_ref_handle(L, caller);
    *replaced = NULL;
    if ((f & CD_HOOK_HAS_ID) && !cd_bind_id_at(L, caller, options->id_index, options->id_hash, h, r, replaced)) {
        cd_unref_handle(L, caller, r);
        lua_settop(L, handle - 1);
        return NULL;
    }
    *shared_hook = (f & CD_HOOK_TICK_LOCAL) ? share_tick_hook_at(L, caller, options->tick_index, tick_fn) : 0;
    lua_copy(L, handle, base + 1);
    lua_settop(L, base + 1);                           /* h */
    *flags = f;
    *ref = r;
    return h;
}

cd_handle *cd_fetch_handle(lua_State *L, cd_hook_caller *caller, cd_start_options *options, int id_index, int64_t every_ns,
                           int *flags, int *shared_hook, int *ref, cd_handle **replaced) {
    size_t length;
    const char *bytes = lua_tolstring(L, id_index, &length);
    options->id_index = id_index;
    options->found |= CD_HOOK_HAS_ID;
    options->id_hash = cd_prefetch_id_slot(caller, bytes, length);
    cd_handle *h = cd_start_handle(L, caller, options, every_ns, flags, shared_hook, ref, replaced);
    if (h) h->persistent = 1;
    return h;
}

void cd_line_buffer_stdout(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
}
