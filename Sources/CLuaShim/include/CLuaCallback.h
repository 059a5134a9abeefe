#ifndef CLUACALLBACK_H
#define CLUACALLBACK_H

/* A callback's bracket (callback.c, and inline here): where the budget
 * (limits.c), the usual hook (hooks.c) and the CPU-time limit (cpu_limit.c)
 * meet. Every protected call the host makes into Lua begins and ends here. */
#include <stdint.h>
#include <lua.h>
#include "CLuaLimits.h"
#include "CLuaInterrupt.h"
#include "CLuaCPULimit.h"
#include "CLuaScriptHooks.h"

/* Marks the start of a callback: Lua code from here on is capped and gets a fresh
 * budget. cd_limits_begin returns a token for cd_limits_end. */
typedef struct cd_limits_saved {
    int capped;
    int64_t spent;
    int depth;
} cd_limits_saved;
/* Like cd_limits_begin and cd_limits_end, but the callback gets a budget of its
 * own even when it runs inside another: `cdscript test` gives each test one,
 * though all of a file's tests run inside one call of the prelude. */
cd_limits_saved cd_limits_enter_own(lua_State *L);
void cd_limits_leave_own(lua_State *L, cd_limits_saved saved);

/* Begins and ends a callback, for callers that hold the state's limits
 * (cd_get_limits; NULL: none): inline, since every tick passes through them.
 * The instructions a callback spent count towards the enclosing one, if any. */
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

#endif
