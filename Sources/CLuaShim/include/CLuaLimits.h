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

/* ---- interruption (interrupt.c) ---- */
#include <signal.h>
/* The terminating signal received, or 0 (set by cd_interrupt). */
extern volatile sig_atomic_t cd_interrupted;
/* The terminating signal received, or 0; inline, since every tick asks. */
static inline int cd_interrupt_pending(void) { return cd_interrupted; }
int cd_interrupt_signal(void);
/* The state signals interrupt (LuaVM attaches its main state unless one is
 * attached already, and detaches it at close). */
void cd_interrupt_attach(lua_State *L);
void cd_interrupt_detach(lua_State *L);
/* For a signal handler: makes the running Lua code raise "interrupted". */
void cd_interrupt(int signal);
/* The hook cd_interrupt sets: raises "interrupted" at every instruction. */
void cd_stop_hook(lua_State *L, lua_Debug *ar);
/* For the SIGTSTP handler (async-signal-safe; see CLinux's cdl_pause_fn): when a
 * callback is running, sets a hook on the running threads that calls `stop_now`
 * at the next instruction (which gives the terminal back and stops the process),
 * then puts back the hook it displaced, so that after SIGCONT the code goes on
 * where it was. Does nothing between callbacks or once interrupted. */
void cd_pause(int (*stop_now)(void));
/* The hook cd_pause sets. */
void cd_pause_hook(lua_State *L, lua_Debug *ar);
/* Replaces coroutine.resume and coroutine.wrap with versions that track the
 * running thread and keep the budget across coroutines; returns a Lua status. */
int cd_install_tracked_coroutines(lua_State *L);

/* ---- the CPU-time limit per callback (interrupt.c) ----
 * A per-thread CPU-time timer (set up by the run, see CLinux's cdl_cpu_timer_start)
 * calls cd_cpu_limit_check from its signal handler every period of the thread's
 * CPU time. Each outermost callback bumps cd_callback_sequence (one increment);
 * when the check sees the same callback still running after the limit, it sets a
 * hook that makes its Lua code raise "CPU time limit exceeded" (the callback's
 * error: the run goes on); when that callback is still running at the next fire
 * (a finalizer or a loop in C, which no hook reaches), it returns 1 and the
 * caller ends the process. */
extern volatile uint32_t cd_callback_sequence;
/* Fires of the timer a callback may span before it is stopped (0: no limit), and
 * the limit in seconds, for the message. */
void cd_cpu_limit_configure(int periods, double seconds);
/* For the timer's signal handler (async-signal-safe): 1 when the run must end now. */
int cd_cpu_limit_check(void);
/* The hook cd_cpu_limit_check sets: raises the CPU-time error in the callback it
 * was set for, and puts the usual hook back in any later one. */
void cd_cpu_hook(lua_State *L, lua_Debug *ar);

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
    /* `--coverage`'s counters (coverage.c), NULL while the state does not count. */
    void *coverage;
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

/* Marks the start of a callback: Lua code from here on is capped and gets a fresh
 * budget. Returns a token for cd_limits_leave. */
typedef struct cd_limits_saved {
    int capped;
    int64_t spent;
    int depth;
} cd_limits_saved;
cd_limits_saved cd_limits_enter(lua_State *L);
/* Ends a callback begun by cd_limits_enter; the instructions it spent count
 * towards the enclosing callback, if any. */
void cd_limits_leave(lua_State *L, cd_limits_saved saved);
/* Like cd_limits_enter and cd_limits_leave, but the callback gets a budget of its
 * own even when it runs inside another: `cdscript test` gives each test one,
 * though all of a file's tests run inside one call of the prelude. */
cd_limits_saved cd_limits_enter_own(lua_State *L);
void cd_limits_leave_own(lua_State *L, cd_limits_saved saved);
/* The count hook that enforces the budget (installed by cd_new_limited_state). */
void cd_count_hook(lua_State *L, lua_Debug *ar);
/* Threads that have a hook of the script's own (debug.sethook, see hooks.c). */
extern int cd_script_hook_count;
/* Puts back the hook thread L needs (the script's own beside the host's). */
void cd_reapply_hook(lua_State *L);
/* The same for thread `co` of L's state (L: the running thread, for the stack). */
void cd_reapply_hook_on(lua_State *L, lua_State *co);
/* Replaces debug.sethook and debug.gethook (see hooks.c); returns a Lua status. */
int cd_install_script_hooks(lua_State *L);



/* cd_limits_enter and cd_limits_leave for callers that hold the state's limits
 * (cd_get_limits; NULL: none): inline, since every tick passes through them. */
static inline cd_limits_saved cd_limits_begin(lua_State *L, cd_limits *limits) {
    (void)L;
    cd_limits_saved saved = {0, 0, 0};
    if (limits == NULL) return saved;
    saved.capped = limits->capped;
    saved.spent = limits->spent;
    /* A nested callback (a hook fired from inside a host function) shares the
     * budget of the callback that caused it: one budget for all it causes. */
    if (limits->depth++ == 0) {
        limits->spent = 0;
        cd_callback_sequence++; /* what the CPU-time limit tells callbacks apart by */
    }
    limits->capped = 1;
    return saved;
}

static inline void cd_limits_end(lua_State *L, cd_limits *limits, cd_limits_saved saved) {
    if (limits == NULL) return;
    limits->capped = saved.capped;
    if (--limits->depth > 0) return; /* the enclosing callback goes on counting */
    limits->spent = 0;
    if (limits->after_callback_pending) {
        limits->after_callback_pending = 0;
        limits->after_callback(limits->after_callback_context);
    }
    if (limits->hook_pinned) {
        /* Let the last hook go: a store over an existing key, which cannot fail. */
        limits->hook_pinned = 0;
        lua_pushboolean(L, 0);
        lua_rawseti(L, LUA_REGISTRYINDEX, limits->hook_pin_ref);
    }
    /* Back to the usual count after a budget ran out (the hook then counts every
     * instruction) or after an interruption. Every outermost callback ends here,
     * so the next one starts with the usual count. */
    if (limits->hook_dirty) {
        limits->forgiven = 0;
        if (limits->budget > 0 && cd_interrupt_pending() == 0) {
            limits->hook_dirty = 0;
            if (cd_script_hook_count == 0) lua_sethook(L, cd_count_hook, LUA_MASKCOUNT, limits->granularity);
            else cd_reapply_hook(L);
        }
    }
}

/* Ends a hook's callback begun by cd_limits_begin whose protected call failed.
 * A hook run inside another callback (a start's first tick, the on_done a cancel
 * runs) shares that callback's budget and CPU time; when it ran out of either, the
 * limit is the hook's error alone: the enclosing callback goes on with the
 * instructions and CPU time it had when it called the hook, instead of raising
 * the same error at its next instruction (issue 29). What the hook spent is not
 * charged to it: the hook paid with its error. At most CD_FORGIVEN_MAX times per
 * outermost callback; interruptions stay everybody's. */
void cd_limits_end_failed_hook(lua_State *L, cd_limits *limits, cd_limits_saved saved);
/* For cd_limits_end_failed_hook: the CPU-time limit lets go of the callback it
 * stopped (a nested hook's), so that the enclosing one runs on. */
void cd_cpu_limit_release_stopped(void);
/* Nonzero when the CPU-time limit has stopped the callback running now. */
int cd_cpu_limit_stopped_now(void);

/* Counts `delta` bytes the host holds for the script (view text) against the
 * memory cap, beside Lua's own memory. A growth past the cap is refused: returns
 * 0 and changes nothing. Shrinking always succeeds. */
int cd_limits_charge(lua_State *L, int64_t delta);

/* The message for a LUA_ERRMEM of this state (the message handler never ran). */
const char *cd_memory_error_message(lua_State *L);

#endif
