#ifndef CLUASLOTS_H
#define CLUASLOTS_H

/* The numbers that cross the C/Swift boundary, named once for both sides (as luv
 * names its callback slots): which hook a call is for, where a handle keeps its
 * id and hooks, what cd_call_hook knows of a countdown, and the fields of a tick. */

/* A countdown handle's user values. on_tick comes first: a handle with an
 * on_tick and nothing else (the common start) is made with one user value, not
 * two with an empty id slot before it, 16 bytes less per countdown. (Macros, not
 * an enum: Swift passes them to lua_getiuservalue as they import, as Int32.) */
#define CD_UV_TICK 1
#define CD_UV_ID 2
#define CD_UV_DONE 3
#define CD_UV_ERROR 4

/* The hook cd_call_hook calls. The numbers are also shifts: hook `h` that cannot
 * keep its `t` sets flag 1 << h (cd_hook_local_flag), between CD_HOOK_HAS_ID and
 * CD_HOOK_HAS_TICK. on_done's number is its user value's. */
typedef enum cd_hook_slot {
    CD_HOOK_ON_TICK = 2,
    CD_HOOK_ON_DONE = 3
} cd_hook_slot;
_Static_assert(CD_HOOK_ON_DONE == CD_UV_DONE, "cd_hook_uv returns on_done's slot as its user value");

/* The user value that holds hook `hook`. */
static inline int cd_hook_uv(cd_hook_slot hook) { return hook == CD_HOOK_ON_TICK ? CD_UV_TICK : (int)hook; }

/* What cd_call_hook needs to know of a countdown, worked out once (cd_hook_flags).
 * The host keeps them in a byte. */
enum {
    /* The countdown has an id (its handle's user value CD_UV_ID is not nil). */
    CD_HOOK_HAS_ID = 1,
    /* The countdown's on_tick cannot keep its `t` (tick_escape.c): it may get the shared tick. */
    CD_HOOK_TICK_LOCAL = 1 << CD_HOOK_ON_TICK,
    /* The countdown's on_done cannot keep its `t`. */
    CD_HOOK_DONE_LOCAL = 1 << CD_HOOK_ON_DONE,
    /* The countdown has an on_tick hook. */
    CD_HOOK_HAS_TICK = 16,
    /* The countdown is kept in the store (its handle's `persistent`). */
    CD_HOOK_PERSISTENT = 32,
    /* The countdown has an on_done hook: without one, its end calls nothing. */
    CD_HOOK_HAS_DONE = 64
};

/* CD_HOOK_TICK_LOCAL or CD_HOOK_DONE_LOCAL, for `hook`: a shift, no branch. */
static inline int cd_hook_local_flag(cd_hook_slot hook) { return 1 << hook; }

/* The fields of a tick as Lua reads them (`t.remaining`), in the order `pairs`
 * walks them. */
typedef enum cd_tick_field {
    CD_TICK_ID,
    CD_TICK_REMAINING,
    CD_TICK_DAYS,
    CD_TICK_HOURS,
    CD_TICK_MINUTES,
    CD_TICK_SECONDS,
    CD_TICK_TENTHS,
    CD_TICK_ELAPSED,
    CD_TICK_PROGRESS,
    CD_TICK_MISSED,
    CD_TICK_OVERTIME,
    CD_TICK_FIELD_COUNT
} cd_tick_field;

/* The options of countdown.start, in the order of cd_hook_caller.option_names. */
enum {
    CD_OPTION_ID, CD_OPTION_SECONDS, CD_OPTION_AT, CD_OPTION_EVERY,
    CD_OPTION_ON_TICK, CD_OPTION_ON_DONE, CD_OPTION_ON_ERROR, CD_OPTION_PERSIST,
    CD_OPTION_COUNT
};

#endif
