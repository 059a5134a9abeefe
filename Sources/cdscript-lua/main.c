/* `cdscript-lua`: the plain Lua interpreter, an executable of its own beside
 * `cdscript`, so that a spec's `arg[-1]` is one word that runs a Lua file as
 * `lua5.4` does (busted specs such as teal's build `arg[-1] -e ... tl ...`
 * command lines with it). It links only Lua and libc (no Swift runtime, no
 * Foundation, none of cdscript's code): a start costs what lua5.4's does (release
 * build, perf stat -r 200 `-e ''`: 0.64-0.88 ms of CPU and 80 page faults, lua5.4
 * 0.71-0.90 ms and 99), where cdscript's 93 MB binary run under this name took
 * 3.0 ms and 434 page faults. tl's spec/cli starts it 114 times.
 *
 * Written here from the Lua 5.4 manual, section 7, and checked against the
 * real `lua5.4` (Tests/EndToEndTests/PlainLuaInterpreterTests.swift); the usage
 * text below is lua5.4's output, recorded as a fact:
 * options -e, -l, -v, -E, -W, --, - and a script with its arguments are handled
 * in order, then the script runs with its arguments; any error is written to
 * stderr as "PROGRAM: message" (with a traceback when the error came from
 * running Lua code) and the exit status is 1. -i (or no script with a terminal
 * on standard input) gives lua5.4's prompt (repl.c). One bare state, Lua's
 * standard libraries, nothing of cdscript's host.
 *
 * Everything here runs inside one lua_pcall: no Lua error leaves this file. */
#include "luacov_standin.h"
#include "repl.h"
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What the messages start with: argv[0] as given, as lua5.4 writes its own. */
static const char *program_name = "lua";

static void write_message(const char *message) {
    fprintf(stderr, "%s: %s\n", program_name, message);
    fflush(stderr);
}

/* Passes `status` on; when it is a failure, the message on top of the stack
 * is written and popped first. */
static int shown_status(lua_State *L, int status) {
    if (status == LUA_OK) return status;
    const char *message = lua_tostring(L, -1);
    write_message(message != NULL ? message : "(error object is not a string)");
    lua_pop(L, 1);
    return status;
}

/* The message handler: a string (or a number) gets a traceback; an object with
 * a __tostring that yields a string is written as that string alone. */
static int add_traceback(lua_State *L) {
    const char *message = lua_tostring(L, 1);
    if (message == NULL) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
            return 1;
        message = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_traceback(L, L, message, 1);
    return 1;
}

/* Ctrl-C while Lua runs: the next hook raises "interrupted!", which the script
 * may catch; a second Ctrl-C, with the default action back, ends the process. */
static lua_State *running_state = NULL;

static void raise_interrupted(lua_State *L, lua_Debug *ar) {
    (void)ar;
    lua_sethook(L, NULL, 0, 0); /* once */
    lua_pushstring(L, "interrupted!");
    lua_error(L);
}

static void on_interrupt(int signal_number) {
    signal(signal_number, SIG_DFL);
    lua_sethook(running_state, raise_interrupted, LUA_MASKCALL | LUA_MASKRET | LUA_MASKLINE | LUA_MASKCOUNT, 1);
}

/* Calls the function below `nargs` arguments with the traceback handler and
 * Ctrl-C turned into a Lua error. */
static int call(lua_State *L, int nargs, int nresults) {
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, add_traceback);
    lua_insert(L, base);
    running_state = L;
    signal(SIGINT, on_interrupt);
    int status = lua_pcall(L, nargs, nresults, base);
    signal(SIGINT, SIG_DFL);
    lua_remove(L, base);
    return status;
}

static int run_loaded(lua_State *L, int load_status) {
    return shown_status(L, load_status == LUA_OK ? call(L, 0, 0) : load_status);
}

/* NULL reads standard input (chunk name "=stdin"). */
static int run_file(lua_State *L, const char *path) {
    return run_loaded(L, luaL_loadfile(L, path));
}

static int run_string(lua_State *L, const char *text, const char *chunk_name) {
    return run_loaded(L, luaL_loadbuffer(L, text, strlen(text), chunk_name));
}

/* -l mod sets global mod = require("mod"); -l g=mod sets global g. */
static int require_into_global(lua_State *L, const char *option) {
    const char *equals = strchr(option, '=');
    const char *module = equals != NULL ? equals + 1 : option;
    size_t global_length = equals != NULL ? (size_t)(equals - option) : strlen(option);
    lua_pushglobaltable(L);
    lua_pushlstring(L, option, global_length);
    lua_getfield(L, -2, "require");
    lua_pushstring(L, module);
    int status = call(L, 1, 1);
    if (status != LUA_OK) {
        lua_rotate(L, -3, 1); /* the message above the globals and the name */
        lua_pop(L, 2);
        return shown_status(L, status);
    }
    lua_settable(L, -3); /* _G[global] = the module */
    lua_pop(L, 1);
    return status;
}

/* What the command line asks for, read before anything runs. */
typedef struct {
    int bad_option;  /* index of the option that is unknown or lacks its value; 0 if none */
    int script;      /* index of the script ("-" for stdin); 0 when there is none */
    int executes;    /* some -e */
    int version;     /* -v (or -i) */
    int interactive; /* -i */
    int no_environment; /* -E */
} command_line;

static command_line read_command_line(char **argv) {
    command_line line = {0};
    int i;
    for (i = 1; argv[i] != NULL; i++) {
        const char *word = argv[i];
        if (word[0] != '-') { line.script = i; return line; }
        switch (word[1]) {
        case '\0': /* "-": standard input is the script */
            line.script = i;
            return line;
        case '-': /* "--": the next word, if any, is the script */
            if (word[2] != '\0') { line.bad_option = i; return line; }
            line.script = argv[i + 1] != NULL ? i + 1 : 0;
            return line;
        case 'E': case 'W': case 'i': case 'v':
            if (word[2] != '\0') { line.bad_option = i; return line; }
            if (word[1] == 'E') line.no_environment = 1;
            if (word[1] == 'i') line.interactive = line.version = 1;
            if (word[1] == 'v') line.version = 1;
            break;
        case 'e': case 'l':
            if (word[1] == 'e') line.executes = 1;
            if (word[2] == '\0') { /* the value is the next word, which may not look like an option */
                if (argv[i + 1] == NULL || argv[i + 1][0] == '-') { line.bad_option = i; return line; }
                i++;
            }
            break;
        default:
            line.bad_option = i;
            return line;
        }
    }
    return line;
}

static void print_usage(const char *bad_option) {
    if (bad_option[1] == 'e' || bad_option[1] == 'l')
        fprintf(stderr, "%s: '%s' needs argument\n", program_name, bad_option);
    else
        fprintf(stderr, "%s: unrecognized option '%s'\n", program_name, bad_option);
    fprintf(stderr,
            "usage: %s [options] [script [args]]\n"
            "Available options are:\n"
            "  -e stat   execute string 'stat'\n"
            "  -i        enter interactive mode after executing 'script'\n"
            "  -l mod    require library 'mod' into global 'mod'\n"
            "  -l g=mod  require library 'mod' into global 'g'\n"
            "  -v        show version information\n"
            "  -E        ignore environment variables\n"
            "  -W        turn warnings on\n"
            "  --        stop handling options\n"
            "  -         stop handling options and execute stdin\n",
            program_name);
    fflush(stderr);
}

/* arg[0] is the script (or the program when there is none); the words before it
 * get negative indices, the script's arguments positive ones. */
static void set_arg_table(lua_State *L, int argc, char **argv, int script) {
    int after = argc - script - 1;
    lua_createtable(L, after > 0 ? after : 0, script + 1);
    for (int word = 0; word < argc; word++) {
        lua_pushstring(L, argv[word]);
        lua_seti(L, -2, (lua_Integer)word - script);
    }
    lua_setglobal(L, "arg");
}

/* LUA_INIT_5_4, else LUA_INIT: "@file" runs the file, anything else is a chunk. */
static int run_init_variable(lua_State *L) {
    const char *name = "LUA_INIT_" LUA_VERSION_MAJOR "_" LUA_VERSION_MINOR;
    const char *value = getenv(name);
    if (value == NULL) {
        name = "LUA_INIT";
        value = getenv(name);
    }
    if (value == NULL) return LUA_OK;
    if (value[0] == '@') return run_file(L, value + 1);
    lua_pushfstring(L, "=%s", name);
    const char *chunk_name = lua_tostring(L, -1);
    int status = run_string(L, value, chunk_name);
    lua_pop(L, 1);
    return status;
}

/* -e, -l and -W, in the order given, up to `end` (the script, or argc). */
static int run_options(lua_State *L, char **argv, int end) {
    for (int i = 1; i < end; i++) {
        char option = argv[i][1];
        if (option == 'W') {
            lua_warning(L, "@on", 0);
            continue;
        }
        if (option != 'e' && option != 'l') continue;
        const char *value = argv[i] + 2;
        if (*value == '\0') value = argv[++i];
        int status = option == 'e' ? run_string(L, value, "=(command line)") : require_into_global(L, value);
        if (status != LUA_OK) return 0;
    }
    return 1;
}

/* Runs the script with the positive entries of `arg` (as they are now, after
 * -e and LUA_INIT) as its arguments. "-" is standard input unless it follows "--". */
static int run_script(lua_State *L, char **argv, int script) {
    const char *path = argv[script];
    if (strcmp(path, "-") == 0 && strcmp(argv[script - 1], "--") != 0) path = NULL;
    int status = luaL_loadfile(L, path);
    if (status != LUA_OK) return shown_status(L, status);
    if (lua_getglobal(L, "arg") != LUA_TTABLE) return luaL_error(L, "'arg' is not a table");
    int count = (int)luaL_len(L, -1);
    luaL_checkstack(L, count + 3, "too many arguments to script");
    int table = lua_gettop(L);
    for (int position = 1; position <= count; position++) lua_rawgeti(L, table, position);
    lua_remove(L, table);
    return shown_status(L, call(L, count, LUA_MULTRET));
}

/* The command line as main got it. */
typedef struct {
    int count;
    char **words;
} program_words;

static int run_protected(lua_State *L) {
    const program_words *given = lua_touserdata(L, 1);
    int argc = given->count;
    char **argv = given->words;
    luaL_checkversion(L);
    command_line line = read_command_line(argv);
    if (line.bad_option != 0) {
        print_usage(argv[line.bad_option]);
        return 0;
    }
    int reads_stdin_as_prompt = line.script == 0 && !line.executes && !line.version && isatty(STDIN_FILENO);
    if (line.version || reads_stdin_as_prompt) {
        fputs(LUA_COPYRIGHT "\n", stdout);
        fflush(stdout);
    }
    if (line.no_environment) { /* the package library then ignores LUA_PATH and LUA_CPATH */
        lua_pushstring(L, "LUA_NOENV");
        lua_pushboolean(L, 1);
        lua_rawset(L, LUA_REGISTRYINDEX);
    }
    luaL_openlibs(L);
    cd_luacov_standin_install(L); /* -lluacov under `cdscript test -c` */
    set_arg_table(L, argc, argv, line.script);
    lua_gc(L, LUA_GCRESTART);
    lua_gc(L, LUA_GCGEN, 0, 0); /* lua5.4 runs scripts with the generational collector */
    if (!line.no_environment && run_init_variable(L) != LUA_OK) return 0;
    if (!run_options(L, argv, line.script > 0 ? line.script : argc)) return 0;
    if (line.script > 0 && run_script(L, argv, line.script) != LUA_OK) return 0;
    if (line.interactive || reads_stdin_as_prompt) {
        cd_repl(L, call);
    } else if (line.script == 0 && !line.executes && !line.version) {
        if (run_file(L, NULL) != LUA_OK) return 0;
    }
    lua_pushboolean(L, 1);
    return 1;
}

/* Runs the command line; the exit status is 0 when every step ran, 1 otherwise
 * (a script that calls os.exit never returns here). */
int main(int argc, char **argv) {
    if (argv[0] != NULL && argv[0][0] != '\0') program_name = argv[0];
    lua_State *L = luaL_newstate();
    if (L == NULL) {
        write_message("cannot create state: not enough memory");
        return 1;
    }
    lua_gc(L, LUA_GCSTOP); /* no collection while the libraries load */
    program_words given = {argc, argv};
    lua_pushcfunction(L, run_protected);
    lua_pushlightuserdata(L, &given);
    int status = lua_pcall(L, 1, 1, 0);
    int ran = lua_toboolean(L, -1);
    shown_status(L, status);
    lua_close(L);
    return ran && status == LUA_OK ? 0 : 1;
}
