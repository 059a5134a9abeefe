/* load, loadfile and dofile (lauxlib.c's luaL_loadfilex, lbaselib.c's load):
 * under the sandbox, files only from the allowed folders and no bytecode
 * (see stdlib_internal.h). */

#include "stdlib_internal.h"
#include <lauxlib.h>
#include <errno.h>
#include <string.h>

static const char *const BINARY_REFUSED = "attempt to load a binary chunk (mode is 't')";

typedef struct LoadF {
    int n;
    FILE *f;
    char buff[BUFSIZ];
} LoadF;

static const char *getF(lua_State *L, void *ud, size_t *size) {
    LoadF *lf = (LoadF *)ud;
    (void)L;
    if (lf->n > 0) {
        *size = lf->n;
        lf->n = 0;
    } else {
        if (feof(lf->f)) return NULL;
        *size = fread(lf->buff, 1, sizeof(lf->buff), lf->f);
    }
    return lf->buff;
}

static int errfile(lua_State *L, const char *what, int fnameindex) {
    const char *serr = strerror(errno);
    const char *filename = lua_tostring(L, fnameindex) + 1;
    lua_pushfstring(L, "cannot %s %s: %s", what, filename, serr);
    lua_remove(L, fnameindex);
    return LUA_ERRFILE;
}

static int skipBOM(LoadF *lf) {
    const char *p = "\xEF\xBB\xBF";
    int c;
    lf->n = 0;
    do {
        c = getc(lf->f);
        if (c == EOF || c != *(const unsigned char *)p++) return c;
        lf->buff[lf->n++] = c;
    } while (*p != '\0');
    lf->n = 0;
    return getc(lf->f);
}

static int skipcomment(LoadF *lf, int *cp) {
    int c = *cp = skipBOM(lf);
    if (c == '#') {
        do {
            c = getc(lf->f);
        } while (c != EOF && c != '\n');
        *cp = getc(lf->f);
        return 1;
    }
    return 0;
}

int cd_load_file(lua_State *L, const char *filename, const char *mode) {
    LoadF lf;
    int status, readstatus;
    int c;
    int sandbox = cd_stdlib_sandboxed(L);
    int fnameindex = lua_gettop(L) + 1;
    if (filename == NULL) {
        if (sandbox) {
            lua_pushliteral(L, "cannot read stdin: refused by --sandbox");
            return LUA_ERRFILE;
        }
        lua_pushliteral(L, "=stdin");
        lf.f = stdin;
    } else {
        int refused;
        lua_pushfstring(L, "@%s", filename);
        errno = 0;
        lf.f = cd_open_for_reading(L, filename, sandbox, &refused);
        if (refused) {
            lua_pushfstring(L, "cannot open %s: %s", filename, CD_READ_REFUSED);
            lua_remove(L, fnameindex);
            return LUA_ERRFILE;
        }
        if (lf.f == NULL) return errfile(L, "open", fnameindex);
    }
    if (skipcomment(&lf, &c)) lf.buff[lf.n++] = '\n';
    if (c == LUA_SIGNATURE[0]) {
        if (sandbox) {
            if (filename) fclose(lf.f);
            lua_pushstring(L, BINARY_REFUSED);
            lua_remove(L, fnameindex);
            return LUA_ERRSYNTAX;
        }
        lf.n = 0;
        if (filename) {
            /* Lua reopens in binary mode here; on POSIX the bytes are the same,
             * and reopening by name would read whatever the name means now. */
            rewind(lf.f);
            skipcomment(&lf, &c);
        }
    }
    if (c != EOF) lf.buff[lf.n++] = c;
    errno = 0;
    status = lua_load(L, getF, &lf, lua_tostring(L, -1), mode);
    readstatus = ferror(lf.f);
    if (filename) fclose(lf.f);
    if (readstatus) {
        lua_settop(L, fnameindex);
        return errfile(L, "read", fnameindex);
    }
    lua_remove(L, fnameindex);
    return status;
}

static int load_aux(lua_State *L, int status, int envidx) {
    if (status == LUA_OK) {
        if (envidx != 0) {
            lua_pushvalue(L, envidx);
            if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
        }
        return 1;
    }
    luaL_pushfail(L);
    lua_insert(L, -2);
    return 2;
}

int cd_std_loadfile(lua_State *L) {
    const char *fname = luaL_optstring(L, 1, NULL);
    const char *mode = luaL_optstring(L, 2, NULL);
    int env = (!lua_isnone(L, 3) ? 3 : 0);
    int status = cd_load_file(L, fname, mode);
    return load_aux(L, status, env);
}

#define RESERVEDSLOT 5

typedef struct reader_state {
    int sandbox;
    int first;
    int refused;
} reader_state;

static const char *generic_reader(lua_State *L, void *ud, size_t *size) {
    reader_state *rs = (reader_state *)ud;
    luaL_checkstack(L, 2, "too many nested functions");
    lua_pushvalue(L, 1);
    lua_call(L, 0, 1);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        *size = 0;
        return NULL;
    } else if (!lua_isstring(L, -1))
        luaL_error(L, "reader function must return a string");
    lua_replace(L, RESERVEDSLOT);
    const char *piece = lua_tolstring(L, RESERVEDSLOT, size);
    /* cdscript: the first piece decides whether the chunk is binary. */
    if (rs->first && *size > 0) {
        rs->first = 0;
        if (rs->sandbox && piece[0] == LUA_SIGNATURE[0]) {
            /* End the chunk here and refuse it once lua_load returns, with the
             * bare message (an error raised here would gain a traceback). */
            rs->refused = 1;
            *size = 0;
            return NULL;
        }
    }
    return piece;
}

int cd_std_load(lua_State *L) {
    int status;
    size_t l;
    const char *s = lua_tolstring(L, 1, &l);
    const char *mode = luaL_optstring(L, 3, "bt");
    int env = (!lua_isnone(L, 4) ? 4 : 0);
    int sandbox = cd_stdlib_sandboxed(L);
    if (s != NULL) {
        const char *chunkname = luaL_optstring(L, 2, s);
        if (sandbox && l > 0 && s[0] == LUA_SIGNATURE[0]) {
            lua_pushstring(L, BINARY_REFUSED);
            status = LUA_ERRSYNTAX;
        } else {
            status = luaL_loadbufferx(L, s, l, chunkname, mode);
        }
    } else {
        const char *chunkname = luaL_optstring(L, 2, "=(load)");
        reader_state rs = {sandbox, 1, 0};
        luaL_checktype(L, 1, LUA_TFUNCTION);
        lua_settop(L, RESERVEDSLOT);
        status = lua_load(L, generic_reader, &rs, chunkname, mode);
        if (rs.refused) {
            lua_pop(L, 1);
            lua_pushstring(L, BINARY_REFUSED);
            status = LUA_ERRSYNTAX;
        }
    }
    return load_aux(L, status, env);
}

static int dofilecont(lua_State *L, int d1, lua_KContext d2) {
    (void)d1;
    (void)d2;
    return lua_gettop(L) - 1;
}

int cd_std_dofile(lua_State *L) {
    const char *fname = luaL_optstring(L, 1, NULL);
    lua_settop(L, 1);
    if (cd_load_file(L, fname, NULL) != LUA_OK) return lua_error(L);
    lua_callk(L, 0, LUA_MULTRET, 0, dofilecont);
    return dofilecont(L, 0, 0);
}
