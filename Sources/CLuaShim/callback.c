/* A callback's bracket, where the limits meet: the budget (limits.c), the
 * usual hook (hooks.c) and the CPU-time limit (cpu_limit.c). The top of the
 * limits: no file below calls into this one. */
#include "CLuaCallback.h"
#include "CLuaCPULimit.h"
#include "CLuaInterrupt.h"
#include "CLuaScriptHooks.h"

cd_limits_saved cd_limits_enter_own(lua_State *L) {
    cd_limits *limits = cd_get_limits(L);
    if (limits == NULL) return (cd_limits_saved){0, 0, 0};
    int depth = limits->depth;
    limits->depth = 0; /* outermost for the moment: a fresh count */
    cd_limits_saved saved = cd_limits_begin(L, limits);
    saved.depth = depth;
    return saved;
}

void cd_limits_leave_own(lua_State *L, cd_limits_saved saved) {
    cd_limits *limits = cd_get_limits(L);
    if (limits == NULL) return;
    /* A stop by the CPU-time limit was this callback's alone: without a new number
     * the hook it left would raise in the caller too (`cdscript test`'s runner,
     * whose tests each run as a callback of their own). */
    cd_cpu_limit_release_stopped();
    cd_limits_end(L, limits, saved); /* as an outermost callback: the usual hook back */
    limits->depth = saved.depth;
    limits->spent = saved.spent;
}

void cd_limits_end_failed_hook(lua_State *L, cd_limits *limits, cd_limits_saved saved) {
    if (limits != NULL && limits->depth > 1 && cd_interrupt_pending() == 0) {
        int over_budget = limits->budget > 0 && limits->spent > limits->budget;
        int over_time = cd_cpu_limit_stopped_now();
        if ((over_budget || over_time) && limits->forgiven < CD_FORGIVEN_MAX) {
            limits->forgiven++;
            limits->hook_dirty = 1; /* the outermost callback's end resets the count */
            if (over_budget) {
                limits->spent = saved.spent;
                /* Over budget the thread's hook fires at every instruction: the usual
                 * period again (a coroutine the hook left behind gets it at its next
                 * resume, see auxresume). */
                if (cd_script_hook_count == 0) lua_sethook(L, cd_count_hook, LUA_MASKCOUNT, limits->granularity);
                else cd_reapply_hook(L);
            }
            if (over_time) cd_cpu_limit_release_stopped();
        }
    }
    cd_limits_end(L, limits, saved);
}
