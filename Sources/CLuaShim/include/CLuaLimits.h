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
} cd_limits;

/* A new state whose allocator and count hook enforce the given limits (0: none).
 * NULL when even the state could not be allocated. */
lua_State *cd_new_limited_state(size_t memory_cap, int64_t budget);
/* Closes a state made by cd_new_limited_state and frees its limits. */
void cd_close_limited_state(lua_State *L);
/* The limits of a state made by cd_new_limited_state (NULL for any other state). */
cd_limits *cd_get_limits(lua_State *L);

/* Marks the start of a callback: Lua code from here on is capped and gets a fresh
 * budget. Returns a token for cd_limits_leave. */
typedef struct cd_limits_saved {
    int capped;
    int64_t spent;
} cd_limits_saved;
cd_limits_saved cd_limits_enter(lua_State *L);
/* Ends a callback begun by cd_limits_enter; the instructions it spent count
 * towards the enclosing callback, if any. */
void cd_limits_leave(lua_State *L, cd_limits_saved saved);
/* The count hook that enforces the budget (installed by cd_new_limited_state). */
void cd_count_hook(lua_State *L, lua_Debug *ar);

/* cd_limits_enter and cd_limits_leave for callers that hold the state's limits
 * (cd_get_limits; NULL: none): inline, since every tick passes through them. */
static inline cd_limits_saved cd_limits_begin(lua_State *L, cd_limits *limits) {
    (void)L;
    cd_limits_saved saved = {0, 0};
    if (limits == NULL) return saved;
    saved.capped = limits->capped;
    saved.spent = limits->spent;
    limits->capped = 1;
    limits->spent = 0;
    return saved;
}

static inline void cd_limits_end(lua_State *L, cd_limits *limits, cd_limits_saved saved) {
    if (limits == NULL) return;
    limits->capped = saved.capped;
    limits->spent = saved.capped ? saved.spent + limits->spent : 0;
    /* Back to the usual count after a budget ran out (the hook then counts every
     * instruction) or after the script set a hook of its own (debug.sethook).
     * Every callback ends here, so the next one starts with the usual count. */
    if (limits->budget > 0 && lua_gethookcount(L) != limits->granularity)
        lua_sethook(L, cd_count_hook, LUA_MASKCOUNT, limits->granularity);
}

/* The message for a LUA_ERRMEM of this state (the message handler never ran). */
const char *cd_memory_error_message(lua_State *L);

#endif
