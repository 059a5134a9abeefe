/* The memory cap and the instruction budget of a state. Of the limits it calls
 * only interrupt.c (the count hook stops on a signal too); callback.c, hooks.c and
 * cpu_limit.c build on it. */
#include "CLuaLimits.h"
#include "CLuaInterrupt.h"
#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the small-block pool ------------------------------------------------
 * Every tick hands a hook a fresh `t`, garbage a moment later; with malloc and
 * free that allocation and its collection cost about a fifth of a tick. Lua
 * always tells the allocator a block's size, so small blocks can come from free
 * lists by size class instead: a push and a pop. Slabs are freed with the state. */

#define POOL_MAX 256
#define POOL_SLAB (64 * 1024)
#define POOL_HEADER 16 /* keeps blocks 16-byte aligned, as malloc's are */

typedef struct pool_link { struct pool_link *next; } pool_link;

static inline size_t pool_class(size_t size) { return (size + 15) >> 4; } /* 1..16 */

static void *pool_alloc(cd_limits *limits, size_t size) {
    size_t class = pool_class(size);
    pool_link *block = (pool_link *)limits->pool_free[class - 1];
    if (block) {
        limits->pool_free[class - 1] = block->next;
        /* The next block of this class was freed long ago, out of the cache: its
         * link is read at the next allocation, so start fetching it now (perf put
         * close to half this function's time on that read). */
        if (block->next) __builtin_prefetch(block->next);
        return block;
    }
    size_t bytes = class << 4;
    if (limits->pool_left < bytes) {
        pool_link *slab = (pool_link *)malloc(POOL_SLAB);
        if (slab == NULL) return NULL;
        slab->next = (pool_link *)limits->pool_slabs;
        limits->pool_slabs = slab;
        limits->pool_bump = (char *)slab + POOL_HEADER;
        limits->pool_left = POOL_SLAB - POOL_HEADER;
    }
    void *fresh = limits->pool_bump;
    limits->pool_bump += bytes;
    limits->pool_left -= bytes;
    return fresh;
}

static inline void pool_release(cd_limits *limits, void *ptr, size_t size) {
    size_t class = pool_class(size);
    ((pool_link *)ptr)->next = (pool_link *)limits->pool_free[class - 1];
    limits->pool_free[class - 1] = ptr;
}

static void *block_alloc(cd_limits *limits, size_t size) {
    return size <= POOL_MAX ? pool_alloc(limits, size) : malloc(size);
}

static void block_free(cd_limits *limits, void *ptr, size_t size) {
    if (size <= POOL_MAX) pool_release(limits, ptr, size);
    else free(ptr);
}

static void *limited_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    cd_limits *limits = (cd_limits *)ud;
    /* When ptr is NULL, osize encodes the object's type, not a size. */
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        if (ptr) block_free(limits, ptr, old);
        limits->used -= old;
        return NULL;
    }
    if (nsize > old && limits->capped && limits->cap != 0 && limits->used + (nsize - old) > limits->cap) {
        limits->refused = 1;
        if (nsize > limits->refused_size) limits->refused_size = nsize;
        return NULL;
    }
    void *block;
    if (ptr == NULL) {
        block = block_alloc(limits, nsize);
    } else if (old > POOL_MAX && nsize > POOL_MAX) {
        block = realloc(ptr, nsize);
    } else if (old <= POOL_MAX && nsize <= POOL_MAX && pool_class(old) == pool_class(nsize)) {
        block = ptr;
    } else {
        block = block_alloc(limits, nsize);
        if (block == NULL) return NULL;
        memcpy(block, ptr, old < nsize ? old : nsize);
        block_free(limits, ptr, old);
    }
    if (block == NULL) return NULL;
    limits->used = limits->used - old + nsize;
    return block;
}

void cd_count_hook(lua_State *L, lua_Debug *ar) {
    if (cd_interrupt_pending() != 0) cd_stop_hook(L, ar);
    cd_limits *limits = cd_get_limits(L);
    if (limits == NULL || !limits->capped || limits->budget <= 0) return;
    int count = lua_gethookcount(L);
    /* The spent count is the state's, shared by every coroutine. */
    limits->spent += count;
    if (limits->spent <= limits->budget) return;
    /* Over budget: from now on every instruction of this thread raises, so that a
     * script catching the error with pcall (whose loop would otherwise always be
     * interrupted inside the pcall) cannot go on. Reset when the callback ends. */
    if (count != 1) {
        lua_sethook(L, cd_count_hook, LUA_MASKCOUNT, 1);
        limits->hook_dirty = 1;
    }
    /* luaL_where(L, 1) would name the hook's caller; the running function is the culprit. */
    if (lua_getinfo(L, "Sl", ar) && ar->currentline > 0)
        lua_pushfstring(L, "%s:%d: ", ar->short_src, ar->currentline);
    else
        lua_pushliteral(L, "");
    lua_pushfstring(L, "instruction budget exceeded: more than %I instructions in one callback (raise it with --budget)",
                    (lua_Integer)limits->budget);
    lua_concat(L, 2);
    lua_error(L);
}

static int panic(lua_State *L) {
    const char *message = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "error object is not a string";
    fprintf(stderr, "cdscript: unprotected error in Lua: %s\n", message);
    fflush(stderr);
    return 0;
}

lua_State *cd_new_limited_state(size_t memory_cap, int64_t budget) {
    cd_limits *limits = (cd_limits *)calloc(1, sizeof(cd_limits));
    if (limits == NULL) return NULL;
    limits->cap = memory_cap;
    limits->budget = budget;
    /* One hook call per 1000 instructions: the budget is exact to within that. */
    limits->granularity = budget > 0 && budget < 1000 ? (int)budget : 1000;
    lua_State *L = lua_newstate(limited_alloc, limits);
    if (L == NULL) {
        free(limits);
        return NULL;
    }
    lua_atpanic(L, panic);
    if (budget > 0) lua_sethook(L, cd_count_hook, LUA_MASKCOUNT, limits->granularity);
    return L;
}

void cd_close_limited_state(lua_State *L) {
    void *ud = NULL;
    lua_getallocf(L, &ud);
    cd_interrupt_detach(L);
    cd_limits *closing = (cd_limits *)ud;
    closing->run_over = 1;
    closing->capped = 1;
    lua_close(L);
    cd_limits *limits = (cd_limits *)ud;
    if (limits->coverage && limits->free_coverage) limits->free_coverage(limits->coverage);
    pool_link *slab = (pool_link *)limits->pool_slabs;
    while (slab) {
        pool_link *next = slab->next;
        free(slab);
        slab = next;
    }
    free(ud);
}

cd_limits *cd_get_limits(lua_State *L) {
    /* The allocator tells states made here from others (a bare luaL_newstate);
     * its user data is the limits, shared by every thread of the state. */
    void *ud = NULL;
    if (lua_getallocf(L, &ud) != limited_alloc) return NULL;
    return (cd_limits *)ud;
}

const char *cd_memory_error_message(lua_State *L) {
    cd_limits *limits = cd_get_limits(L);
    if (limits == NULL || !limits->refused)
        return "not enough memory (the system refused an allocation)";
    limits->refused = 0;
    static char buffer[160];
    if (limits->cap >= 1024 * 1024)
        snprintf(buffer, sizeof buffer,
                 "memory limit exceeded: the script's Lua memory would pass %zu MB (raise it with --memory-limit)",
                 limits->cap / (1024 * 1024));
    else
        snprintf(buffer, sizeof buffer,
                 "memory limit exceeded: the script's Lua memory would pass %zu bytes (raise it with --memory-limit)",
                 limits->cap);
    return buffer;
}

int cd_limits_charge(lua_State *L, int64_t delta) {
    cd_limits *limits = cd_get_limits(L);
    if (limits == NULL) return 1;
    if (delta > 0 && limits->cap != 0 && limits->used + (size_t)delta > limits->cap) {
        /* As Lua does before refusing: collect the garbage, then try again.
         * (Finalizers run in protected calls: an error there is only a warning.) */
        int capped = limits->capped;
        limits->capped = 0;
        lua_gc(L, LUA_GCCOLLECT);
        limits->capped = capped;
        if (limits->used + (size_t)delta > limits->cap) return 0;
    }
    if (delta < 0 && (size_t)(-delta) > limits->used) limits->used = 0;
    else limits->used += (size_t)delta;
    return 1;
}
