/* package.searchpath and require's searchers (loadlib.c): the plugin folders
 * and the built-in plugins first, and under the sandbox no probing of files
 * outside the allowed folders (see stdlib_internal.h). */

#include "stdlib_internal.h"
#include <lauxlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef LUA_LSUBSEP
#define LUA_LSUBSEP LUA_DIRSEP
#endif

/* readable(); cdscript: under the sandbox only inside the allowed folders, so
 * that a script cannot probe the file system. */
static int readable(lua_State *L, const char *filename, int sandbox) {
    int refused;
    FILE *f = cd_open_for_reading(L, filename, sandbox, &refused);
    if (f == NULL) return 0;
    fclose(f);
    return 1;
}

static const char *getnextfilename(char **path, char *end) {
    char *sep;
    char *name = *path;
    if (name == end) return NULL;
    else if (*name == '\0') {
        *name = *LUA_PATH_SEP;
        name++;
    }
    sep = strchr(name, *LUA_PATH_SEP);
    if (sep == NULL) sep = end;
    *sep = '\0';
    *path = sep;
    return name;
}

static void pusherrornotfound(lua_State *L, const char *path) {
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addstring(&b, "no file '");
    luaL_addgsub(&b, path, LUA_PATH_SEP, "'\n\tno file '");
    luaL_addstring(&b, "'");
    luaL_pushresult(&b);
}

static const char *searchpath(lua_State *L, const char *name, const char *path, const char *sep,
                              const char *dirsep) {
    luaL_Buffer buff;
    char *pathname;
    char *endpathname;
    const char *filename;
    int sandbox = cd_stdlib_sandboxed(L);
    if (*sep != '\0' && strchr(name, *sep) != NULL) name = luaL_gsub(L, name, sep, dirsep);
    luaL_buffinit(L, &buff);
    luaL_addgsub(&buff, path, LUA_PATH_MARK, name);
    luaL_addchar(&buff, '\0');
    pathname = luaL_buffaddr(&buff);
    endpathname = pathname + luaL_bufflen(&buff) - 1;
    while ((filename = getnextfilename(&pathname, endpathname)) != NULL) {
        if (readable(L, filename, sandbox)) return lua_pushstring(L, filename);
    }
    luaL_pushresult(&buff);
    pusherrornotfound(L, lua_tostring(L, -1));
    return NULL;
}

int cd_std_searchpath(lua_State *L) {
    const char *f = searchpath(L, luaL_checkstring(L, 1), luaL_checkstring(L, 2), luaL_optstring(L, 3, "."),
                               luaL_optstring(L, 4, LUA_DIRSEP));
    if (f != NULL) return 1;
    luaL_pushfail(L);
    lua_insert(L, -2);
    return 2;
}

static int checkload(lua_State *L, int stat, const char *filename) {
    if (stat) {
        lua_pushstring(L, filename);
        return 2;
    }
    return luaL_error(L, "error loading module '%s' from file '%s':\n\t%s", lua_tostring(L, 1), filename,
                      lua_tostring(L, -1));
}

/* A built-in plugin's chunk gets its name and the host helpers as `...`. */
static int builtin_loader(lua_State *L) {
    lua_settop(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1);
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_call(L, 2, 1);
    return 1;
}

/* The plugin folders as path templates (DIR/?.lua;DIR/?/init.lua), pushed as
 * one string; returns 0 (and pushes nothing) when there are none. With
 * `existing`, only folders that exist: a not-found message names no file in a
 * folder that is not there (so that, without plugin folders, it is Lua's). */
static int push_plugin_templates(lua_State *L, int existing) {
    int pieces = 0;
    if (cd_stdlib_config_field(L, "plugin_dirs") == LUA_TTABLE) {
        int dirs = lua_gettop(L);
        lua_Integer n = (lua_Integer)lua_rawlen(L, dirs);
        for (lua_Integer i = 1; i <= n; i++) {
            luaL_checkstack(L, 3, "too many plugin folders");
            if (lua_rawgeti(L, dirs, i) == LUA_TSTRING) {
                const char *dir = lua_tostring(L, -1);
                struct stat st;
                /* A folder whose name holds ';' or '?' cannot be a template. */
                if (strpbrk(dir, LUA_PATH_SEP LUA_PATH_MARK) == NULL &&
                    (!existing || (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)))) {
                    lua_pushfstring(L, "%s%s/" LUA_PATH_MARK ".lua" LUA_PATH_SEP "%s/" LUA_PATH_MARK "/init.lua",
                                    pieces > 0 ? LUA_PATH_SEP : "", dir, dir);
                    lua_remove(L, -2);
                    pieces++;
                    continue;
                }
            }
            lua_pop(L, 1);
        }
        if (pieces > 0) lua_concat(L, pieces);
        lua_remove(L, dirs);
    } else {
        lua_pop(L, 1);
    }
    return pieces > 0;
}

/* The "no file" lines for the plugin folders that exist, or nothing. */
static int push_plugins_not_found(lua_State *L, const char *name) {
    if (!push_plugin_templates(L, 1)) return 0;
    name = luaL_gsub(L, name, ".", LUA_LSUBSEP);
    const char *templates = luaL_gsub(L, lua_tostring(L, -2), LUA_PATH_MARK, name);
    pusherrornotfound(L, templates);
    lua_replace(L, -4);
    lua_pop(L, 2);
    return 1;
}

/* searcher_Lua; cdscript: first the plugin folders' templates
 * (DIR/?.lua;DIR/?/init.lua), then the built-in plugins, then package.path, so
 * that plugins keep their order. Its not-found message is Lua's (package.path's
 * files): the plugin folders' lines come last in require's message, from
 * cd_searcher_croot_then_plugins (under the sandbox, which has no C searchers,
 * right after package.path's). */
int cd_searcher_lua(lua_State *L) {
    const char *filename;
    const char *name = luaL_checkstring(L, 1);
    lua_getfield(L, lua_upvalueindex(1), "path");
    const char *path = lua_tostring(L, -1);
    if (path == NULL) luaL_error(L, "'package.%s' must be a string", "path");
    int top = lua_gettop(L); /* package.path */
    if (push_plugin_templates(L, 0)) {
        filename = searchpath(L, name, lua_tostring(L, top + 1), ".", LUA_LSUBSEP);
        if (filename != NULL) return checkload(L, (cd_load_file(L, filename, NULL) == LUA_OK), filename);
        lua_settop(L, top);
    }
    /* Then a built-in plugin (a file on the plugin path replaces one). */
    if (cd_stdlib_config_field(L, "builtins") == LUA_TTABLE) {
        lua_pushvalue(L, 1);
        if (lua_rawget(L, -2) == LUA_TSTRING) {
            size_t len;
            const char *source = lua_tolstring(L, -1, &len);
            const char *where = lua_pushfstring(L, "built-in:%s", name);
            const char *chunkname = lua_pushfstring(L, "=(built-in plugin %s)", name);
            int status = luaL_loadbufferx(L, source, len, chunkname, "t");
            if (status != LUA_OK) return checkload(L, 0, where);
            cd_stdlib_config_field(L, "api");
            lua_pushcclosure(L, builtin_loader, 2);
            lua_pushstring(L, where);
            return 2;
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    /* Then package.path, as Lua's own searcher. */
    filename = searchpath(L, name, lua_tostring(L, top), ".", LUA_LSUBSEP);
    if (filename != NULL) return checkload(L, (cd_load_file(L, filename, NULL) == LUA_OK), filename);
    if (cd_stdlib_sandboxed(L) && push_plugins_not_found(L, name)) {
        /* One message: each file tried, one a line, as findloader joins them. */
        lua_pushliteral(L, "\n\t");
        lua_insert(L, -2);
        lua_concat(L, 3);
    }
    return 1;
}

/* Lua's all-in-one C searcher (upvalue 1), then the plugin folders' lines:
 * cd_searcher_lua searched them first, so this names the files it looked for
 * there after Lua's own lines, keeping Lua's four searchers. */
int cd_searcher_croot_then_plugins(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    lua_settop(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1);
    lua_call(L, 1, 2);
    if (lua_isfunction(L, 2)) return 2; /* found a loader */
    lua_settop(L, 2);
    int said = lua_isstring(L, 2);
    if (said) lua_pushliteral(L, "\n\t");
    if (!push_plugins_not_found(L, name)) {
        lua_settop(L, 2);
        return said ? 1 : 0;
    }
    if (said) lua_concat(L, 3); /* Lua's lines, "\n\t", the plugin folders' */
    return 1;
}
