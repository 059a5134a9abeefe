/* Countdown handles: their metatable, and their registry references. */
#include "CLuaHandles.h"
#include <lauxlib.h>
#include <stdlib.h>

static const char *const HANDLE_METATABLE = "cdscript.handle";


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

void cd_push_handle_metatable(lua_State *L) {
    if (luaL_newmetatable(L, HANDLE_METATABLE)) {
        lua_pushstring(L, "countdown handle");
        lua_setfield(L, -2, "__name");
    }
    /* The registry keeps it for the state's life: its address stays valid. */
    cd_limits *limits = cd_get_limits(L);
    if (limits) limits->handle_metatable = lua_topointer(L, -1);
}

/* The handle metatable's __index: a method from the methods table (upvalue 1),
 * else `h.id`, which reads user value CD_UV_ID, or `h.title`, which calls the title
 * reader (upvalue 2, a host function: the title lives in the store's binding, not
 * in the handle). In C, because every method call (`h:cancel()`) comes through
 * here first; the methods come first because they are what is called over and
 * over (issue 53: comparing the key with "id" and then "title" first cost every
 * h:append() and h:cancel() 140 instructions more). No method is named id or title.
 * Upvalue 3 is the string "id", upvalue 4 the handle metatable, upvalue 5 the
 * string "title". */
static int handle_index(lua_State *L) {
    lua_settop(L, 2);
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1;
    int is_id = lua_rawequal(L, 2, lua_upvalueindex(3));
    if (is_id || lua_rawequal(L, 2, lua_upvalueindex(5))) {
        /* Reachable with any self through debug.getmetatable; user values need a handle. */
        if (lua_type(L, 1) != LUA_TUSERDATA || !lua_getmetatable(L, 1) || !lua_rawequal(L, -1, lua_upvalueindex(4)))
            return luaL_error(L, "%s: expected a countdown handle, got %s", is_id ? "id" : "title", luaL_typename(L, 1));
        lua_settop(L, 1);
        if (!is_id) {
            lua_pushvalue(L, lua_upvalueindex(2));
            lua_insert(L, 1);
            lua_call(L, 1, 1);
            return 1;
        }
        lua_getiuservalue(L, 1, CD_UV_ID);
        return 1;
    }
    return 1;   /* the nil the methods table gave */
}

void cd_push_handle_index(lua_State *L) {
    lua_pushliteral(L, "id");
    cd_push_handle_metatable(L);
    lua_pushliteral(L, "title");
    lua_pushcclosure(L, handle_index, 5);
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
