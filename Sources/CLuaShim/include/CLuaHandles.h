#ifndef CLUAHANDLES_H
#define CLUAHANDLES_H

/* Countdown handles (handles.c): the userdata a script holds, and its registry references. */
#include <stdint.h>
#include <lua.h>
#include "CLuaHookCaller.h"

/* A countdown handle's payload (defined below). */
typedef struct cd_handle cd_handle;

/* cd_ref for a countdown's handle (popped from the top). Keys released by
 * cd_unref_handle come first (one store). Otherwise (countdowns being started,
 * none ended) the key after the last one given is usually still free (nil), and
 * taking it costs one lookup, where luaL_ref reads its free list and then the
 * registry's length. */
int cd_ref_handle(lua_State *L, cd_hook_caller *caller);
/* Releases a reference cd_ref_handle gave (two stores, where luaL_unref reads
 * and writes its free list in the registry). */
void cd_unref_handle(lua_State *L, cd_hook_caller *caller, int ref);

/* A countdown handle as Lua holds it: a full userdata with this payload. */
struct cd_handle {
    int32_t slot;
    uint32_t generation;
    /* The state to report once the countdown has ended (CountdownState raw value). */
    uint8_t final_state;
    /* 1 when the countdown is kept in the store (started with persist, or fetched). */
    uint8_t persistent;
    /* The tick interval, kept so that append can restart an ended countdown. */
    int64_t every_ns;
};

/* Pushes a new handle userdata with the handle metatable (created on first use,
 * stored in the registry under "cdscript.handle") and 4 user values (CD_UV_*). */
cd_handle *cd_new_handle(lua_State *L);
/* The handle at `index`, or NULL when the value there is not one. */
cd_handle *cd_to_handle(lua_State *L, int index);
/* Pushes the handle metatable. */
void cd_push_handle_metatable(lua_State *L);
/* Replaces the methods table and the title reader (a function of the handle) on
 * top of the stack with the handle metatable's __index function: `h.id`,
 * `h.title`, else the method of that name. */
void cd_push_handle_index(lua_State *L);

#endif
