/* string.rep (lstrlib.c), its result capped (see stdlib_internal.h). */

#include "stdlib_internal.h"
#include <lauxlib.h>
#include <limits.h>
#include <string.h>

#define MAXSIZE (sizeof(size_t) < sizeof(int) ? (~(size_t)0) : (size_t)(INT_MAX))

/* cdscript: the result is capped (config rep_limit): string.rep runs in C,
 * where the instruction budget cannot stop it. */
int cd_std_rep(lua_State *L) {
    size_t l, lsep;
    const char *s = luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    const char *sep = luaL_optlstring(L, 3, "", &lsep);
    if (n <= 0)
        lua_pushliteral(L, "");
    else if (l + lsep < l || l + lsep > MAXSIZE / n)
        return luaL_error(L, "resulting string too large");
    else {
        size_t totallen = (size_t)n * l + (size_t)(n - 1) * lsep;
        cd_stdlib_config_field(L, "rep_limit");
        lua_Integer cap = lua_tointeger(L, -1);
        lua_pop(L, 1);
        if (cap > 0 && totallen > (size_t)cap)
            return luaL_error(L, "resulting string too large (%I bytes; cdscript's string.rep makes at most %I)",
                              (lua_Integer)totallen, cap);
        luaL_Buffer b;
        char *p = luaL_buffinitsize(L, &b, totallen);
        while (n-- > 1) {
            memcpy(p, s, l * sizeof(char));
            p += l;
            if (lsep > 0) {
                memcpy(p, sep, lsep * sizeof(char));
                p += lsep;
            }
        }
        memcpy(p, s, l * sizeof(char));
        luaL_pushresultsize(&b, totallen);
    }
    return 1;
}
