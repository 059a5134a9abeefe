/* The Lua API's macros as functions Swift can call, the trampoline that lets a
 * Swift function raise a Lua error without a longjmp across its frame, loading,
 * and registry references. */
#include "CLuaWrappers.h"
#include "CLuaLimits.h"
#include "CLuaPrint.h"
#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>

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

void cd_line_buffer_stdout(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
}
