/* debug.sethook and debug.gethook for scripts, next to the host's own hook.
 *
 * Lua has one hook per thread. The host's count hook enforces the budget and
 * notices interruptions; a script's debug.sethook would replace it (and the host
 * used to drop the script's hook after each callback). Here a script's hook is
 * kept apart (registry[&SCRIPT_HOOKS][thread] = {fn, mask, count}) and one
 * dispatcher is installed: it charges count events to the budget and calls the
 * script's function for the events the script asked for. debug.gethook returns
 * the script's own hook, or nil when it set none. Like Lua's, debug.sethook also
 * keeps registry._HOOKKEY (a weak-keyed table, its own metatable, thread ->
 * hook function), which code written for Lua's debug library reads.
 *
 * `--coverage` (coverage.c) counts the lines that run: while the state counts,
 * a thread with a script hook gets this dispatcher with line events as well
 * (it counts them beside calling the script's hook), and one without gets the
 * coverage hook. Runs without it keep the host's bare count hook. */
#include "CLuaScriptHooks.h"
#include "CLuaWrappers.h"
#include "CLuaInterrupt.h"
#include "CLuaLimits.h"
#include "CLuaCoverage.h"
#include <stdlib.h>
#include <string.h>

int cd_script_hook_count = 0;
static const char SCRIPT_HOOKS = 0;

static void push_hooks_table(lua_State *L) { cd_push_weak_keyed_table(L, &SCRIPT_HOOKS); }

/* Pushes the script's hook entry of thread `co` (a table) or nil; returns its type. */
static int push_entry(lua_State *L, lua_State *co) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &SCRIPT_HOOKS) != LUA_TTABLE) return LUA_TNIL; /* nil pushed */
    lua_pushthread(co);
    lua_xmove(co, L, 1);
    int type = lua_rawget(L, -2);
    lua_remove(L, -2);
    return type;
}

static int entry_int(lua_State *L, int entry, int i) {
    lua_rawgeti(L, entry, i);
    int v = (int)lua_tointeger(L, -1);
    lua_pop(L, 1);
    return v;
}

static void dispatch_hook(lua_State *L, lua_Debug *ar);

/* Installs on `co` what it needs: the dispatcher for a script hook (with the
 * host's count when there is a budget), else the host's count hook or nothing. */
static void apply(lua_State *L, lua_State *co, int mask, int count) {
    cd_limits *limits = cd_get_limits(L);
    int budget = limits && limits->budget > 0;
    int coverage = limits && limits->coverage;
    if (cd_interrupt_signal()) {
        lua_sethook(co, cd_stop_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
    } else if (mask == 0 && coverage) {
        /* Count events always: the test runner turns the budget on and off
         * without touching hooks. */
        int over = limits->capped && limits->budget > 0 && limits->spent > limits->budget;
        lua_sethook(co, cd_coverage_hook, LUA_MASKLINE | LUA_MASKCOUNT, over ? 1 : limits->granularity);
    } else if (mask == 0) {
        if (budget) lua_sethook(co, cd_count_hook, LUA_MASKCOUNT, limits->granularity);
        else lua_sethook(co, NULL, 0, 0);
    } else {
        if (coverage) mask |= LUA_MASKLINE;
        if (budget) {
            if (count <= 0 || count > limits->granularity) count = count > 0 ? count : limits->granularity;
            mask |= LUA_MASKCOUNT;
        }
        if (budget && limits->capped && limits->spent > limits->budget) count = 1;
        lua_sethook(co, dispatch_hook, mask, count);
    }
}

static void dispatch_hook(lua_State *L, lua_Debug *ar) {
    static const char *const names[] = {"call", "return", "line", "count", "tail call"};
    if (cd_interrupt_signal()) cd_stop_hook(L, ar);
    if (ar->event == LUA_HOOKLINE && cd_coverage_active(L)) cd_coverage_count_line(L, ar);
    if (ar->event == LUA_HOOKCOUNT) {
        cd_limits *limits = cd_get_limits(L);
        if (limits && limits->capped && limits->budget > 0) {
            int count = lua_gethookcount(L);
            limits->spent += count;
            if (limits->spent > limits->budget) {
                if (count != 1) {
                    lua_sethook(L, dispatch_hook, lua_gethookmask(L), 1);
                    limits->hook_dirty = 1;
                }
                cd_count_hook(L, ar); /* raises the budget error */
            }
        }
    }
    if (!lua_checkstack(L, 4)) return;
    if (push_entry(L, L) != LUA_TTABLE) {
        lua_pop(L, 1);
        return;
    }
    int entry = lua_gettop(L);
    int mask = entry_int(L, entry, 2);
    int wanted = ar->event == LUA_HOOKTAILCALL ? LUA_MASKCALL : (1 << ar->event);
    if (!(mask & wanted)) {
        lua_pop(L, 1);
        return;
    }
    lua_rawgeti(L, entry, 1);
    lua_remove(L, entry);
    lua_pushstring(L, names[ar->event]);
    if (ar->currentline >= 0) lua_pushinteger(L, ar->currentline);
    else lua_pushnil(L);
    lua_call(L, 2, 0);
}

void cd_reapply_hook_on(lua_State *L, lua_State *co) {
    if (!lua_checkstack(L, 3)) return;
    if (push_entry(L, co) == LUA_TTABLE) {
        int entry = lua_gettop(L);
        apply(L, co, entry_int(L, entry, 2), entry_int(L, entry, 3));
    } else {
        apply(L, co, 0, 0);
    }
    lua_pop(L, 1);
}

void cd_reapply_hook(lua_State *L) { cd_reapply_hook_on(L, L); }

/* debug.sethook and debug.gethook, written from the reference manual's
 * description (§6.10) and held to lua5.4's observed results and messages by
 * ScriptHooksMatchLuaTests. */

/* The letters of a hook mask string and the events each asks for, in the
 * order debug.gethook writes them. */
static const struct {
    char letter;
    int mask;
} MASK_LETTERS[] = {{'c', LUA_MASKCALL}, {'r', LUA_MASKRET}, {'l', LUA_MASKLINE}};
enum { MASK_LETTER_COUNT = sizeof MASK_LETTERS / sizeof MASK_LETTERS[0] };

/* The event mask a script's mask string and count ask for; unknown letters
 * are ignored, and a positive count adds count events. */
static int mask_from_letters(const char *letters, int count) {
    int mask = count > 0 ? LUA_MASKCOUNT : 0;
    for (int i = 0; i < MASK_LETTER_COUNT; i++)
        if (strchr(letters, MASK_LETTERS[i].letter) != NULL) mask |= MASK_LETTERS[i].mask;
    return mask;
}

/* Writes the mask's letters into `letters` (room for MASK_LETTER_COUNT + 1). */
static void letters_from_mask(int mask, char *letters) {
    for (int i = 0; i < MASK_LETTER_COUNT; i++)
        if (mask & MASK_LETTERS[i].mask) *letters++ = MASK_LETTERS[i].letter;
    *letters = '\0';
}

/* Both functions take an optional thread first: the thread whose hook is
 * meant, and the position of the arguments after it (0 or 1). */
static lua_State *hooked_thread(lua_State *L, int *shift) {
    lua_State *given = lua_type(L, 1) == LUA_TTHREAD ? lua_tothread(L, 1) : NULL;
    *shift = given != NULL ? 1 : 0;
    return given != NULL ? given : L;
}

static void push_thread_key(lua_State *L, lua_State *co) {
    lua_pushthread(co);
    lua_xmove(co, L, 1);
}

/* Records (or, with mask 0, forgets) the script's hook of `co` in the table
 * at `hooks`, keeping cd_script_hook_count in step. */
static void record_script_hook(lua_State *L, int hooks, lua_State *co, int function, int mask, int count) {
    push_thread_key(L, co);
    int had = lua_rawget(L, hooks) == LUA_TTABLE;
    lua_pop(L, 1);
    push_thread_key(L, co);
    if (mask != 0) {
        lua_createtable(L, 3, 0);
        lua_pushvalue(L, function);
        lua_rawseti(L, -2, 1);
        lua_pushinteger(L, mask);
        lua_rawseti(L, -2, 2);
        lua_pushinteger(L, count);
        lua_rawseti(L, -2, 3);
        cd_script_hook_count += had ? 0 : 1;
    } else {
        lua_pushnil(L);
        cd_script_hook_count -= had ? 1 : 0;
    }
    lua_rawset(L, hooks);
}

/* registry._HOOKKEY[co] = the function given (nil when the hook is turned
 * off), kept as lua5.4's debug library keeps it (a table with weak keys that
 * is its own metatable), for code written against it. */
static void record_hook_key(lua_State *L, lua_State *co, int function) {
    if (!luaL_getsubtable(L, LUA_REGISTRYINDEX, "_HOOKKEY")) {
        lua_pushvalue(L, -1);
        lua_setmetatable(L, -2); /* its own metatable */
        lua_pushstring(L, "k");
        lua_setfield(L, -2, "__mode");
    }
    push_thread_key(L, co);
    lua_pushvalue(L, function);
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

/* debug.sethook([thread,] [hook, mask [, count]]); no hook (or nil) turns it off. */
static int sethook(lua_State *L) {
    int shift;
    lua_State *co = hooked_thread(L, &shift);
    int function = shift + 1;
    int mask = 0, count = 0;
    if (lua_isnoneornil(L, function)) {
        lua_settop(L, function); /* nil in the function's place */
    } else {
        const char *letters = luaL_checkstring(L, function + 1);
        luaL_checktype(L, function, LUA_TFUNCTION);
        count = (int)luaL_optinteger(L, function + 2, 0);
        mask = mask_from_letters(letters, count);
    }
    push_hooks_table(L);
    record_script_hook(L, lua_gettop(L), co, function, mask, count);
    lua_pop(L, 1);
    record_hook_key(L, co, function);
    apply(L, co, mask, count);
    return 0;
}

/* debug.gethook([thread]): the script's own hook function, mask letters and
 * count; fail when it set none (the host's own hooks are not shown). */
static int gethook(lua_State *L) {
    int shift;
    lua_State *co = hooked_thread(L, &shift);
    if (push_entry(L, co) != LUA_TTABLE) {
        luaL_pushfail(L);
        return 1;
    }
    int entry = lua_gettop(L);
    char letters[MASK_LETTER_COUNT + 1];
    letters_from_mask(entry_int(L, entry, 2), letters);
    lua_rawgeti(L, entry, 1);
    lua_pushstring(L, letters);
    lua_rawgeti(L, entry, 3);
    return 3;
}

static int install(lua_State *L) {
    if (lua_getglobal(L, "debug") != LUA_TTABLE) return 0;
    lua_pushcfunction(L, sethook);
    lua_setfield(L, -2, "sethook");
    lua_pushcfunction(L, gethook);
    lua_setfield(L, -2, "gethook");
    return 0;
}

int cd_install_script_hooks(lua_State *L) {
    lua_pushcfunction(L, install);
    return lua_pcall(L, 0, 0, 0);
}

/* `--coverage` (coverage.c counts): its counters live in the state's limits, and
 * count as a hook of the script's own while they exist, so that paths that put
 * the host's bare count hook back ask for the one this file chooses. */
static void release_coverage(void *coverage) {
    cd_coverage_counters_free(coverage);
    cd_script_hook_count--;
}

int cd_coverage_start(lua_State *L) {
    cd_limits *limits = cd_get_limits(L);
    if (limits == NULL) return 0;
    if (limits->coverage == NULL) {
        void *counters = cd_coverage_counters_new();
        if (counters == NULL) return 0;
        limits->coverage = counters;
        limits->free_coverage = release_coverage;
        cd_script_hook_count++;
    }
    cd_reapply_hook(L);
    return 1;
}
