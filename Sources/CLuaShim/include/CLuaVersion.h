#ifndef CLUAVERSION_H
#define CLUAVERSION_H

/* The version string of the Lua library this binary is linked with (its
 * `lua_ident`: "$LuaVersion: Lua 5.4.4  Copyright ... $..."), for --version. */
const char *cd_lua_ident(void);

#endif
