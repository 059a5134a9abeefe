/* The warning function a script's state starts with, as lua5.4's stand-alone
 * interpreter behaves (observed; the reference manual's §2.3 and warn in
 * §6.1 describe the control messages) and held to it by WarningsMatchLuaTests:
 * warnings are off until "@on"; "@off" and "@on" are control messages only
 * when sent whole (one piece); a shown warning is "Lua warning: " and its
 * pieces on stderr, then a newline (see stdlib_internal.h). */

#include "stdlib_internal.h"
#include <string.h>

/* The three states a warning passes through, each its own warning function
 * (the state's warning function is the state: nothing else to keep). */
static void warn_shown_start(void *ud, const char *piece, int more_follows);
static void warn_shown_rest(void *ud, const char *piece, int more_follows);

static void write_stderr(const char *text) {
    fputs(text, stderr);
    fflush(stderr);
}

/* Acts on "@on"/"@off"; whether `piece` was a control message (any other
 * single piece starting with '@' is one too, and is ignored). */
static int obeyed_control(lua_State *L, const char *piece, int more_follows) {
    if (more_follows || piece[0] != '@') return 0;
    if (strcmp(piece, "@on") == 0) lua_setwarnf(L, warn_shown_start, L);
    else if (strcmp(piece, "@off") == 0) lua_setwarnf(L, cd_warn_off, L);
    return 1;
}

void cd_warn_off(void *ud, const char *piece, int more_follows) {
    obeyed_control((lua_State *)ud, piece, more_follows);
}

static void warn_shown_start(void *ud, const char *piece, int more_follows) {
    if (obeyed_control((lua_State *)ud, piece, more_follows)) return;
    write_stderr("Lua warning: ");
    warn_shown_rest(ud, piece, more_follows);
}

/* A piece of a warning being shown: the last one ends the line and lets the
 * next warning start afresh. */
static void warn_shown_rest(void *ud, const char *piece, int more_follows) {
    lua_State *L = (lua_State *)ud;
    write_stderr(piece);
    if (more_follows) {
        lua_setwarnf(L, warn_shown_rest, L);
    } else {
        write_stderr("\n");
        lua_setwarnf(L, warn_shown_start, L);
    }
}
