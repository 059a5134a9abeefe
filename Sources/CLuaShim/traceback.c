/* Protected calls whose errors carry a Lua traceback. */
#include "CLuaTraceback.h"
#include "CLuaCallback.h"
#include <lauxlib.h>

int cd_traceback_handler(lua_State *L) {
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
    lua_pushcfunction(L, cd_traceback_handler);
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
    lua_pushcfunction(L, cd_traceback_handler);
    lua_insert(L, base);
    cd_limits_saved saved = cd_limits_begin(L, cd_get_limits(L));
    int status = lua_pcall(L, nargs, nresults, base);
    cd_limits_end(L, cd_get_limits(L), saved);
    lua_remove(L, base);
    return status;
}

void cd_push_traceback_handler(lua_State *L) {
    lua_pushcfunction(L, cd_traceback_handler);
}
