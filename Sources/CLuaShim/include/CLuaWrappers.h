#ifndef CLUAWRAPPERS_H
#define CLUAWRAPPERS_H

/* What Swift cannot do with Lua by itself: the macros it cannot import, and a
 * way to raise a Lua error. Lua raises errors with longjmp, and a longjmp must
 * never cross a Swift frame, so Swift functions exposed to Lua return CD_RAISE
 * with the message pushed, and the C trampoline raises it after the Swift frame
 * has returned. */
#include <stddef.h>
#include <lua.h>
#include <lauxlib.h>

/* Returned by a host function to raise the error message on top of the stack. */
#define CD_RAISE (-1)

/* A Swift function exposed to Lua: returns its result count or CD_RAISE, and never
 * calls a function that raises. `context` is the pointer given at registration. */
typedef int (*cd_host_function)(lua_State *L, void *context);

/* Pushes a Lua function that calls `fn(L, context)`. */
void cd_push_host_function(lua_State *L, cd_host_function fn, void *context);

/* Macros, as functions. */
int cd_registry_index(void);
void cd_pop(lua_State *L, int n);
void cd_new_table(lua_State *L);
const char *cd_to_string(lua_State *L, int index, size_t *length);

/* Switches the collector to generational mode; returns the previous mode. */
int cd_gc_generational(lua_State *L);

/* Opens the standard libraries inside a protected call; returns a Lua status. */
int cd_open_libs(lua_State *L);

/* Loads source text only (precompiled bytecode can crash the VM); returns a Lua status
 * and leaves the chunk or the error message on the stack. */
int cd_load_text(lua_State *L, const char *source, size_t length, const char *chunk_name);
/* Loads a script's main chunk as lua.c does: source text, or a precompiled
 * (binary) chunk when `allow_binary` (outside --sandbox: `luac5.4 -o bc.lua x.lua`
 * then runs as `lua5.4 bc.lua` runs it). Without it a binary chunk is refused with
 * a message that names the chunk ("bc.lua: precompiled ..."), as LUA_ERRSYNTAX. */
int cd_load_script(lua_State *L, const char *source, size_t length, const char *chunk_name, int allow_binary);

/* Pushes the table at registry[key] (a light userdata key), made on first use
 * with weak keys: what the host keeps per Lua value, never keeping it alive. */
void cd_push_weak_keyed_table(lua_State *L, const void *key);

/* Pushes registry[ref]. */
void cd_push_ref(lua_State *L, int ref);
/* Pops the top value into the registry and returns its reference. */
int cd_ref(lua_State *L);
void cd_unref(lua_State *L, int ref);

/* Line-buffers stdout, so `print` output appears line by line even in a pipe. */
void cd_line_buffer_stdout(void);

#endif
