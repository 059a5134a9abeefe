#ifndef CD_STDLIB_INTERNAL_H
#define CD_STDLIB_INTERNAL_H

/* What the files of cdscript's standard functions (CLuaStdlib.h) share, and
 * nothing Swift sees. The files, one idea each:
 *
 *   stdlib_config.c     the settings, in the registry
 *   sandbox_paths.c     the sandbox's folders: which paths may be read or appended to
 *   stdlib_loaders.c    load, loadfile, dofile
 *   stdlib_string_rep.c string.rep
 *   stdlib_searchers.c  package.searchpath and require's searchers (plugin folders, built-in plugins)
 *   stdlib_getenv.c     os.getenv under the sandbox
 *   stdlib_warnings.c   the warning function (as lua5.4's interpreter behaves)
 *   stdlib_install.c    putting them in place, and the settings Swift gives
 *
 * The bodies are written here from the reference manual's description of
 * each function (Lua 5.4, §5.1 and §6) and from what lua5.4 does when run
 * (its messages are observable behaviour and kept word for word); named tests
 * run the same calls under lua5.4 and cdscript and compare every line
 * (Tests/EndToEndTests/RewrittenStdlibMatchesLuaTests.swift). What cdscript
 * changes is marked "cdscript:". scripts/shared-lines counts the lines these
 * files share with another project's sources.
 *
 * Why C: wrappers written in Lua show up in line hooks and tracebacks, name
 * internal functions in their errors, and keep the raw loaders in upvalues
 * that debug.getupvalue hands to any script. These functions have no upvalues
 * but the package table (as Lua's own searcher has); their settings live in
 * the registry under a private key. */

#include <stdio.h>
#include <lua.h>
#include "CLuaInternal.h"

/* ---- the settings (stdlib_config.c) ------------------------------------ */

/* registry[private key]: { sandbox = bool, rep_limit = int, script_dir = string?,
 * plugin_dirs = {string...}, builtins = {name = source}, api = table } */

/* Pushes the settings table (an empty one before cd_stdlib_install). */
CD_INTERNAL void cd_stdlib_push_config(lua_State *L);

/* Pops a table and keeps it as the settings. */
CD_INTERNAL void cd_stdlib_save_config(lua_State *L);

/* Pushes config[key] (raw); returns its type. */
CD_INTERNAL int cd_stdlib_config_field(lua_State *L, const char *key);

/* Whether the sandbox is on. */
CD_INTERNAL int cd_stdlib_sandboxed(lua_State *L);

/* ---- reading under the sandbox (sandbox_paths.c) ----------------------- */

/* Why a file that cd_open_for_reading refused was not opened. */
#define CD_READ_REFUSED "outside the script's folder and the plugin folders (--sandbox)"

/* Opens `name` for reading; under the sandbox only inside the allowed folders,
 * and the path opened is the resolved one that was checked. NULL with errno
 * set, or with *refused set. */
CD_INTERNAL FILE *cd_open_for_reading(lua_State *L, const char *name, int sandbox, int *refused);

/* ---- the loaders (stdlib_loaders.c) ------------------------------------ */

/* Loads a file as luaL_loadfilex is documented to (NULL: standard input);
 * cdscript: under the sandbox the file must be inside the
 * allowed folders, stdin is refused, and a binary chunk is refused whatever
 * the mode. */
CD_INTERNAL int cd_load_file(lua_State *L, const char *filename, const char *mode);

CD_INTERNAL int cd_std_load(lua_State *L);
CD_INTERNAL int cd_std_loadfile(lua_State *L);
CD_INTERNAL int cd_std_dofile(lua_State *L);

/* ---- the other functions installed ------------------------------------- */

CD_INTERNAL int cd_std_rep(lua_State *L);        /* stdlib_string_rep.c */
CD_INTERNAL int cd_std_searchpath(lua_State *L); /* stdlib_searchers.c */
CD_INTERNAL int cd_sandbox_getenv(lua_State *L); /* stdlib_getenv.c */

/* require's Lua searcher (package.searchers[2]); upvalue 1: the package table. */
CD_INTERNAL int cd_searcher_lua(lua_State *L);

/* package.searchers[4] (upvalue 1), then the plugin folders' lines. */
CD_INTERNAL int cd_searcher_croot_then_plugins(lua_State *L);

/* The warning function a state starts with, as in lua5.4's interpreter: off until "@on". */
CD_INTERNAL void cd_warn_off(void *ud, const char *message, int tocont);

#endif
