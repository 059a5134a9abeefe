/* The warning function (lauxlib.c's, as lua.c's state gets it): off until a
 * script says "@on" (see stdlib_internal.h). */

#include "stdlib_internal.h"
#include <string.h>

static void warnfon(void *ud, const char *message, int tocont);
static void warnfcont(void *ud, const char *message, int tocont);

static int checkcontrol(lua_State *L, const char *message, int tocont) {
    if (tocont || *(message++) != '@') return 0;
    if (strcmp(message, "off") == 0)
        lua_setwarnf(L, cd_warn_off, L);
    else if (strcmp(message, "on") == 0)
        lua_setwarnf(L, warnfon, L);
    return 1;
}

void cd_warn_off(void *ud, const char *message, int tocont) {
    checkcontrol((lua_State *)ud, message, tocont);
}

static void warnfcont(void *ud, const char *message, int tocont) {
    lua_State *L = (lua_State *)ud;
    fprintf(stderr, "%s", message);
    fflush(stderr);
    if (tocont)
        lua_setwarnf(L, warnfcont, L);
    else {
        fprintf(stderr, "%s", "\n");
        fflush(stderr);
        lua_setwarnf(L, warnfon, L);
    }
}

static void warnfon(void *ud, const char *message, int tocont) {
    if (checkcontrol((lua_State *)ud, message, tocont)) return;
    fprintf(stderr, "%s", "Lua warning: ");
    fflush(stderr);
    warnfcont(ud, message, tocont);
}
