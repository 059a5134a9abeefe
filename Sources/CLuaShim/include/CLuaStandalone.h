#ifndef CLUASTANDALONE_H
#define CLUASTANDALONE_H

/* `cdscript-lua`: the plain Lua interpreter, as `lua5.4` is (the Lua 5.4 manual,
 * section 7): options -e, -l, -v, -E, -W, --, - and a script with its arguments,
 * the `arg` table, LUA_INIT_5_4 / LUA_INIT, errors written as "PROGRAM: message"
 * with a traceback. Only the interactive prompt (-i, or no script on a terminal)
 * is refused. Nothing of cdscript's host is set up: one bare state and Lua's
 * standard libraries.
 *
 * Runs the command line and returns the process's exit status: 0 when every
 * step ran, 1 otherwise (a script that calls os.exit never returns here). */
int cd_lua_standalone_main(int argc, char **argv);

#endif
