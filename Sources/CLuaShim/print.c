/* Lua's print, written through the host's writer: see CLuaPrint.h. */
#include "CLuaPrint.h"
#include <lauxlib.h>
#include <stdio.h>

static cd_output_writer writer = NULL;

void cd_set_output_writer(cd_output_writer w) { writer = w; }

int cd_print(lua_State *L) {
    int n = lua_gettop(L);
    luaL_Buffer line;
    luaL_buffinit(L, &line);
    for (int i = 1; i <= n; i++) {
        if (i > 1) luaL_addchar(&line, '\t');
        luaL_tolstring(L, i, NULL);
        luaL_addvalue(&line);
    }
    luaL_addchar(&line, '\n');
    luaL_pushresult(&line);
    size_t length;
    const char *bytes = lua_tolstring(L, -1, &length);
    if (writer) {
        /* A failure ends the run through the writer; print itself returns as Lua's does. */
        (void)writer(bytes, length, "what the script printed");
    } else {
        fwrite(bytes, 1, length, stdout);
        fflush(stdout);
    }
    return 0;
}
