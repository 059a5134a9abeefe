#ifndef CLUATICK_H
#define CLUATICK_H

/* A hook's `t` (tick.c). */
#include <stdint.h>
#include <lua.h>
#include <lauxlib.h>
#include "CLuaInternal.h"

/* A hook's `t`: a read-only snapshot of one tick. It is a small userdata, not a
 * table, so that a tick costs one allocation; its fields (id, remaining, days,
 * hours, minutes, seconds, tenths, elapsed, progress, missed) are computed on
 * access by its metatable, and `pairs(t)` lists them. */
typedef struct cd_tick {
    int64_t remaining_ns;
    int64_t total_ns;
    int64_t missed;
} cd_tick;

/* Pushes a new tick of the countdown whose handle is at `handle_index` (0 for none). */
void cd_push_tick(lua_State *L, int handle_index, const cd_tick *tick);

/* The tick at `index`, or NULL when the value there is not one. */
const cd_tick *cd_to_tick(lua_State *L, int index);

/* The name of tick field CD_TICK_* `field` as Lua reads it (NULL past
 * CD_TICK_FIELD_COUNT - 1). */
const char *cd_tick_field_name(int field);

/* ---- for the shim's own files --------------------------------------- */

/* A tick's payload. A tick handed to a hook that may keep it links to its
 * countdown's handle through its user value (for `t.id`, even after the countdown
 * has ended); the shared tick (see cd_call_hook) names the handle by reference
 * instead, valid for as long as the hook runs. */
typedef struct cd_tick_box {
    cd_tick tick;
    int handle_ref;
} cd_tick_box;

/* Pushes the tick metatable, made on first use. */
CD_INTERNAL void cd_push_tick_metatable(lua_State *L);

/* Inline: it runs for every tick handed to a hook that may keep it. */
/* Pushes a new tick box; its user value (when `handle_index` is nonzero) is the
 * handle. The metatable is registry[metatable_ref], or looked up by key for LUA_NOREF. */
static inline cd_tick_box *cd_new_tick_box(lua_State *L, int handle_index, int metatable_ref, const cd_tick *tick) {
    cd_tick_box *t = (cd_tick_box *)lua_newuserdatauv(L, sizeof(cd_tick_box), handle_index != 0);
    t->tick = *tick;
    t->handle_ref = LUA_NOREF;
    if (handle_index != 0) {
        lua_pushvalue(L, handle_index);
        lua_setiuservalue(L, -2, 1);
    }
    if (metatable_ref != LUA_NOREF) lua_rawgeti(L, LUA_REGISTRYINDEX, metatable_ref);
    else cd_push_tick_metatable(L);
    lua_setmetatable(L, -2);
    return t;
}

#endif
