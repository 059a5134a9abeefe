/* os.getenv under the sandbox (loslib.c's, limited to a few variables). */

#include "stdlib_internal.h"
#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>

/* The variables a sandboxed script may read: locale, time zone and terminal. */
static const char *const ENV_ALLOWED[] = {
    "TZ", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_NUMERIC", "LC_TIME", "LC_COLLATE", "LC_MONETARY",
    "LC_MESSAGES", "TERM", "COLORTERM", "NO_COLOR", "COLUMNS", "LINES", NULL,
};

int cd_sandbox_getenv(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    for (int i = 0; ENV_ALLOWED[i]; i++) {
        if (strcmp(name, ENV_ALLOWED[i]) == 0) {
            lua_pushstring(L, getenv(name));
            return 1;
        }
    }
    lua_pushnil(L);
    return 1;
}
