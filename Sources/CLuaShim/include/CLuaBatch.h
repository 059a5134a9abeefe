#ifndef CLUABATCH_H
#define CLUABATCH_H

/* Ticks in a row (batch.c). */
#include <stdint.h>
#include <lua.h>
#include "CLuaHookCaller.h"
#include "CLuaLimits.h"

/* A due tick as the host hands it to cd_run_tick_batch: what the hook needs, and
 * the rest of the host's tick, carried through for one the host must deliver
 * itself (pending, or failed). */
typedef struct cd_batch_tick {
    int handle_ref;
    int shared_hook;
    int64_t remaining_ns;
    int64_t total_ns;
    int32_t slot;
    uint32_t generation;
    int64_t instant_ns;
    uint64_t context;
} cd_batch_tick;

/* Takes the next due tick the batch may run into *tick; 0 when there is none.
 * Must not call Lua. */
typedef int (*cd_take_tick)(void *context, cd_batch_tick *tick);

typedef struct cd_tick_batch {
    cd_take_tick take;
    void *context;
    /* In: the first tick, already taken. Out: the last tick taken. */
    cd_batch_tick tick;
    /* Out: `tick` was taken but not run (its on_tick cannot take this path). */
    int pending;
    /* Out, after an error: the countdown of `tick` ended during its own hook
     * (its handle reference is then the host's to release, after reporting). */
    int ended;
    /* Private. */
    int in_tick;
    int levels_below;
    cd_limits_saved saved;
} cd_tick_batch;

/* Runs on_tick hooks of shared functions (cd_share_tick_hook) one after the
 * other inside one protected call, each with the shared tick and limits of its
 * own (cd_limits_begin/end), starting with batch->tick and then whatever
 * batch->take hands out, until it hands out nothing, a taken tick's hook cannot
 * be run this way (batch->pending), a signal is pending, or a hook raises.
 * Returns a Lua status; on error the message with a traceback (which leaves out
 * this function's own frame) is left on top of the stack and batch->tick is
 * the tick whose hook failed. Saves one protected call per tick against
 * cd_call_hook. */
int cd_run_tick_batch(lua_State *L, cd_hook_caller *caller, cd_tick_batch *batch);

#endif
