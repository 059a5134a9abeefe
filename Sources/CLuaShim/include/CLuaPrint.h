#ifndef CLUAPRINT_H
#define CLUAPRINT_H
/* Lua's `print`, writing through the host (print.c). Lua's own print ignores
 * write errors (fwrite's result is dropped), so a script printing into a
 * closed pipe or a full disk would run on, unheard; this one hands each line,
 * whole, to a writer the host sets, which sees the failure and ends the run. */
#include <stddef.h>
#include <lua.h>

/* Writes `count` bytes (one printed line, its newline included); returns 0,
 * or an errno when they could not be written. */
typedef int (*cd_output_writer)(const char *bytes, size_t count, const char *what);

/* Sets the writer for every state's print; NULL (the default) writes to stdout
 * as Lua does. */
void cd_set_output_writer(cd_output_writer writer);

/* The `print` function: arguments through luaL_tolstring (so __tostring and
 * __name apply, as in Lua), separated by tabs, ended by a newline. */
int cd_print(lua_State *L);
#endif
