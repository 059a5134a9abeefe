#ifndef CLUACOVERAGE_H
#define CLUACOVERAGE_H

/* `--coverage` (coverage.c): every line that runs in a file chunk ("@..."),
 * counted in C by a line hook, per state, in arrays of counters per chunk (no
 * Lua table, no Swift call per line). The hook is set on every thread: the
 * state's (cd_coverage_start), each coroutine made after it (a new thread
 * inherits its maker's hook) and each coroutine resumed (cd_coverage_ensure, for
 * threads made before, or whose hook another path replaced). */

#include <stddef.h>
#include <stdint.h>
#include <lua.h>

/* Starts counting in the state of L (a state made by cd_new_limited_state;
 * others are not counted) and sets the hook on L. Returns 0 when it could not. */
int cd_coverage_start(lua_State *L);
/* Nonzero while the state of L counts. */
int cd_coverage_active(lua_State *L);
/* For a hook that sees a line event: counts it (after lua_getinfo "S"). */
void cd_coverage_count_line(lua_State *L, lua_Debug *ar);
/* The hook set on threads that have no hook of the script's own: counts lines,
 * charges count events to the instruction budget and stops on an interrupt. */
void cd_coverage_hook(lua_State *L, lua_Debug *ar);
/* Puts the coverage hook on `co` when the state counts and co's hook lacks it. */
void cd_coverage_ensure(lua_State *L, lua_State *co);

/* What was counted, file by file (read it before the state closes). Index
 * from 0 to cd_coverage_file_count - 1; the name is the chunk's source without
 * its "@" (`length` bytes, may hold any byte but NUL); counts[line] for line
 * 0..lines-1 (counts[0] is always 0). */
int cd_coverage_file_count(lua_State *L);
const char *cd_coverage_file_name(lua_State *L, int index, size_t *length);
const uint64_t *cd_coverage_file_counts(lua_State *L, int index, int *lines);
/* Forgets what was counted (files and counts); counting goes on. */
void cd_coverage_reset(lua_State *L);
/* Frees the counters of a closing state (cd_close_limited_state). */
void cd_coverage_free(void *coverage);

#endif
