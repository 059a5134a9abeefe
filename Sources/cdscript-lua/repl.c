/* `-i`, or no script with a terminal on standard input: the prompt of lua5.4
 * (Lua 5.4 manual, section 7), as Debian's lua5.4 behaves.
 *
 * A line is first tried as an expression (`return LINE;`), whose values are
 * printed; else as a statement, read on over more lines (prompt `_PROMPT2`)
 * while the chunk is only unfinished (its syntax error is at "<eof>"). A line
 * starting with "=" is "return" and the rest. Prompts are `_PROMPT` and
 * `_PROMPT2` when set (through `tostring`), else "> " and ">> ". Errors are
 * written without the program's name, as lua5.4's prompt writes them.
 *
 * When standard input is not a terminal, each line read is written back after
 * its prompt: lua5.4 reads lines with readline, which does that, and Lua's own
 * testes (main.lua) look for the prompts and lines together in the output. */
#include "repl.h"
#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void write_error(const char *message) {
    fprintf(stderr, "%s\n", message != NULL ? message : "(null)");
    fflush(stderr);
}

/* Writes the prompt, reads a line and pushes it (without its line break; "=" at
 * the start of a first line made "return "). 0 at the end of the input, with
 * the prompt's value left on the stack (nil for the default one): lua5.4 leaves
 * it there, and writes it as the message of a chunk the input left unfinished. */
static int push_line(lua_State *L, int first_line, int echo) {
    const char *prompt = first_line ? "> " : ">> ";
    if (lua_getglobal(L, first_line ? "_PROMPT" : "_PROMPT2") != LUA_TNIL) {
        prompt = luaL_tolstring(L, -1, NULL);
        lua_remove(L, -2);
    }
    fputs(prompt, stdout);
    fflush(stdout);
    char *line = NULL;
    size_t size = 0;
    ssize_t length = getline(&line, &size, stdin);
    if (length < 0) {
        free(line);
        return 0;
    }
    lua_pop(L, 1); /* the prompt's value */
    if (length > 0 && line[length - 1] == '\n') line[--length] = '\0';
    if (echo) {
        fwrite(line, 1, (size_t)length, stdout);
        fputc('\n', stdout);
        fflush(stdout);
    }
    if (first_line && line[0] == '=')
        lua_pushfstring(L, "return %s", line + 1);
    else
        lua_pushlstring(L, line, (size_t)length);
    free(line);
    return 1;
}

/* The line on top as an expression: its chunk replaces it (LUA_OK), or the
 * stack is as it was. */
static int load_as_expression(lua_State *L) {
    const char *line = lua_tostring(L, -1);
    const char *with_return = lua_pushfstring(L, "return %s;", line);
    int status = luaL_loadbuffer(L, with_return, strlen(with_return), "=stdin");
    if (status == LUA_OK) {
        lua_remove(L, -2); /* the text with "return" */
        lua_remove(L, -2); /* the line */
    } else {
        lua_pop(L, 2);
    }
    return status;
}

/* A syntax error at the end of the text: the chunk goes on in the next line.
 * The message is popped then. */
static int unfinished(lua_State *L, int status) {
    static const char mark[] = "<eof>";
    size_t mark_length = sizeof mark - 1, length;
    if (status != LUA_ERRSYNTAX) return 0;
    const char *message = lua_tolstring(L, -1, &length);
    if (message == NULL || length < mark_length || strcmp(message + length - mark_length, mark) != 0) return 0;
    lua_pop(L, 1);
    return 1;
}

/* The line on top as statements, with more lines while unfinished: the chunk
 * (or the error) replaces it. At the end of the input within an unfinished
 * chunk the prompt's value takes the message's place: lua5.4 then writes it
 * ("(null)" for the default prompt). */
static int load_as_statements(lua_State *L, int echo) {
    for (;;) {
        size_t length;
        const char *text = lua_tolstring(L, -1, &length);
        int status = luaL_loadbuffer(L, text, length, "=stdin");
        if (!unfinished(L, status)) {
            lua_remove(L, -2);
            return status;
        }
        if (!push_line(L, 0, echo)) {
            lua_remove(L, -2); /* the text: the prompt's value is left */
            return status;
        }
        lua_pushliteral(L, "\n");
        lua_insert(L, -2);
        lua_concat(L, 3);
    }
}

/* Prints the values left above `base` with the global print. */
static void print_values(lua_State *L, int base) {
    int count = lua_gettop(L) - base;
    if (count <= 0) return;
    luaL_checkstack(L, LUA_MINSTACK, "too many results to print");
    lua_getglobal(L, "print");
    lua_insert(L, base + 1);
    if (lua_pcall(L, count, 0, 0) != LUA_OK) {
        write_error(lua_pushfstring(L, "error calling 'print' (%s)", lua_tostring(L, -1)));
        lua_pop(L, 2);
    }
}

void cd_repl(lua_State *L, int (*call)(lua_State *L, int nargs, int nresults)) {
    int base = lua_gettop(L);
    int echo = !isatty(STDIN_FILENO);
    for (;;) {
        if (!push_line(L, 1, echo)) break;
        int status = load_as_expression(L);
        if (status != LUA_OK) status = load_as_statements(L, echo);
        if (status == LUA_OK) status = call(L, 0, LUA_MULTRET);
        if (status == LUA_OK) {
            print_values(L, base);
        } else {
            write_error(lua_tostring(L, -1));
        }
        lua_settop(L, base);
    }
    lua_settop(L, base);
    fputc('\n', stdout);
    fflush(stdout);
}
