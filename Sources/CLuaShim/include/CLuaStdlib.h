#ifndef CLUASTDLIB_H
#define CLUASTDLIB_H

/* cdscript's versions of the standard functions whose behaviour the host
 * changes: `load`, `loadfile`, `dofile`, `string.rep`, `package.searchpath`,
 * `require`'s Lua searcher (package.searchers[2], which also searches the plugin
 * folders and the built-in plugins), `os.getenv` under the sandbox, and the
 * warning function that lua5.4's interpreter starts with. They are C
 * functions written here from the reference manual's description, with
 * lua5.4's messages (checked call for call against lua5.4 by
 * RewrittenStdlibMatchesLuaTests), so that scripts cannot tell them apart;
 * they read their settings from the registry, never from upvalues a script
 * could reach.
 *
 * Every function here that Swift calls runs its work in a protected call and
 * returns a Lua status: none raises across a Swift frame. */

#include <stddef.h>
#include <lua.h>

/* Installs the functions above into the state's libraries, sets the warning
 * function (warnings start off, as in lua5.4's interpreter) and records the settings:
 * `sandbox` (refuse bytecode and files outside the allowed folders, limit
 * os.getenv, drop the C searchers) and the longest string `string.rep` may
 * build (`rep_limit`, bytes; 0 for no limit beyond Lua's). */
int cd_stdlib_install(lua_State *L, int sandbox, size_t rep_limit);

/* The folders: `script_dir` (NULL for none) is where the sandbox lets a script
 * read and write files; the plugin folders are searched by `require` (before
 * package.path) and may be read under the sandbox. */
int cd_stdlib_set_folders(lua_State *L, const char *script_dir, const char *const *plugin_dirs, int count);

/* The built-in plugins: pops a table (name -> source text) and, below it, the
 * table of host helpers each built-in plugin gets as its second argument. */
int cd_stdlib_set_builtins(lua_State *L);

/* Opens `path` for appending, creating it (0644) when missing. With `root`
 * (the sandbox's writable folder) the file must resolve inside it: the folder
 * is opened and checked by its resolved path, the file is opened in it without
 * following a symbolic link (O_NOFOLLOW), and the opened file must be a
 * regular file with one link. Returns the descriptor, -1 with errno set, or
 * -2 when the sandbox refuses the path. */
int cd_open_append(const char *path, const char *root);

/* Whether the resolved path `resolved` is `root` or inside it, comparing
 * bytes (both must be absolute and free of symbolic links: realpath). */
int cd_path_inside(const char *resolved, const char *root);

#endif
