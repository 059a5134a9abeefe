/* load, loadfile and dofile, written from the reference manual's description
 * (§6.1, luaL_loadfilex in §5.1) and held to lua5.4's observed behaviour by
 * StdlibLoadersMatchLuaTests; cdscript's changes: under the sandbox, files
 * only from the allowed folders, no standard input and no bytecode (see
 * stdlib_internal.h). */

#include "stdlib_internal.h"
#include <lauxlib.h>
#include <errno.h>
#include <string.h>

/* The sandbox's refusal reads like the core's own refusal of a binary chunk
 * under mode "t", so a script handles both the same way. */
static const char *const BINARY_REFUSED = "attempt to load a binary chunk (mode is 't')";
static const char UTF8_BOM[] = "\xEF\xBB\xBF";

/* ---- a chunk read from a file ----------------------------------------- */

/* The file is handed to lua_load block by block. Its start is looked at
 * first: a UTF-8 byte-order mark is dropped, and a first line starting with
 * '#' (a shebang) is dropped but for its newline, so that the lines after it
 * keep their numbers; a binary chunk after such a line keeps no newline. */
typedef struct FileChunk {
    FILE *file;
    const char *prefix;  /* handed out before the block, or NULL */
    const char *next;    /* what is left of `block` to hand out */
    size_t next_size;
    int read_errno;      /* errno of a failed read, or 0 */
    char block[BUFSIZ];
} FileChunk;

/* Fills the block with the file's next bytes; whether any came. */
static int refill(FileChunk *chunk) {
    errno = 0;
    size_t got = fread(chunk->block, 1, sizeof chunk->block, chunk->file);
    if (got == 0 && ferror(chunk->file) && chunk->read_errno == 0) chunk->read_errno = errno ? errno : EIO;
    chunk->next = chunk->block;
    chunk->next_size = got;
    return got > 0;
}

static void drop_front(FileChunk *chunk, size_t count) {
    chunk->next += count;
    chunk->next_size -= count;
}

static int starts_binary(const FileChunk *chunk) {
    return chunk->next_size > 0 && chunk->next[0] == LUA_SIGNATURE[0];
}

/* Drops a first line's text and its newline, reading on when the line is
 * longer than a block; what follows it is then at the front. */
static void drop_first_line(FileChunk *chunk) {
    for (;;) {
        const char *newline = memchr(chunk->next, '\n', chunk->next_size);
        if (newline != NULL) {
            drop_front(chunk, (size_t)(newline - chunk->next) + 1);
            if (chunk->next_size == 0) refill(chunk);
            return;
        }
        if (!refill(chunk)) return;
    }
}

/* Positions the chunk at the text lua_load should see; returns whether it is
 * a binary (precompiled) chunk. */
static int look_at_start(FileChunk *chunk) {
    chunk->prefix = NULL;
    chunk->read_errno = 0;
    refill(chunk);
    if (chunk->next_size >= 3 && memcmp(chunk->next, UTF8_BOM, 3) == 0) drop_front(chunk, 3);
    if (chunk->next_size > 0 && chunk->next[0] == '#') {
        drop_first_line(chunk);
        if (starts_binary(chunk)) return 1;
        chunk->prefix = "\n"; /* the dropped line still counts as line 1 */
        return 0;
    }
    return starts_binary(chunk);
}

static const char *hand_out_block(lua_State *L, void *data, size_t *size) {
    FileChunk *chunk = data;
    (void)L;
    if (chunk->prefix != NULL) {
        const char *prefix = chunk->prefix;
        chunk->prefix = NULL;
        *size = strlen(prefix);
        return prefix;
    }
    if (chunk->next_size == 0 && !refill(chunk)) {
        *size = 0;
        return NULL;
    }
    *size = chunk->next_size;
    const char *piece = chunk->next;
    chunk->next_size = 0;
    return piece;
}

/* Pushes "cannot <what> <file>: <reason>" in place of the chunk name at `name_slot`. */
static int file_failure(lua_State *L, int name_slot, const char *what, const char *filename, const char *reason) {
    lua_pushfstring(L, "cannot %s %s: %s", what, filename, reason);
    lua_replace(L, name_slot);
    lua_settop(L, name_slot);
    return LUA_ERRFILE;
}

int cd_load_file(lua_State *L, const char *filename, const char *mode) {
    int sandbox = cd_stdlib_sandboxed(L);
    FileChunk chunk;
    if (filename == NULL && sandbox) {
        lua_pushliteral(L, "cannot read stdin: refused by --sandbox");
        return LUA_ERRFILE;
    }
    int name_slot = lua_gettop(L) + 1;
    if (filename == NULL) {
        lua_pushliteral(L, "=stdin");
        chunk.file = stdin;
    } else {
        int refused = 0;
        lua_pushfstring(L, "@%s", filename);
        errno = 0;
        chunk.file = cd_open_for_reading(L, filename, sandbox, &refused);
        if (refused) return file_failure(L, name_slot, "open", filename, CD_READ_REFUSED);
        if (chunk.file == NULL) return file_failure(L, name_slot, "open", filename, strerror(errno));
    }
    int status;
    if (look_at_start(&chunk) && sandbox) {
        lua_pushstring(L, BINARY_REFUSED);
        status = LUA_ERRSYNTAX;
    } else {
        status = lua_load(L, hand_out_block, &chunk, lua_tostring(L, name_slot), mode);
    }
    lua_remove(L, name_slot); /* the function or the message stays */
    if (filename != NULL) fclose(chunk.file);
    if (chunk.read_errno != 0)
        return file_failure(L, name_slot, "read", filename != NULL ? filename : "stdin", strerror(chunk.read_errno));
    return status;
}

/* ---- what load and loadfile return ------------------------------------- */

/* On success the function, its first upvalue set to the value at `env_arg`
 * when the caller gave one (even nil); on failure fail and the message. */
static int loaded_or_fail(lua_State *L, int status, int env_arg) {
    if (status != LUA_OK) {
        luaL_pushfail(L);
        lua_rotate(L, -2, 1);
        return 2;
    }
    if (env_arg > 0) {
        lua_pushvalue(L, env_arg);
        if (lua_setupvalue(L, -2, 1) == NULL) lua_pop(L, 1); /* no upvalue: nothing to set */
    }
    return 1;
}

static int env_argument(lua_State *L, int position) { return lua_isnone(L, position) ? 0 : position; }

int cd_std_loadfile(lua_State *L) {
    const char *filename = luaL_optstring(L, 1, NULL);
    const char *mode = luaL_optstring(L, 2, NULL);
    int env = env_argument(L, 3);
    return loaded_or_fail(L, cd_load_file(L, filename, mode), env);
}

/* ---- load with a reader function --------------------------------------- */

/* The reader's pieces must stay alive until lua_load asks for the next one:
 * each is kept in `keep_slot`. */
typedef struct ReaderCalls {
    int reader_slot;
    int keep_slot;
    int sandbox;
    int seen_bytes;      /* whether a non-empty piece came yet */
    int binary_refused;  /* cdscript: the sandbox ended the chunk */
} ReaderCalls;

static const char *call_reader(lua_State *L, void *data, size_t *size) {
    ReaderCalls *calls = data;
    luaL_checkstack(L, 2, "no room to call load's reader");
    lua_pushvalue(L, calls->reader_slot);
    lua_call(L, 0, 1);
    int type = lua_type(L, -1);
    if (type == LUA_TNIL) {
        lua_pop(L, 1);
        *size = 0;
        return NULL;
    }
    if (type != LUA_TSTRING && type != LUA_TNUMBER) luaL_error(L, "reader function must return a string");
    lua_replace(L, calls->keep_slot);
    const char *piece = lua_tolstring(L, calls->keep_slot, size);
    if (!calls->seen_bytes && *size > 0) {
        calls->seen_bytes = 1;
        /* cdscript: the first bytes tell a binary chunk. The chunk is ended
         * here and refused after lua_load returns, so that the message is the
         * bare one (an error raised in here would gain a traceback). */
        if (calls->sandbox && piece[0] == LUA_SIGNATURE[0]) {
            calls->binary_refused = 1;
            *size = 0;
            return NULL;
        }
    }
    return piece;
}

static int load_from_reader(lua_State *L, const char *mode, int sandbox) {
    const char *chunkname = luaL_optstring(L, 2, "=(load)");
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_settop(L, 4);
    lua_pushnil(L); /* slot 5: the piece being read */
    ReaderCalls calls = {.reader_slot = 1, .keep_slot = 5, .sandbox = sandbox};
    int status = lua_load(L, call_reader, &calls, chunkname, mode);
    if (calls.binary_refused) {
        lua_pop(L, 1);
        lua_pushstring(L, BINARY_REFUSED);
        status = LUA_ERRSYNTAX;
    }
    return status;
}

static int load_from_string(lua_State *L, const char *text, size_t length, const char *mode, int sandbox) {
    const char *chunkname = luaL_optstring(L, 2, text);
    if (sandbox && length > 0 && text[0] == LUA_SIGNATURE[0]) {
        lua_pushstring(L, BINARY_REFUSED);
        return LUA_ERRSYNTAX;
    }
    return luaL_loadbufferx(L, text, length, chunkname, mode);
}

int cd_std_load(lua_State *L) {
    size_t length;
    const char *text = lua_tolstring(L, 1, &length); /* a number counts as its text */
    const char *mode = luaL_optstring(L, 3, "bt");
    int env = env_argument(L, 4);
    int sandbox = cd_stdlib_sandboxed(L);
    int status = text != NULL ? load_from_string(L, text, length, mode, sandbox)
                              : load_from_reader(L, mode, sandbox);
    return loaded_or_fail(L, status, env);
}

/* ---- dofile ------------------------------------------------------------ */

/* Everything above the file name is what the chunk returned; a continuation,
 * so that the chunk may yield through dofile. */
static int chunk_results(lua_State *L, int status, lua_KContext context) {
    (void)status;
    (void)context;
    return lua_gettop(L) - 1;
}

int cd_std_dofile(lua_State *L) {
    const char *filename = luaL_optstring(L, 1, NULL);
    lua_settop(L, 1);
    /* Not protected: a load error or the chunk's error goes to the caller. */
    if (cd_load_file(L, filename, NULL) != LUA_OK) return lua_error(L);
    lua_callk(L, 0, LUA_MULTRET, 0, chunk_results);
    return chunk_results(L, LUA_OK, 0);
}
