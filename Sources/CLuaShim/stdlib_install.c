/* Puts cdscript's standard functions in place (see CLuaStdlib.h; why they are
 * C, and which file holds which, in stdlib_internal.h), and records the
 * settings Swift gives: the sandbox, string.rep's cap, the folders and the
 * built-in plugins. Each entry point runs its work in a protected call. */

#include "CLuaStdlib.h"
#include "stdlib_internal.h"
#include <lauxlib.h>
#include <lualib.h>

static void set_raw(lua_State *L, int table, const char *key) {
    table = lua_absindex(L, table);
    lua_pushstring(L, key);
    lua_insert(L, -2);
    lua_rawset(L, table);
}

static int install(lua_State *L) {
    int sandbox = lua_toboolean(L, 1);
    lua_Integer rep_limit = lua_tointeger(L, 2);
    lua_settop(L, 0);
    lua_createtable(L, 0, 6); /* 1: config */
    lua_pushboolean(L, sandbox);
    set_raw(L, 1, "sandbox");
    lua_pushinteger(L, rep_limit);
    set_raw(L, 1, "rep_limit");
    lua_newtable(L);
    set_raw(L, 1, "plugin_dirs");
    lua_pushvalue(L, 1);
    cd_stdlib_save_config(L);

    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS); /* 2: _G */
    lua_pushcfunction(L, cd_std_load);
    set_raw(L, 2, "load");
    lua_pushcfunction(L, cd_std_loadfile);
    set_raw(L, 2, "loadfile");
    lua_pushcfunction(L, cd_std_dofile);
    set_raw(L, 2, "dofile");

    lua_pushstring(L, "string");
    if (lua_rawget(L, 2) == LUA_TTABLE) {
        lua_pushcfunction(L, cd_std_rep);
        set_raw(L, -2, "rep");
    }
    lua_pop(L, 1);

    lua_pushstring(L, "package");
    if (lua_rawget(L, 2) == LUA_TTABLE) { /* 3: package */
        lua_pushstring(L, "searchers");
        if (lua_rawget(L, 3) == LUA_TTABLE) {
            lua_pushvalue(L, 3);
            lua_pushcclosure(L, cd_searcher_lua, 1);
            lua_rawseti(L, -2, 2);
            if (!sandbox) {
                if (lua_rawgeti(L, -1, 4) == LUA_TFUNCTION) {
                    lua_pushcclosure(L, cd_searcher_croot_then_plugins, 1);
                    lua_rawseti(L, -2, 4);
                } else {
                    lua_pop(L, 1);
                }
            }
            if (sandbox) {
                /* No C modules under the sandbox. */
                lua_pushnil(L);
                lua_rawseti(L, -2, 4);
                lua_pushnil(L);
                lua_rawseti(L, -2, 3);
            }
        }
        lua_pop(L, 1);
        if (sandbox) {
            lua_pushcfunction(L, cd_std_searchpath);
            set_raw(L, 3, "searchpath");
        }
    }
    lua_pop(L, 1);

    if (sandbox) {
        lua_pushstring(L, "os");
        if (lua_rawget(L, 2) == LUA_TTABLE) {
            lua_pushcfunction(L, cd_sandbox_getenv);
            set_raw(L, -2, "getenv");
        }
        lua_pop(L, 1);
    }
    lua_setwarnf(L, cd_warn_off, L);
    return 0;
}

int cd_stdlib_install(lua_State *L, int sandbox, size_t rep_limit) {
    lua_pushcfunction(L, install);
    lua_pushboolean(L, sandbox);
    lua_pushinteger(L, (lua_Integer)rep_limit);
    int status = lua_pcall(L, 2, 0, 0);
    if (status != LUA_OK) lua_pop(L, 1);
    return status;
}

static int set_folders(lua_State *L) {
    const char *script_dir = (const char *)lua_touserdata(L, 1);
    const char *const *dirs = (const char *const *)lua_touserdata(L, 2);
    int count = (int)lua_tointeger(L, 3);
    cd_stdlib_push_config(L);
    int config = lua_gettop(L);
    if (script_dir) lua_pushstring(L, script_dir);
    else lua_pushnil(L);
    set_raw(L, config, "script_dir");
    lua_createtable(L, count, 0);
    for (int i = 0; i < count; i++) {
        lua_pushstring(L, dirs[i]);
        lua_rawseti(L, -2, i + 1);
    }
    set_raw(L, config, "plugin_dirs");
    return 0;
}

int cd_stdlib_set_folders(lua_State *L, const char *script_dir, const char *const *plugin_dirs, int count) {
    lua_pushcfunction(L, set_folders);
    lua_pushlightuserdata(L, (void *)script_dir);
    lua_pushlightuserdata(L, (void *)plugin_dirs);
    lua_pushinteger(L, count);
    int status = lua_pcall(L, 3, 0, 0);
    if (status != LUA_OK) lua_pop(L, 1);
    return status;
}

static int set_builtins(lua_State *L) {
    cd_stdlib_push_config(L);
    lua_pushvalue(L, 2);
    set_raw(L, -2, "builtins");
    lua_pushvalue(L, 1);
    set_raw(L, -2, "api");
    return 0;
}

int cd_stdlib_set_builtins(lua_State *L) {
    lua_pushcfunction(L, set_builtins);
    lua_insert(L, -3);
    int status = lua_pcall(L, 2, 0, 0);
    if (status != LUA_OK) lua_pop(L, 1);
    return status;
}
