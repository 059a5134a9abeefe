/* countdown.start's floor: the steps any start of
 *   { seconds = 1, every = 0.1, on_tick = f }
 * must take through Lua's C API, with nothing of cdscript's around them (no
 * scheduler, no metatable, no id table, no limits, no Swift). `cdbench ops --op
 * start_floor` runs it in the loop `--op start` runs countdown.start in, so that
 * the two counts differ by what the host adds to Lua's own work. */
#include "CBenchFloor.h"
#include <lauxlib.h>

/* The option names, interned: a key is known by its address, as cd_start_read
 * knows it. Anchored in the function's first three upvalues. */
static const char *name_seconds, *name_every, *name_on_tick;
/* The table every first tick hands the hook (cdscript shares one likewise). */
static int tick_ref;
/* Handles kept so far, each at the next key of the function's table of them (its
 * fourth upvalue): one raw store into an array, as cd_ref_handle's common case
 * stores into the registry's. */
static lua_Integer handles;

static int start_floor(lua_State *L) {
    if (lua_type(L, 1) != LUA_TTABLE) return luaL_error(L, "start_floor: options must be a table");
    lua_settop(L, 1);
    double seconds = 0, every = 1;
    int hook = 0;
    /* One pass: each key known by address; the hook stays where lua_next put
     * it, with a copy of its key above to go on from. */
    lua_pushnil(L);
    while (lua_next(L, 1) != 0) {
        const char *key = lua_tolstring(L, -2, NULL);
        if (key == name_seconds) {
            seconds = lua_tonumberx(L, -1, NULL);
        } else if (key == name_every) {
            every = lua_tonumberx(L, -1, NULL);
        } else if (key == name_on_tick && lua_type(L, -1) == LUA_TFUNCTION) {
            hook = lua_gettop(L);
            lua_pushvalue(L, -2);
            continue;
        } else {
            return luaL_error(L, "start_floor: unknown option");
        }
        lua_settop(L, -2);
    }
    if (!(seconds > 0) || !(every > 0) || hook == 0) return luaL_error(L, "start_floor: seconds, every and on_tick are needed");
    /* The handle: it keeps the hook as its user value and its length. */
    double *handle = (double *)lua_newuserdatauv(L, 2 * sizeof(double), 1);
    handle[0] = seconds;
    handle[1] = every;
    lua_pushvalue(L, hook);
    lua_setiuservalue(L, -2, 1);
    /* Kept alive while it runs. */
    lua_pushvalue(L, -1);
    lua_rawseti(L, lua_upvalueindex(4), ++handles);
    /* The first tick, inside the start: a protected call of the hook. */
    lua_pushvalue(L, hook);
    lua_rawgeti(L, LUA_REGISTRYINDEX, tick_ref);
    if (lua_pcall(L, 1, 0, 0) != LUA_OK) lua_settop(L, -2);
    return 1;
}

void cdb_register_start_floor(lua_State *L) {
    lua_createtable(L, 0, 0);
    tick_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    handles = 0;
    lua_pushliteral(L, "seconds");
    lua_pushliteral(L, "every");
    lua_pushliteral(L, "on_tick");
    name_seconds = lua_tostring(L, -3);
    name_every = lua_tostring(L, -2);
    name_on_tick = lua_tostring(L, -1);
    lua_createtable(L, 0, 0);
    lua_pushcclosure(L, start_floor, 4);
    lua_setglobal(L, "start_floor");
}
