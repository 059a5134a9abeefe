/* The settings of cdscript's standard functions, kept in the registry under a
 * private key that no script can name (see stdlib_internal.h). */

#include "stdlib_internal.h"

static const char CONFIG_KEY = 0;

void cd_stdlib_push_config(lua_State *L) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &CONFIG_KEY) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
    }
}

void cd_stdlib_save_config(lua_State *L) {
    lua_rawsetp(L, LUA_REGISTRYINDEX, &CONFIG_KEY);
}

int cd_stdlib_config_field(lua_State *L, const char *key) {
    cd_stdlib_push_config(L);
    lua_pushstring(L, key);
    int type = lua_rawget(L, -2);
    lua_remove(L, -2);
    return type;
}

int cd_stdlib_sandboxed(lua_State *L) {
    cd_stdlib_config_field(L, "sandbox");
    int on = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return on;
}
