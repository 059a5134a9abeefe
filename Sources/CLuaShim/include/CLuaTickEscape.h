#ifndef CLUATICKESCAPE_H
#define CLUATICKESCAPE_H

/* Can a hook keep its `t`? (tick_escape.c) */
#include <lua.h>

/* Whether the function at `index`, called with a tick as its first argument,
 * provably lets it go when it returns: it only reads fields of it (see
 * tick_escape.c). 0 for C functions and anything unsure. The verdict is kept per
 * function. Safe to call from Swift: the work runs in a protected call. */
int cd_tick_stays_local(lua_State *L, int index);

#endif
