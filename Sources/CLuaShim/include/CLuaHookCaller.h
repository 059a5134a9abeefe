#ifndef CLUAHOOKCALLER_H
#define CLUAHOOKCALLER_H

/* Calling a countdown's hooks (hook_caller.c), and what the calls need, made
 * once per state. */
#include <stddef.h>
#include <stdint.h>
#include <lua.h>
#include "CLuaInternal.h"
#include "CLuaCallback.h"
#include "CLuaSlots.h"
#include "CLuaTick.h"

/* How many distinct on_tick functions cd_share_tick_hook keeps at once. */
#define CD_SHARED_TICK_HOOKS 8

/* An on_tick function shared by running countdowns, held in the registry. */
typedef struct cd_shared_tick_hook {
    /* The function's address while `uses` > 0, else NULL. */
    const void *fn;
    /* Its registry key, taken once when the caller is made (false while unused). */
    int ref;
    /* Running countdowns that tick with it. */
    int uses;
} cd_shared_tick_hook;

/* Countdowns by id (ids.c): from an id (a Lua string, so any bytes) to the
 * registry reference of the handle of the running countdown started under it.
 * An open-addressing table, at most half full, 8 bytes a slot: the id's hash and
 * the handle's reference, not the id. The id is kept once, as the handle's user
 * value CD_UV_ID, and read from there when a hash matches (issue 53: with its
 * bytes and length beside the hash, a slot took 24 bytes, 50 per id at 1,000,000). */
typedef struct cd_id_entry {
    uint32_t hash;
    int ref;                                           /* 0: an empty slot */
} cd_id_entry;
typedef struct cd_id_map {
    cd_id_entry *entries;
    uint32_t mask;                                     /* capacity - 1 */
    uint32_t count;
} cd_id_map;

/* What calling hooks needs, made once per state: the state's limits, the tick
 * metatable and the shared tick, each reached without a lookup by name. */
typedef struct cd_hook_caller {
    cd_limits *limits;
    int tick_metatable_ref;
    int shared_tick_ref;
    void *shared_tick;
    /* Set while a hook holds the shared tick: a hook nested in it (a start's
     * first tick inside a hook) gets a fresh one. */
    int shared_tick_busy;
    /* The names of countdown.start's options (CD_OPTION_*), as the interned Lua
     * strings a script's table uses for its keys, kept alive by `option_names_ref`:
     * a key is recognised by comparing addresses. */
    const char *option_names[CD_OPTION_COUNT];
    int option_names_ref;
    /* Countdowns by id (ids.c). */
    cd_id_map ids;
    /* The last hook judged by cd_tick_stays_local, and its verdict: countdowns
     * started in a loop share their hook. The function itself is held weakly in
     * the table registry[last_hook_ref] (so a collected function is never
     * mistaken for a new one at the same address, and none is kept alive). */
    const void *last_hook;
    int last_hook_local;
    int last_hook_ref;
    /* The handle metatable, reached without a lookup by name. */
    int handle_metatable_ref;
    /* The registry key cd_ref_handle tries first: one past the last it gave. */
    int next_handle_ref;
    /* Handle references released (cd_unref_handle) and not yet taken again, taken
     * first by cd_ref_handle. Their registry entries hold 0 meanwhile: not nil, so
     * luaL_ref (which hands out the key past the registry's border) never gives
     * them to anyone else, and not on luaL_ref's free list either. */
    int *free_handle_refs;
    int free_handle_count;
    int free_handle_capacity;
    /* on_tick functions that lend themselves to the shared tick, by the number
     * cd_share_tick_hook gave (its index + 1). */
    cd_shared_tick_hook shared_tick_hooks[CD_SHARED_TICK_HOOKS];
    /* The handle reference of the hook call in flight (LUA_NOREF: none), so that a
     * countdown ending inside its own hook keeps its handle (and id) until the
     * call returns; `in_flight_ended` records that it ended. Set by the host
     * around each hook call, and by cd_run_tick_batch around each of its own. */
    int in_flight_ref;
    int in_flight_ended;
} cd_hook_caller;

/* Makes the caller for a state (in a protected call); NULL when that failed. */
cd_hook_caller *cd_hook_caller_new(lua_State *L);
void cd_hook_caller_free(cd_hook_caller *caller);

/* The flags of the handle at `index`, from its id and hooks (every flag but
 * CD_HOOK_PERSISTENT). */
int cd_hook_flags(lua_State *L, cd_hook_caller *caller, int index);

/* For a countdown whose on_tick (user value CD_UV_TICK of the handle at `index`) lets its
 * `t` go (`flags`, its cd_hook_flags, say so): a number from 1 to
 * CD_SHARED_TICK_HOOKS under which cd_call_hook finds that function without
 * reading the handle, one more use of it; 0 when the countdown has no such hook
 * or all the numbers are taken by other functions. Never raises. */
int cd_share_tick_hook(lua_State *L, cd_hook_caller *caller, int index, int flags);
/* One use less of the function cd_share_tick_hook numbered `shared_hook` (0:
 * nothing); the last lets it go. Never raises. */
void cd_release_tick_hook(lua_State *L, cd_hook_caller *caller, int shared_hook);

/* What one hook call is about: the countdown, the hook and the tick. */
typedef struct cd_hook_call {
    /* The countdown's handle is registry[handle_ref]; it holds the id and the
     * hooks in its user values (CD_UV_ID, CD_UV_TICK, CD_UV_DONE). */
    int handle_ref;
    /* on_tick or on_done. */
    cd_hook_slot hook;
    /* The countdown's cd_hook_flags. */
    int flags;
    /* The countdown's cd_share_tick_hook number (0 for none): its on_tick is then
     * called without reading the handle (one memory access less per tick, to a
     * place no other tick reads). */
    int shared_hook;
    /* The tick's fields. */
    cd_tick tick;
    /* NULL for on_tick, else the second argument of on_done. */
    const char *reason;
} cd_hook_call;

/* Calls a countdown's hook with a tick (`call` says which), protected, with a
 * traceback handler. `msgh` is the stack index of a traceback handler already in
 * place, which the run loop keeps, or 0 (a call nested in a host function) to
 * push one for this call.
 * From the run loop, a hook that cannot keep its `t` gets the one shared tick
 * instead of a new one.
 * Returns a Lua status; on error the message (with traceback) is left on top
 * of the stack. Returns LUA_OK without a call when the hook is absent. */
int cd_call_hook(lua_State *L, cd_hook_caller *caller, int msgh, const cd_hook_call *call);

/* ---- for the shim's own files --------------------------------------- */

/* Whether the function at `index` (whose address is `fn`) lets its `t` go
 * (cd_tick_stays_local), the last verdict kept: countdowns started in a loop
 * share their hook. Pins the function for the rest of the callback. */
CD_INTERNAL int cd_hook_is_local_at(lua_State *L, cd_hook_caller *caller, int index, const void *fn);
static inline int cd_hook_is_local(lua_State *L, cd_hook_caller *caller, int index) {
    return cd_hook_is_local_at(L, caller, index, lua_topointer(L, index));
}
/* cd_share_tick_hook for the on_tick function at `index`, whose address is `fn`. */
CD_INTERNAL int cd_share_tick_hook_at(lua_State *L, cd_hook_caller *caller, int index, const void *fn);

/* Inline, as they were while one file held the hook caller and the batch: each
 * runs for every tick. */
/* Fills the shared tick with `tick` for the countdown whose handle is
 * registry[handle_ref], and marks it as held. */
static inline void cd_hold_shared_tick(cd_hook_caller *caller, int handle_ref, const cd_tick *tick) {
    cd_tick_box *box = (cd_tick_box *)caller->shared_tick;
    box->tick = *tick;
    box->handle_ref = handle_ref;
    caller->shared_tick_busy = 1;
}

/* The stack after a protected hook call begun at `base`: nothing left above it
 * after success, the error message alone at base + 1 after an error. */
static inline int cd_settle(lua_State *L, int base, int status) {
    if (status == LUA_OK) {
        lua_settop(L, base);
    } else {
        lua_copy(L, -1, base + 1);
        lua_settop(L, base + 1);
    }
    return status;
}

#endif
