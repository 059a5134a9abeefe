/* package.searchpath and require's Lua searcher, written from the reference
 * manual's description (§6.3) and held to lua5.4's observed behaviour by
 * StdlibSearchersMatchLuaTests; cdscript's changes: the plugin folders and
 * the built-in plugins are searched first, and under the sandbox no file
 * outside the allowed folders is probed (see stdlib_internal.h). */

#include "stdlib_internal.h"
#include <lauxlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef LUA_LSUBSEP
#define LUA_LSUBSEP LUA_DIRSEP
#endif

/* Whether `filename` opens for reading; cdscript: under the sandbox only
 * inside the allowed folders, so that a script cannot probe the file system. */
static int opens_for_reading(lua_State *L, const char *filename, int sandbox) {
    int refused;
    FILE *file = cd_open_for_reading(L, filename, sandbox, &refused);
    if (file == NULL) return 0;
    fclose(file);
    return 1;
}

/* Walks `path`'s templates (separated by ';', each one kept even when empty)
 * with every '?' replaced by `name`. With `try_files`, the first file that
 * opens ends the walk: its name is pushed and returned. Otherwise (or when
 * none opens) the files are listed, "no file 'F'" joined by "\n\t", and NULL
 * is returned. Either way exactly one value is pushed. */
static const char *walk_templates(lua_State *L, const char *name, const char *path, int try_files) {
    int sandbox = try_files ? cd_stdlib_sandboxed(L) : 0;
    int listed = lua_gettop(L) + 1;
    lua_pushliteral(L, "");
    const char *template = path;
    for (int first = 1;; first = 0) {
        const char *end = strchr(template, *LUA_PATH_SEP);
        size_t length = end != NULL ? (size_t)(end - template) : strlen(template);
        lua_pushlstring(L, template, length);
        const char *file = luaL_gsub(L, lua_tostring(L, -1), LUA_PATH_MARK, name);
        if (try_files && opens_for_reading(L, file, sandbox)) {
            lua_replace(L, listed);
            lua_settop(L, listed);
            return lua_tostring(L, listed);
        }
        lua_pushfstring(L, "%sno file '%s'", first ? "" : "\n\t", file);
        lua_replace(L, -3);
        lua_pop(L, 1);
        lua_concat(L, 2);
        if (end == NULL) return NULL;
        template = end + 1;
    }
}

/* Pushes `name` with each `sep` in it turned into `dirsep` (as it is when sep is empty). */
static const char *module_path_part(lua_State *L, const char *name, const char *sep, const char *dirsep) {
    if (*sep == '\0') {
        lua_pushstring(L, name);
        return lua_tostring(L, -1);
    }
    return luaL_gsub(L, name, sep, dirsep);
}

/* Pushes the first file of `path` that opens (returning its name) or the
 * list of files tried (returning NULL). */
static const char *search_path(lua_State *L, const char *name, const char *path, const char *sep,
                               const char *dirsep) {
    const char *part = module_path_part(L, name, sep, dirsep);
    const char *found = walk_templates(L, part, path, 1);
    lua_remove(L, -2);
    return found;
}

int cd_std_searchpath(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    const char *path = luaL_checkstring(L, 2);
    const char *sep = luaL_optstring(L, 3, ".");
    const char *dirsep = luaL_optstring(L, 4, LUA_DIRSEP);
    if (search_path(L, name, path, sep, dirsep) != NULL) return 1;
    luaL_pushfail(L);
    lua_rotate(L, -2, 1);
    return 2;
}

/* What a searcher returns for a file it found: the loaded chunk and the file
 * name, or (the chunk did not compile) require's error. */
static int found_module(lua_State *L, const char *filename) {
    if (cd_load_file(L, filename, NULL) != LUA_OK)
        return luaL_error(L, "error loading module '%s' from file '%s':\n\t%s", lua_tostring(L, 1), filename,
                          lua_tostring(L, -1));
    lua_pushstring(L, filename);
    return 2;
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
    const char *part = module_path_part(L, name, ".", LUA_LSUBSEP);
    walk_templates(L, part, lua_tostring(L, -2), 0);
    lua_replace(L, -3);
    lua_pop(L, 1);
    return 1;
}

/* Pushes the loader of built-in plugin `name` and its "built-in:NAME" mark
 * (returns 1), or nothing (returns 0) when there is none. */
static int push_builtin_loader(lua_State *L, const char *name) {
    if (cd_stdlib_config_field(L, "builtins") != LUA_TTABLE) {
        lua_pop(L, 1);
        return 0;
    }
    lua_pushstring(L, name);
    if (lua_rawget(L, -2) != LUA_TSTRING) {
        lua_pop(L, 2);
        return 0;
    }
    size_t length;
    const char *source = lua_tolstring(L, -1, &length);
    const char *mark = lua_pushfstring(L, "built-in:%s", name);
    const char *chunkname = lua_pushfstring(L, "=(built-in plugin %s)", name);
    if (luaL_loadbufferx(L, source, length, chunkname, "t") != LUA_OK)
        return luaL_error(L, "error loading module '%s' from file '%s':\n\t%s", name, mark, lua_tostring(L, -1));
    cd_stdlib_config_field(L, "api");
    lua_pushcclosure(L, builtin_loader, 2);
    lua_pushstring(L, mark);
    return 1;
}

/* require's Lua searcher; cdscript: first the plugin folders' templates
 * (DIR/?.lua;DIR/?/init.lua), then the built-in plugins, then package.path, so
 * that plugins keep their order. Its not-found message is Lua's (package.path's
 * files): the plugin folders' lines come last in require's message, from
 * cd_searcher_croot_then_plugins (under the sandbox, which has no C searchers,
 * right after package.path's). */
int cd_searcher_lua(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    lua_getfield(L, lua_upvalueindex(1), "path");
    if (lua_tostring(L, -1) == NULL) return luaL_error(L, "'package.%s' must be a string", "path");
    int package_path = lua_gettop(L);
    if (push_plugin_templates(L, 0)) {
        if (search_path(L, name, lua_tostring(L, -1), ".", LUA_LSUBSEP) != NULL)
            return found_module(L, lua_tostring(L, -1));
        lua_settop(L, package_path);
    }
    /* Then a built-in plugin (a file in a plugin folder replaces one). */
    if (push_builtin_loader(L, name)) return 2;
    /* Then package.path, as Lua's own searcher. */
    if (search_path(L, name, lua_tostring(L, package_path), ".", LUA_LSUBSEP) != NULL)
        return found_module(L, lua_tostring(L, -1));
    if (cd_stdlib_sandboxed(L) && push_plugins_not_found(L, name)) {
        /* One message: each file tried, one a line, as require joins them. */
        lua_pushliteral(L, "\n\t");
        lua_rotate(L, -2, 1);
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
