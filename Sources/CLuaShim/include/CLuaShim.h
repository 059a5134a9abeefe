#ifndef CLUASHIM_H
#define CLUASHIM_H

/* What Swift cannot do with Lua by itself: the macros it cannot import, and the
 * places where a Lua error must be raised. Lua raises errors with longjmp, and a
 * longjmp must never cross a Swift frame, so Swift functions exposed to Lua
 * return CD_RAISE with the message pushed, and the C trampoline raises it
 * after the Swift frame has returned. */

#include <stddef.h>
#include <stdint.h>
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include "CLuaLimits.h"
#include "CLuaPrint.h"
#include "CLuaStdlib.h"
#include "CLuaVersion.h"
#include "CLuaSlots.h"

/* A countdown handle's payload (defined below). */
typedef struct cd_handle cd_handle;

/* Returned by a host function to raise the error message on top of the stack. */
#define CD_RAISE (-1)

/* A Swift function exposed to Lua: returns its result count or CD_RAISE, and never
 * calls a function that raises. `context` is the pointer given at registration. */
typedef int (*cd_host_function)(lua_State *L, void *context);

/* Pushes a Lua function that calls `fn(L, context)`. */
void cd_push_host_function(lua_State *L, cd_host_function fn, void *context);

/* Macros, as functions. */
int cd_registry_index(void);
void cd_pop(lua_State *L, int n);
void cd_new_table(lua_State *L);
const char *cd_to_string(lua_State *L, int index, size_t *length);

/* Switches the collector to generational mode; returns the previous mode. */
int cd_gc_generational(lua_State *L);

/* Opens the standard libraries inside a protected call; returns a Lua status. */
int cd_open_libs(lua_State *L);

/* Loads source text only (precompiled bytecode can crash the VM); returns a Lua status
 * and leaves the chunk or the error message on the stack. */
int cd_load_text(lua_State *L, const char *source, size_t length, const char *chunk_name);
/* Loads a script's main chunk as lua.c does: source text, or a precompiled
 * (binary) chunk when `allow_binary` (outside --sandbox: `luac5.4 -o bc.lua x.lua`
 * then runs as `lua5.4 bc.lua` runs it). Without it a binary chunk is refused with
 * a message that names the chunk ("bc.lua: precompiled ..."), as LUA_ERRSYNTAX. */
int cd_load_script(lua_State *L, const char *source, size_t length, const char *chunk_name, int allow_binary);

/* Calls the function below `nargs` arguments, with a message handler that adds a
 * traceback. Returns a Lua status; on error the message (with traceback) is on top.
 * LUA_ERRMEM skips the handler: the message is then Lua's bare one. */
int cd_pcall_traceback(lua_State *L, int nargs, int nresults);
/* cd_pcall_traceback for a hook (on_press, on_error, a global hook): when it runs
 * inside another callback and runs out of that callback's budget or CPU time, the
 * limit is the hook's error alone (see cd_limits_end_failed_hook). */
int cd_pcall_hook(lua_State *L, int nargs, int nresults);

/* A hook's `t`: a read-only snapshot of one tick. It is a small userdata, not a
 * table, so that a tick costs one allocation; its fields (id, remaining, days,
 * hours, minutes, seconds, tenths, elapsed, progress, missed) are computed on
 * access by its metatable, and `pairs(t)` lists them. */
typedef struct cd_tick {
    int64_t remaining_ns;
    int64_t total_ns;
    int64_t missed;
} cd_tick;

/* Pushes a new tick of the countdown whose handle is at `handle_index` (0 for none). */
void cd_push_tick(lua_State *L, int handle_index, const cd_tick *tick);

/* The tick at `index`, or NULL when the value there is not one. */
const cd_tick *cd_to_tick(lua_State *L, int index);

/* Pushes the message handler that adds a Lua traceback to an error. */
void cd_push_traceback_handler(lua_State *L);

/* How many distinct on_tick functions cd_share_tick_hook keeps at once. */
#define CD_SHARED_TICK_HOOKS 8

/* An on_tick function shared by running countdowns, held in the registry. */
typedef struct cd_shared_tick_hook {
    /* The function's address while `uses` > 0, else NULL. */
    const void *fn;
    /* Its registry key, taken once when the caller is made (false while unused). */
    int ref;
    /* Running countdowns that tick with it. */
    int uses;
} cd_shared_tick_hook;

/* Countdowns by id (ids.c): from an id (a Lua string, so any bytes) to the
 * registry reference of the handle of the running countdown started under it.
 * An open-addressing table, at most half full, 24 bytes a slot. `bytes` are those
 * of the handle's user value CD_UV_ID, which the handle keeps alive while it holds the id. */
typedef struct cd_id_entry {
    const char *bytes;
    size_t length;
    uint32_t hash;
    int ref;                                           /* 0: an empty slot */
} cd_id_entry;
typedef struct cd_id_map {
    cd_id_entry *entries;
    uint32_t mask;                                     /* capacity - 1 */
    uint32_t count;
} cd_id_map;

/* What calling hooks needs, made once per state: the state's limits, the tick
 * metatable and the shared tick, each reached without a lookup by name. */
typedef struct cd_hook_caller {
    cd_limits *limits;
    int tick_metatable_ref;
    int shared_tick_ref;
    void *shared_tick;
    /* Set while a hook holds the shared tick: a hook nested in it (a start's
     * first tick inside a hook) gets a fresh one. */
    int shared_tick_busy;
    /* The names of countdown.start's options (CD_OPTION_*), as the interned Lua
     * strings a script's table uses for its keys, kept alive by `option_names_ref`:
     * a key is recognised by comparing addresses. */
    const char *option_names[CD_OPTION_COUNT];
    int option_names_ref;
    /* Countdowns by id (ids.c). */
    cd_id_map ids;
    /* The last hook judged by cd_tick_stays_local, and its verdict: countdowns
     * started in a loop share their hook. The function itself is held weakly in
     * the table registry[last_hook_ref] (so a collected function is never
     * mistaken for a new one at the same address, and none is kept alive). */
    const void *last_hook;
    int last_hook_local;
    int last_hook_ref;
    /* The handle metatable, reached without a lookup by name. */
    int handle_metatable_ref;
    /* The registry key cd_ref_handle tries first: one past the last it gave. */
    int next_handle_ref;
    /* Handle references released (cd_unref_handle) and not yet taken again, taken
     * first by cd_ref_handle. Their registry entries hold 0 meanwhile: not nil, so
     * luaL_ref (which hands out the key past the registry's border) never gives
     * them to anyone else, and not on luaL_ref's free list either. */
    int *free_handle_refs;
    int free_handle_count;
    int free_handle_capacity;
    /* on_tick functions that lend themselves to the shared tick, by the number
     * cd_share_tick_hook gave (its index + 1). */
    cd_shared_tick_hook shared_tick_hooks[CD_SHARED_TICK_HOOKS];
    /* The handle reference of the hook call in flight (LUA_NOREF: none), so that a
     * countdown ending inside its own hook keeps its handle (and id) until the
     * call returns; `in_flight_ended` records that it ended. Set by the host
     * around each hook call, and by cd_run_tick_batch around each of its own. */
    int in_flight_ref;
    int in_flight_ended;
} cd_hook_caller;

/* Makes the caller for a state (in a protected call); NULL when that failed. */
cd_hook_caller *cd_hook_caller_new(lua_State *L);
void cd_hook_caller_free(cd_hook_caller *caller);

/* The flags of the handle at `index`, from its id and hooks (every flag but
 * CD_HOOK_PERSISTENT). */
int cd_hook_flags(lua_State *L, cd_hook_caller *caller, int index);

/* ---- starting countdowns ----------------------------------------------- */

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

/* For a countdown whose on_tick (user value CD_UV_TICK of the handle at `index`) lets its
 * `t` go (`flags`, its cd_hook_flags, say so): a number from 1 to
 * CD_SHARED_TICK_HOOKS under which cd_call_hook finds that function without
 * reading the handle, one more use of it; 0 when the countdown has no such hook
 * or all the numbers are taken by other functions. Never raises. */
int cd_share_tick_hook(lua_State *L, cd_hook_caller *caller, int index, int flags);
/* One use less of the function cd_share_tick_hook numbered `shared_hook` (0:
 * nothing); the last lets it go. Never raises. */
void cd_release_tick_hook(lua_State *L, cd_hook_caller *caller, int shared_hook);

/* Makes the handle at `index`, registry[ref], the countdown of its id (user
 * value 1), if it has one; `*replaced` is the handle that held the id until now
 * (to be ended as replaced), or NULL. Returns 0 when there was no memory for the
 * id (nothing changed), else 1. */
int cd_bind_id(lua_State *L, cd_hook_caller *caller, int index, int ref, cd_handle **replaced);
/* cd_bind_id with the id (a string) at `id_index`, its hash (cd_prefetch_id_slot)
 * and the handle by address. */
int cd_bind_id_at(lua_State *L, cd_hook_caller *caller, int id_index, uint32_t hash, cd_handle *handle, int ref,
                  cd_handle **replaced);
/* Returns the hash of the id `bytes`, and asks the processor for the table slot
 * where it would go: a hint, ahead of cd_bind_id_at. */
uint32_t cd_prefetch_id_slot(const cd_hook_caller *caller, const char *bytes, size_t length);
/* Frees the table (when the state closes). */
void cd_id_map_free(cd_id_map *map);
/* The handle of a countdown that just ended, registry[ref] (where only
 * cd_ref_handle puts handles, so it needs no type check), with its id forgotten
 * first when `has_id` and it still holds it. Nothing stays on the stack; the handle
 * stays valid while the reference is held. */
cd_handle *cd_ended_handle(lua_State *L, cd_hook_caller *caller, int ref, int has_id);
/* Pushes the handle of the running countdown with the id at `index`, or nil. */
void cd_push_handle_for_id(lua_State *L, cd_hook_caller *caller, int index);

/* Calls a countdown's hook with a tick, protected, with a traceback handler.
 * The handle registry[handle_ref] holds the id and the hooks in its user values
 * (CD_UV_ID, CD_UV_TICK, CD_UV_DONE); `flags` are its cd_hook_flags.
 * The tick's fields come by value. `reason` is NULL for on_tick, else the
 * second argument of on_done. `msgh` is the stack index of a traceback handler
 * already in place, which the run loop keeps, or 0 (a call nested in a host
 * function) to push one for this call.
 * From the run loop, a hook that cannot keep its `t` gets the one shared tick
 * instead of a new one. `shared_hook` is the countdown's cd_share_tick_hook
 * number (0 for none): its on_tick is then called without reading the handle
 * (one memory access less per tick, to a place no other tick reads).
 * Returns a Lua status; on error the message (with traceback) is left on top
 * of the stack. Returns LUA_OK without a call when the hook is absent. */
int cd_call_hook(lua_State *L, cd_hook_caller *caller, int msgh, int handle_ref, cd_hook_slot hook, int flags, int shared_hook,
                 int64_t remaining_ns, int64_t total_ns, int64_t missed, const char *reason);

/* ---- ticks in a row -------------------------------------------------- */

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

/* Whether the function at `index`, called with a tick as its first argument,
 * provably lets it go when it returns: it only reads fields of it (see
 * tick_escape.c). 0 for C functions and anything unsure. The verdict is kept per
 * function. Safe to call from Swift: the work runs in a protected call. */
int cd_tick_stays_local(lua_State *L, int index);

/* cd_ref for a countdown's handle (popped from the top). Keys released by
 * cd_unref_handle come first (one store). Otherwise (countdowns being started,
 * none ended) the key after the last one given is usually still free (nil), and
 * taking it costs one lookup, where luaL_ref reads its free list and then the
 * registry's length. */
int cd_ref_handle(lua_State *L, cd_hook_caller *caller);
/* Releases a reference cd_ref_handle gave (two stores, where luaL_unref reads
 * and writes its free list in the registry). */
void cd_unref_handle(lua_State *L, cd_hook_caller *caller, int ref);

/* Pushes the table at registry[key] (a light userdata key), made on first use
 * with weak keys: what the host keeps per Lua value, never keeping it alive. */
void cd_push_weak_keyed_table(lua_State *L, const void *key);

/* Pushes registry[ref]. */
void cd_push_ref(lua_State *L, int ref);
/* Pops the top value into the registry and returns its reference. */
int cd_ref(lua_State *L);
void cd_unref(lua_State *L, int ref);

/* A countdown handle as Lua holds it: a full userdata with this payload. */
struct cd_handle {
    int32_t slot;
    uint32_t generation;
    /* The state to report once the countdown has ended (CountdownState raw value). */
    uint8_t final_state;
    /* 1 when the countdown is kept in the store (started with persist, or fetched). */
    uint8_t persistent;
    /* The tick interval, kept so that append can restart an ended countdown. */
    int64_t every_ns;
};

/* Pushes a new handle userdata with the handle metatable (created on first use,
 * stored in the registry under "cdscript.handle") and 4 user values (CD_UV_*). */
cd_handle *cd_new_handle(lua_State *L);
/* The handle at `index`, or NULL when the value there is not one. */
cd_handle *cd_to_handle(lua_State *L, int index);
/* Pushes the handle metatable. */
void cd_push_handle_metatable(lua_State *L);
/* Replaces the methods table on top of the stack with the handle metatable's
 * __index function: `h.id`, else the method of that name. */
void cd_push_handle_index(lua_State *L);

/* Line-buffers stdout, so `print` output appears line by line even in a pipe. */
void cd_line_buffer_stdout(void);

#endif
