#ifndef CLUALIMITS_H
#define CLUALIMITS_H

/* Limits for scripts the host did not write: a byte-capped allocator and an
 * instruction budget per callback. Both apply only while Lua code runs inside a
 * protected call made by the host (cd_pcall_traceback, cd_call_hook); while a host
 * function runs (the trampoline), and while Swift sets things up outside any call,
 * allocations never fail, so no memory error can longjmp across a Swift frame. */

#include <stddef.h>
#include <stdint.h>
#include <lua.h>

typedef struct cd_limits {
    /* Bytes the state holds now, and the cap (0: none). */
    size_t used;
    size_t cap;
    /* Nonzero while Lua code runs under a host-made protected call. */
    int capped;
    /* Instructions per callback (0: none), counted in steps of `granularity`. */
    int64_t budget;
    int64_t spent;
    int granularity;
    /* Set when an allocation was refused, so that a LUA_ERRMEM can be explained. */
    int refused;
    /* The largest request refused. */
    size_t refused_size;
    /* Small blocks come from a pool (see limits.c): free lists per 16-byte size
     * class, carved from slabs that live as long as the state. */
    void *pool_free[16];
    char *pool_bump;
    size_t pool_left;
    void *pool_slabs;
    /* Set once the run is over (the state is closing): host functions called from
     * a finalizer then raise instead of reaching a host that is going away. */
    int run_over;
    /* Callbacks in progress (nested ones included); the trampoline's switching of
     * `capped` around host functions does not touch it. */
    int depth;
    /* Set when a thread's hook was changed for the rest of a callback (over
     * budget: a count of 1), so that the outermost callback's end puts the usual
     * one back without asking Lua on every callback. */
    int hook_dirty;
    /* The countdown handle metatable (see cd_push_handle_metatable), so that
     * cd_to_handle compares addresses instead of looking the name up. */
    const void *handle_metatable;
    /* The last hook judged for countdown.start (see cd_hook_is_local_at in hook_caller.c) is
     * held at registry[hook_pin_ref] while `hook_pinned`, from its judgement to
     * the end of the outermost callback: within a callback its address alone then
     * identifies it. */
    int hook_pin_ref;
    int hook_pinned;
    /* Nested hooks that ran out and failed alone in this outermost callback (see
     * cd_limits_end_failed_hook, which sets `hook_dirty`, so that the reset at the
     * callback's end costs nothing on the usual path). */
    int forgiven;
    /* `--coverage`'s counters (coverage.c), NULL while the state does not count,
     * and what frees them when the state closes (set with them, by hooks.c:
     * this file calls it without knowing what counts). */
    void *coverage;
    void (*free_coverage)(void *coverage);
    /* Set by the host while it holds work of the running callback back (the
     * store writes of persistent starts, written in one transaction): the
     * outermost callback's end clears it and calls after_callback(context), at
     * depth 0, outside the callback's CPU time. */
    int after_callback_pending;
    void (*after_callback)(void *context);
    void *after_callback_context;
} cd_limits;

/* How many nested hooks of one outermost callback may run out and fail alone;
 * past that the limit is the callback's own, so that a loop starting countdowns
 * whose first ticks spin cannot multiply the limit without end. */
#define CD_FORGIVEN_MAX 4

/* A new state whose allocator and count hook enforce the given limits (0: none).
 * NULL when even the state could not be allocated. */
lua_State *cd_new_limited_state(size_t memory_cap, int64_t budget);
/* Closes a state made by cd_new_limited_state and frees its limits. The
 * finalizers lua_close runs are under the memory cap, and the host functions
 * they call raise "the run is over" (hooks are off during finalizers, so their
 * time is bounded by the caller's watchdog, not by the budget). */
void cd_close_limited_state(lua_State *L);
/* The limits of a state made by cd_new_limited_state (NULL for any other state). */
cd_limits *cd_get_limits(lua_State *L);

/* The count hook that enforces the budget (installed by cd_new_limited_state). */
void cd_count_hook(lua_State *L, lua_Debug *ar);

/* Counts `delta` bytes the host holds for the script (view text) against the
 * memory cap, beside Lua's own memory. A growth past the cap is refused: returns
 * 0 and changes nothing. Shrinking always succeeds. */
int cd_limits_charge(lua_State *L, int64_t delta);

/* The message for a LUA_ERRMEM of this state (the message handler never ran). */
const char *cd_memory_error_message(lua_State *L);

#endif
