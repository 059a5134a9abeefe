/* Interrupting Lua from a signal handler, as lua.c does: lua_sethook is
 * async-signal-safe, and the hook it sets raises "interrupted" at the next
 * instruction, call or return of that thread. Hooks belong to one thread (a
 * coroutine has its own), so the coroutine running now is tracked (by the
 * tracked resume and wrap of coroutines.c).
 *
 * The bottom of the limits: this file calls no other of the shim's. */
#include "CLuaInterrupt.h"
#include <lauxlib.h>

volatile sig_atomic_t cd_interrupted = 0;
lua_State *volatile cd_interrupt_main = NULL;
lua_State *volatile cd_interrupt_running = NULL;

int cd_interrupt_signal(void) { return cd_interrupted; }

void cd_interrupt_attach(lua_State *L) {
    /* The first state wins: a run makes its state first, and a state made later
     * for something else must not take signals away from it. */
    if (cd_interrupt_main != NULL) return;
    cd_interrupt_running = NULL;
    cd_interrupt_main = L;
}

void cd_interrupt_take(lua_State *L) {
    cd_interrupt_running = NULL;
    cd_interrupt_main = L;
}

void cd_interrupt_detach(lua_State *L) {
    if (cd_interrupt_main == L) {
        cd_interrupt_main = NULL;
        cd_interrupt_running = NULL;
    }
}

void cd_stop_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    /* Every following instruction raises too: pcall in a loop cannot go on. */
    lua_sethook(L, cd_stop_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
    luaL_error(L, "interrupted");
}

void cd_interrupt(int signal) {
    cd_interrupted = signal;
    lua_State *L = cd_interrupt_main;
    if (L) lua_sethook(L, cd_stop_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
    lua_State *co = cd_interrupt_running;
    if (co && co != L) lua_sethook(co, cd_stop_hook, LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
}
