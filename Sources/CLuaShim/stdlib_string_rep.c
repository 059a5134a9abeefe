/* string.rep, written from the reference manual's description (§6.4) and
 * held to lua5.4's observed results and messages by StringRepMatchesLuaTests;
 * cdscript caps the result (see stdlib_internal.h). */

#include "stdlib_internal.h"
#include <lauxlib.h>
#include <limits.h>
#include <string.h>

/* lua5.4 refuses ("resulting string too large") a result that, counting a
 * separator after every copy, would pass INT_MAX bytes. */
static int longer_than_lua_allows(size_t copy, size_t separator, lua_Integer copies) {
    size_t unit = copy + separator;
    if (unit < copy) return 1; /* the sum wrapped */
    return unit > 0 && (size_t)copies > (size_t)INT_MAX / unit;
}

/* The cap (config rep_limit, bytes; 0 or less: none). */
static lua_Integer rep_cap(lua_State *L) {
    cd_stdlib_config_field(L, "rep_limit");
    lua_Integer cap = lua_tointeger(L, -1);
    lua_pop(L, 1);
    return cap;
}

/* cdscript: the result is capped: string.rep runs in C, where the
 * instruction budget cannot stop it. */
int cd_std_rep(lua_State *L) {
    size_t copy_length, separator_length;
    const char *copy = luaL_checklstring(L, 1, &copy_length);
    lua_Integer copies = luaL_checkinteger(L, 2);
    const char *separator = luaL_optlstring(L, 3, "", &separator_length);
    if (copies <= 0) {
        lua_pushliteral(L, "");
        return 1;
    }
    if (longer_than_lua_allows(copy_length, separator_length, copies))
        return luaL_error(L, "resulting string too large");
    size_t total = (size_t)copies * copy_length + (size_t)(copies - 1) * separator_length;
    lua_Integer cap = rep_cap(L);
    if (cap > 0 && total > (size_t)cap)
        return luaL_error(L, "resulting string too large (%I bytes; cdscript's string.rep makes at most %I)",
                          (lua_Integer)total, cap);
    if (total == 0) { /* empty copies and separators: nothing to repeat */
        lua_pushliteral(L, "");
        return 1;
    }
    luaL_Buffer result;
    char *out = luaL_buffinitsize(L, &result, total);
    for (lua_Integer made = 0; made < copies; made++) {
        if (made > 0 && separator_length > 0) {
            memcpy(out, separator, separator_length);
            out += separator_length;
        }
        memcpy(out, copy, copy_length);
        out += copy_length;
    }
    luaL_pushresultsize(&result, total);
    return 1;
}
