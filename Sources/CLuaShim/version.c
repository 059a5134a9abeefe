#include <lua.h>
#include "CLuaVersion.h"

/* lua_ident lives in the linked library, so this names the Lua that really runs,
 * not the header the binary was compiled against. */
const char *cd_lua_ident(void) { return lua_ident; }
