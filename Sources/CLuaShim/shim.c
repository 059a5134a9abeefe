#include "CLuaShim.h"
#include <stdio.h>

static const char *const HANDLE_METATABLE = "cdscript.handle";

static int trampoline(lua_State *L) {
    cd_host_function fn = (cd_host_function)lua_touserdata(L, lua_upvalueindex(1));
    void *context = lua_touserdata(L, lua_upvalueindex(2));
    int n = fn(L, context);
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
    lua_pushlightuserdata(L, (void *)fn);
    lua_pushlightuserdata(L, context);
    lua_pushcclosure(L, trampoline, 2);
}

int cd_registry_index(void) { return LUA_REGISTRYINDEX; }
int cd_upvalue_index(int i) { return lua_upvalueindex(i); }
void cd_pop(lua_State *L, int n) { lua_pop(L, n); }
void cd_new_table(lua_State *L) { lua_newtable(L); }
const char *cd_to_string(lua_State *L, int index, size_t *length) { return lua_tolstring(L, index, length); }
int cd_is_none_or_nil(lua_State *L, int index) { return lua_isnoneornil(L, index); }
int cd_is_integer(lua_State *L, int index) { return lua_isinteger(L, index); }

static int open_libs(lua_State *L) {
    luaL_openlibs(L);
    return 0;
}

int cd_open_libs(lua_State *L) {
    lua_pushcfunction(L, open_libs);
    return lua_pcall(L, 0, 0, 0);
}

int cd_load_text(lua_State *L, const char *source, size_t length, const char *chunk_name) {
    return luaL_loadbufferx(L, source, length, chunk_name, "t");
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

int cd_pcall_traceback(lua_State *L, int nargs, int nresults) {
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, traceback_handler);
    lua_insert(L, base);
    int status = lua_pcall(L, nargs, nresults, base);
    lua_remove(L, base);
    return status;
}

void cd_push_tick_table(lua_State *L, int id_index, const cd_tick_fields *f) {
    if (id_index < 0) id_index = lua_gettop(L) + id_index + 1;
    lua_createtable(L, 0, 10);
    if (id_index != 0) {
        lua_pushvalue(L, id_index);
        lua_setfield(L, -2, "id");
    }
    lua_pushnumber(L, f->remaining);
    lua_setfield(L, -2, "remaining");
    lua_pushinteger(L, f->days);
    lua_setfield(L, -2, "days");
    lua_pushinteger(L, f->hours);
    lua_setfield(L, -2, "hours");
    lua_pushinteger(L, f->minutes);
    lua_setfield(L, -2, "minutes");
    lua_pushinteger(L, f->seconds);
    lua_setfield(L, -2, "seconds");
    lua_pushinteger(L, f->tenths);
    lua_setfield(L, -2, "tenths");
    lua_pushnumber(L, f->elapsed);
    lua_setfield(L, -2, "elapsed");
    lua_pushnumber(L, f->progress);
    lua_setfield(L, -2, "progress");
    lua_pushinteger(L, f->missed);
    lua_setfield(L, -2, "missed");
}

void cd_push_ref(lua_State *L, int ref) { lua_rawgeti(L, LUA_REGISTRYINDEX, ref); }
int cd_ref(lua_State *L) { return luaL_ref(L, LUA_REGISTRYINDEX); }
void cd_unref(lua_State *L, int ref) { luaL_unref(L, LUA_REGISTRYINDEX, ref); }

void cd_push_handle_metatable(lua_State *L) {
    if (luaL_newmetatable(L, HANDLE_METATABLE)) {
        lua_pushstring(L, "countdown handle");
        lua_setfield(L, -2, "__name");
    }
}

cd_handle *cd_new_handle(lua_State *L) {
    cd_handle *h = (cd_handle *)lua_newuserdatauv(L, sizeof(cd_handle), 3);
    h->slot = -1;
    h->generation = 0;
    h->final_state = 0;
    h->every_ns = 1000000000;
    cd_push_handle_metatable(L);
    lua_setmetatable(L, -2);
    return h;
}

cd_handle *cd_to_handle(lua_State *L, int index) {
    return (cd_handle *)luaL_testudata(L, index, HANDLE_METATABLE);
}

void cd_line_buffer_stdout(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
}
