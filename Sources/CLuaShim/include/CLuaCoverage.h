#ifndef CLUACOVERAGE_H
#define CLUACOVERAGE_H

/* `--coverage` (coverage.c): every line that runs in a file chunk ("@..."),
 * counted in C by a line hook, per state, in arrays of counters per chunk (no
 * Lua table, no Swift call per line). Which thread gets the hook, and when, is
 * hooks.c's (cd_coverage_start, cd_coverage_ensure in CLuaScriptHooks.h): this
 * file counts, and knows nothing of who installs it. */

#include <stddef.h>
#include <stdint.h>
#include <lua.h>

/* New, empty counters (NULL when out of memory), to be kept in the state's
 * limits (`coverage`), and freed with cd_coverage_counters_free. */
void *cd_coverage_counters_new(void);
void cd_coverage_counters_free(void *coverage);
/* Nonzero while the state of L counts. */
int cd_coverage_active(lua_State *L);
/* For a hook that sees a line event: counts it (after lua_getinfo "S"). */
void cd_coverage_count_line(lua_State *L, lua_Debug *ar);
/* The hook set on threads that have no hook of the script's own: counts lines,
 * charges count events to the instruction budget and stops on an interrupt. */
void cd_coverage_hook(lua_State *L, lua_Debug *ar);

/* What was counted, file by file (read it before the state closes). Index
 * from 0 to cd_coverage_file_count - 1; the name is the chunk's source without
 * its "@" (`length` bytes, may hold any byte but NUL); counts[line] for line
 * 0..lines-1 (counts[0] is always 0). */
int cd_coverage_file_count(lua_State *L);
const char *cd_coverage_file_name(lua_State *L, int index, size_t *length);
const uint64_t *cd_coverage_file_counts(lua_State *L, int index, int *lines);
/* Forgets what was counted (files and counts); counting goes on. */
void cd_coverage_reset(lua_State *L);

#endif
