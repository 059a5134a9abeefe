#ifndef CLUASTARTOPTIONS_H
#define CLUASTARTOPTIONS_H

/* The common countdown.start and countdown.fetch, read and made in C (start_options.c). */
#include <stdint.h>
#include <lua.h>
#include "CLuaHandles.h"

/* The name of countdown.start's option CD_OPTION_* `option` (NULL past
 * CD_OPTION_COUNT - 1): the options C knows, those the quick read recognises. */
const char *cd_start_option_name(int option);

/* What the quick read of a start's options found. */
typedef struct cd_start_options {
    double seconds;
    double every;
    int has_every;
    /* CD_HOOK_HAS_ID, CD_HOOK_HAS_TICK and CD_HOOK_HAS_DONE for what was given. */
    int found;
    /* The id's hash, when found has CD_HOOK_HAS_ID. */
    uint32_t id_hash;
    /* The stack's top before the read, and where the read left the id, on_tick
     * and on_done (0 where absent). */
    int base;
    int id_index;
    int tick_index;
    int done_index;
} cd_start_options;

/* The common start, read in one pass over the table at `index`: every key one of
 * id (a non-empty string), seconds (a number, required), every (a number),
 * on_tick and on_done (functions), persist (false). Leaves the id, on_tick and
 * on_done on the stack, each with its key below it, says where in `options`, and
 * returns 1. Anything else (another key, another type, `at`, `on_error`,
 * `persist = true`) returns 0 with the stack as it was: the caller then reads the
 * options the long way, with its messages. */
int cd_start_read(lua_State *L, cd_hook_caller *caller, int index, cd_start_options *options);

/* cd_start_read for countdown.fetch's options: every key one of every (a number),
 * on_tick and on_done (functions). Leaves on_tick and on_done as cd_start_read
 * does and returns 1; anything else returns 0 with the stack as it was. */
int cd_fetch_read(lua_State *L, cd_hook_caller *caller, int index, cd_start_options *options);

/* Makes the handle for what cd_start_read found (`options`), with its flags, its
 * cd_share_tick_hook number and its registry reference (cd_ref_handle), and binds
 * its id as cd_bind_id does. The stack is then cut back to `options->base` with
 * the handle pushed. NULL when there was no memory to bind the id (the stack is
 * then as it was after cd_start_read). */
cd_handle *cd_start_handle(lua_State *L, cd_hook_caller *caller, const cd_start_options *options, int64_t every_ns,
                           int *flags, int *shared_hook, int *ref, cd_handle **replaced);

/* cd_start_handle for what cd_fetch_read found, or for no options (`options`
 * zeroed but for `base`, the stack's top), with the id (a non-empty string) at
 * `id_index`: the handle of a persistent countdown. */
cd_handle *cd_fetch_handle(lua_State *L, cd_hook_caller *caller, cd_start_options *options, int id_index, int64_t every_ns,
                           int *flags, int *shared_hook, int *ref, cd_handle **replaced);

#endif
