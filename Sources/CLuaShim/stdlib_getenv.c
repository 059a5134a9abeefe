/* os.getenv under the sandbox: the reference manual's os.getenv (§6.9: the
 * variable's value, or fail when it is not defined), limited to a few
 * variables (see stdlib_internal.h). */

#include "stdlib_internal.h"
#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>

/* The variables a sandboxed script may read: locale, time zone and terminal. */
static const char *const ENV_ALLOWED[] = {
    "TZ", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_NUMERIC", "LC_TIME", "LC_COLLATE", "LC_MONETARY",
    "LC_MESSAGES", "TERM", "COLORTERM", "NO_COLOR", "COLUMNS", "LINES", NULL,
};

static int allowed(const char *name) {
    for (const char *const *entry = ENV_ALLOWED; *entry != NULL; entry++)
        if (strcmp(*entry, name) == 0) return 1;
    return 0;
}

int cd_sandbox_getenv(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    const char *value = allowed(name) ? getenv(name) : NULL;
    if (value == NULL) luaL_pushfail(L);
    else lua_pushstring(L, value);
    return 1;
}
