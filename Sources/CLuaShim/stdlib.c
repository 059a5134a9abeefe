/* cdscript's `load`, `loadfile`, `dofile`, `string.rep`, `package.searchpath`,
 * `require`'s Lua searcher, the sandbox's `os.getenv` and lua.c's warning
 * function (see CLuaStdlib.h). The bodies follow Lua 5.4.4's lbaselib.c,
 * lauxlib.c, loadlib.c and lstrlib.c line by line, so that messages, argument
 * checks and modes are Lua's own; what differs is marked "cdscript:".
 *
 * Why C: wrappers written in Lua show up in line hooks and tracebacks, name
 * internal functions in their errors, and keep the raw loaders in upvalues
 * that debug.getupvalue hands to any script. These functions have no upvalues
 * but the package table (as Lua's own searcher has); their settings live in
 * the registry under a private key. */

#define _GNU_SOURCE
#include "CLuaStdlib.h"
#include <lauxlib.h>
#include <lualib.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* registry[&CONFIG_KEY]: { sandbox = bool, rep_limit = int, script_dir = string?,
 * plugin_dirs = {string...}, builtins = {name = source}, api = table } */
static const char CONFIG_KEY = 0;

static void push_config(lua_State *L) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &CONFIG_KEY) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_newtable(L);
    }
}

/* Pushes config[key] (raw). */
static int config_field(lua_State *L, const char *key) {
    push_config(L);
    lua_pushstring(L, key);
    int type = lua_rawget(L, -2);
    lua_remove(L, -2);
    return type;
}

static int is_sandboxed(lua_State *L) {
    config_field(L, "sandbox");
    int on = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return on;
}

/* ---- the sandbox's folders -------------------------------------------- */

int cd_path_inside(const char *resolved, const char *root) {
    size_t n = strlen(root);
    if (n == 1 && root[0] == '/') return resolved[0] == '/';
    if (strlen(resolved) < n || memcmp(resolved, root, n) != 0) return 0;
    return resolved[n] == '/' || resolved[n] == '\0';
}

/* Whether the resolved path is inside the folder `dir` (resolved here too). */
static int inside_folder(const char *resolved, const char *dir) {
    char *root = realpath(dir, NULL);
    if (root == NULL) return 0;
    int inside = cd_path_inside(resolved, root);
    free(root);
    return inside;
}

/* Whether the resolved path is inside the script's folder or a plugin folder. */
static int readable_root(lua_State *L, const char *resolved) {
    int inside = 0;
    if (config_field(L, "script_dir") == LUA_TSTRING) inside = inside_folder(resolved, lua_tostring(L, -1));
    lua_pop(L, 1);
    if (inside) return 1;
    if (config_field(L, "plugin_dirs") == LUA_TTABLE) {
        lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
        for (lua_Integer i = 1; i <= n && !inside; i++) {
            if (lua_rawgeti(L, -1, i) == LUA_TSTRING) inside = inside_folder(resolved, lua_tostring(L, -1));
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    return inside;
}

enum { READ_REFUSED = 0, READ_ALLOWED = 1, READ_MISSING = 2 };

/* Under the sandbox: may `name` be read? READ_ALLOWED sets *resolved (malloc'd)
 * to the path to open. A name that does not resolve is judged by its folder:
 * READ_MISSING (errno set) when that folder is allowed, so that nothing is
 * learnt about files outside the allowed folders, whether they exist or not. */
static int read_access(lua_State *L, const char *name, char **resolved) {
    *resolved = realpath(name, NULL);
    if (*resolved != NULL) {
        if (readable_root(L, *resolved)) return READ_ALLOWED;
        free(*resolved);
        *resolved = NULL;
        return READ_REFUSED;
    }
    int saved = errno;
    /* Something is there but does not resolve (a dangling symbolic link): what
     * it points to may be outside, so say nothing about it. */
    struct stat st;
    if (lstat(name, &st) == 0) return READ_REFUSED;
    char *folder = strdup(name);
    if (folder == NULL) return READ_REFUSED;
    char *slash = strrchr(folder, '/');
    char *real;
    if (slash == NULL) real = realpath(".", NULL);
    else {
        if (slash == folder) folder[1] = '\0';
        else *slash = '\0';
        real = realpath(folder, NULL);
    }
    free(folder);
    int verdict = real != NULL && readable_root(L, real) ? READ_MISSING : READ_REFUSED;
    free(real);
    errno = saved;
    return verdict;
}

static const char *const REFUSED = "outside the script's folder and the plugin folders (--sandbox)";

/* Opens `name` for reading; under the sandbox only inside the allowed folders,
 * and the path opened is the resolved one that was checked. NULL with errno
 * set, or with *refused set. */
static FILE *open_for_reading(lua_State *L, const char *name, int sandbox, int *refused) {
    *refused = 0;
    if (!sandbox) return fopen(name, "r");
    char *resolved = NULL;
    switch (read_access(L, name, &resolved)) {
    case READ_ALLOWED: break;
    case READ_MISSING: return NULL;
    default: *refused = 1; return NULL;
    }
    int fd = open(resolved, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
    int saved = errno;
    free(resolved);
    if (fd < 0) {
        errno = saved;
        return NULL;
    }
    FILE *f = fdopen(fd, "r");
    if (f == NULL) close(fd);
    return f;
}

/* ---- loading (lauxlib.c's luaL_loadfilex, lbaselib.c's load) ---------- */

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

/* luaL_loadfilex; cdscript: under the sandbox the file must be inside the
 * allowed folders, stdin is refused, and a binary chunk is refused whatever
 * the mode. */
static int load_file(lua_State *L, const char *filename, const char *mode) {
    LoadF lf;
    int status, readstatus;
    int c;
    int sandbox = is_sandboxed(L);
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
        lf.f = open_for_reading(L, filename, sandbox, &refused);
        if (refused) {
            lua_pushfstring(L, "cannot open %s: %s", filename, REFUSED);
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

static int std_loadfile(lua_State *L) {
    const char *fname = luaL_optstring(L, 1, NULL);
    const char *mode = luaL_optstring(L, 2, NULL);
    int env = (!lua_isnone(L, 3) ? 3 : 0);
    int status = load_file(L, fname, mode);
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

static int std_load(lua_State *L) {
    int status;
    size_t l;
    const char *s = lua_tolstring(L, 1, &l);
    const char *mode = luaL_optstring(L, 3, "bt");
    int env = (!lua_isnone(L, 4) ? 4 : 0);
    int sandbox = is_sandboxed(L);
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

static int std_dofile(lua_State *L) {
    const char *fname = luaL_optstring(L, 1, NULL);
    lua_settop(L, 1);
    if (load_file(L, fname, NULL) != LUA_OK) return lua_error(L);
    lua_callk(L, 0, LUA_MULTRET, 0, dofilecont);
    return dofilecont(L, 0, 0);
}

/* ---- string.rep (lstrlib.c) ------------------------------------------- */

#ifndef LUA_LSUBSEP
#define LUA_LSUBSEP LUA_DIRSEP
#endif

#define MAXSIZE (sizeof(size_t) < sizeof(int) ? (~(size_t)0) : (size_t)(INT_MAX))

/* cdscript: the result is capped (config rep_limit): string.rep runs in C,
 * where the instruction budget cannot stop it. */
static int std_rep(lua_State *L) {
    size_t l, lsep;
    const char *s = luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    const char *sep = luaL_optlstring(L, 3, "", &lsep);
    if (n <= 0)
        lua_pushliteral(L, "");
    else if (l + lsep < l || l + lsep > MAXSIZE / n)
        return luaL_error(L, "resulting string too large");
    else {
        size_t totallen = (size_t)n * l + (size_t)(n - 1) * lsep;
        config_field(L, "rep_limit");
        lua_Integer cap = lua_tointeger(L, -1);
        lua_pop(L, 1);
        if (cap > 0 && totallen > (size_t)cap)
            return luaL_error(L, "resulting string too large (%I bytes; cdscript's string.rep makes at most %I)",
                              (lua_Integer)totallen, cap);
        luaL_Buffer b;
        char *p = luaL_buffinitsize(L, &b, totallen);
        while (n-- > 1) {
            memcpy(p, s, l * sizeof(char));
            p += l;
            if (lsep > 0) {
                memcpy(p, sep, lsep * sizeof(char));
                p += lsep;
            }
        }
        memcpy(p, s, l * sizeof(char));
        luaL_pushresultsize(&b, totallen);
    }
    return 1;
}

/* ---- package.searchpath and the Lua searcher (loadlib.c) --------------- */

/* readable(); cdscript: under the sandbox only inside the allowed folders, so
 * that a script cannot probe the file system. */
static int readable(lua_State *L, const char *filename, int sandbox) {
    int refused;
    FILE *f = open_for_reading(L, filename, sandbox, &refused);
    if (f == NULL) return 0;
    fclose(f);
    return 1;
}

static const char *getnextfilename(char **path, char *end) {
    char *sep;
    char *name = *path;
    if (name == end) return NULL;
    else if (*name == '\0') {
        *name = *LUA_PATH_SEP;
        name++;
    }
    sep = strchr(name, *LUA_PATH_SEP);
    if (sep == NULL) sep = end;
    *sep = '\0';
    *path = sep;
    return name;
}

static void pusherrornotfound(lua_State *L, const char *path) {
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    luaL_addstring(&b, "no file '");
    luaL_addgsub(&b, path, LUA_PATH_SEP, "'\n\tno file '");
    luaL_addstring(&b, "'");
    luaL_pushresult(&b);
}

static const char *searchpath(lua_State *L, const char *name, const char *path, const char *sep,
                              const char *dirsep) {
    luaL_Buffer buff;
    char *pathname;
    char *endpathname;
    const char *filename;
    int sandbox = is_sandboxed(L);
    if (*sep != '\0' && strchr(name, *sep) != NULL) name = luaL_gsub(L, name, sep, dirsep);
    luaL_buffinit(L, &buff);
    luaL_addgsub(&buff, path, LUA_PATH_MARK, name);
    luaL_addchar(&buff, '\0');
    pathname = luaL_buffaddr(&buff);
    endpathname = pathname + luaL_bufflen(&buff) - 1;
    while ((filename = getnextfilename(&pathname, endpathname)) != NULL) {
        if (readable(L, filename, sandbox)) return lua_pushstring(L, filename);
    }
    luaL_pushresult(&buff);
    pusherrornotfound(L, lua_tostring(L, -1));
    return NULL;
}

static int std_searchpath(lua_State *L) {
    const char *f = searchpath(L, luaL_checkstring(L, 1), luaL_checkstring(L, 2), luaL_optstring(L, 3, "."),
                               luaL_optstring(L, 4, LUA_DIRSEP));
    if (f != NULL) return 1;
    luaL_pushfail(L);
    lua_insert(L, -2);
    return 2;
}

static int checkload(lua_State *L, int stat, const char *filename) {
    if (stat) {
        lua_pushstring(L, filename);
        return 2;
    }
    return luaL_error(L, "error loading module '%s' from file '%s':\n\t%s", lua_tostring(L, 1), filename,
                      lua_tostring(L, -1));
}

/* A built-in plugin's chunk gets its name and the host helpers as `...`. */
static int builtin_loader(lua_State *L) {
    lua_settop(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1);
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_call(L, 2, 1);
    return 1;
}

/* The plugin folders as path templates (DIR/?.lua;DIR/?/init.lua), pushed as
 * one string; returns 0 (and pushes nothing) when there are none. With
 * `existing`, only folders that exist: a not-found message names no file in a
 * folder that is not there (so that, without plugin folders, it is Lua's). */
static int push_plugin_templates(lua_State *L, int existing) {
    int pieces = 0;
    if (config_field(L, "plugin_dirs") == LUA_TTABLE) {
        int dirs = lua_gettop(L);
        lua_Integer n = (lua_Integer)lua_rawlen(L, dirs);
        for (lua_Integer i = 1; i <= n; i++) {
            luaL_checkstack(L, 3, "too many plugin folders");
            if (lua_rawgeti(L, dirs, i) == LUA_TSTRING) {
                const char *dir = lua_tostring(L, -1);
                struct stat st;
                /* A folder whose name holds ';' or '?' cannot be a template. */
                if (strpbrk(dir, LUA_PATH_SEP LUA_PATH_MARK) == NULL &&
                    (!existing || (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)))) {
                    lua_pushfstring(L, "%s%s/" LUA_PATH_MARK ".lua" LUA_PATH_SEP "%s/" LUA_PATH_MARK "/init.lua",
                                    pieces > 0 ? LUA_PATH_SEP : "", dir, dir);
                    lua_remove(L, -2);
                    pieces++;
                    continue;
                }
            }
            lua_pop(L, 1);
        }
        if (pieces > 0) lua_concat(L, pieces);
        lua_remove(L, dirs);
    } else {
        lua_pop(L, 1);
    }
    return pieces > 0;
}

/* The "no file" lines for the plugin folders that exist, or nothing. */
static int push_plugins_not_found(lua_State *L, const char *name) {
    if (!push_plugin_templates(L, 1)) return 0;
    name = luaL_gsub(L, name, ".", LUA_LSUBSEP);
    const char *templates = luaL_gsub(L, lua_tostring(L, -2), LUA_PATH_MARK, name);
    pusherrornotfound(L, templates);
    lua_replace(L, -4);
    lua_pop(L, 2);
    return 1;
}

/* searcher_Lua; cdscript: first the plugin folders' templates
 * (DIR/?.lua;DIR/?/init.lua), then the built-in plugins, then package.path, so
 * that plugins keep their order. Its not-found message is Lua's (package.path's
 * files): the plugin folders' lines come last in require's message, from
 * searcher_croot_then_plugins (under the sandbox, which has no C searchers,
 * right after package.path's). */
static int searcher_lua(lua_State *L) {
    const char *filename;
    const char *name = luaL_checkstring(L, 1);
    lua_getfield(L, lua_upvalueindex(1), "path");
    const char *path = lua_tostring(L, -1);
    if (path == NULL) luaL_error(L, "'package.%s' must be a string", "path");
    int top = lua_gettop(L); /* package.path */
    if (push_plugin_templates(L, 0)) {
        filename = searchpath(L, name, lua_tostring(L, top + 1), ".", LUA_LSUBSEP);
        if (filename != NULL) return checkload(L, (load_file(L, filename, NULL) == LUA_OK), filename);
        lua_settop(L, top);
    }
    /* Then a built-in plugin (a file on the plugin path replaces one). */
    if (config_field(L, "builtins") == LUA_TTABLE) {
        lua_pushvalue(L, 1);
        if (lua_rawget(L, -2) == LUA_TSTRING) {
            size_t len;
            const char *source = lua_tolstring(L, -1, &len);
            const char *where = lua_pushfstring(L, "built-in:%s", name);
            const char *chunkname = lua_pushfstring(L, "=(built-in plugin %s)", name);
            int status = luaL_loadbufferx(L, source, len, chunkname, "t");
            if (status != LUA_OK) return checkload(L, 0, where);
            config_field(L, "api");
            lua_pushcclosure(L, builtin_loader, 2);
            lua_pushstring(L, where);
            return 2;
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    /* Then package.path, as Lua's own searcher. */
    filename = searchpath(L, name, lua_tostring(L, top), ".", LUA_LSUBSEP);
    if (filename != NULL) return checkload(L, (load_file(L, filename, NULL) == LUA_OK), filename);
    if (is_sandboxed(L) && push_plugins_not_found(L, name)) {
        /* One message: each file tried, one a line, as findloader joins them. */
        lua_pushliteral(L, "\n\t");
        lua_insert(L, -2);
        lua_concat(L, 3);
    }
    return 1;
}

/* Lua's all-in-one C searcher (upvalue 1), then the plugin folders' lines:
 * searcher_lua searched them first, so this names the files it looked for
 * there after Lua's own lines, keeping Lua's four searchers. */
static int searcher_croot_then_plugins(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    lua_settop(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1);
    lua_call(L, 1, 2);
    if (lua_isfunction(L, 2)) return 2; /* found a loader */
    lua_settop(L, 2);
    int said = lua_isstring(L, 2);
    if (said) lua_pushliteral(L, "\n\t");
    if (!push_plugins_not_found(L, name)) {
        lua_settop(L, 2);
        return said ? 1 : 0;
    }
    if (said) lua_concat(L, 3); /* Lua's lines, "\n\t", the plugin folders' */
    return 1;
}

/* ---- os.getenv under the sandbox (loslib.c) ---------------------------- */

/* The variables a sandboxed script may read: locale, time zone and terminal. */
static const char *const ENV_ALLOWED[] = {
    "TZ", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_NUMERIC", "LC_TIME", "LC_COLLATE", "LC_MONETARY",
    "LC_MESSAGES", "TERM", "COLORTERM", "NO_COLOR", "COLUMNS", "LINES", NULL,
};

static int sandbox_getenv(lua_State *L) {
    const char *name = luaL_checkstring(L, 1);
    for (int i = 0; ENV_ALLOWED[i]; i++) {
        if (strcmp(name, ENV_ALLOWED[i]) == 0) {
            lua_pushstring(L, getenv(name));
            return 1;
        }
    }
    lua_pushnil(L);
    return 1;
}

/* ---- warnings (lauxlib.c, as lua.c's state gets them) ------------------ */

static void warnfoff(void *ud, const char *message, int tocont);
static void warnfon(void *ud, const char *message, int tocont);
static void warnfcont(void *ud, const char *message, int tocont);

static int checkcontrol(lua_State *L, const char *message, int tocont) {
    if (tocont || *(message++) != '@') return 0;
    if (strcmp(message, "off") == 0)
        lua_setwarnf(L, warnfoff, L);
    else if (strcmp(message, "on") == 0)
        lua_setwarnf(L, warnfon, L);
    return 1;
}

static void warnfoff(void *ud, const char *message, int tocont) {
    checkcontrol((lua_State *)ud, message, tocont);
}

static void warnfcont(void *ud, const char *message, int tocont) {
    lua_State *L = (lua_State *)ud;
    fprintf(stderr, "%s", message);
    fflush(stderr);
    if (tocont)
        lua_setwarnf(L, warnfcont, L);
    else {
        fprintf(stderr, "%s", "\n");
        fflush(stderr);
        lua_setwarnf(L, warnfon, L);
    }
}

static void warnfon(void *ud, const char *message, int tocont) {
    if (checkcontrol((lua_State *)ud, message, tocont)) return;
    fprintf(stderr, "%s", "Lua warning: ");
    fflush(stderr);
    warnfcont(ud, message, tocont);
}

/* ---- installing ------------------------------------------------------- */

static void set_raw(lua_State *L, int table, const char *key) {
    table = lua_absindex(L, table);
    lua_pushstring(L, key);
    lua_insert(L, -2);
    lua_rawset(L, table);
}

static int install(lua_State *L) {
    int sandbox = lua_toboolean(L, 1);
    lua_Integer rep_limit = lua_tointeger(L, 2);
    lua_settop(L, 0);
    lua_createtable(L, 0, 6); /* 1: config */
    lua_pushboolean(L, sandbox);
    set_raw(L, 1, "sandbox");
    lua_pushinteger(L, rep_limit);
    set_raw(L, 1, "rep_limit");
    lua_newtable(L);
    set_raw(L, 1, "plugin_dirs");
    lua_pushvalue(L, 1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &CONFIG_KEY);

    lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS); /* 2: _G */
    lua_pushcfunction(L, std_load);
    set_raw(L, 2, "load");
    lua_pushcfunction(L, std_loadfile);
    set_raw(L, 2, "loadfile");
    lua_pushcfunction(L, std_dofile);
    set_raw(L, 2, "dofile");

    lua_pushstring(L, "string");
    if (lua_rawget(L, 2) == LUA_TTABLE) {
        lua_pushcfunction(L, std_rep);
        set_raw(L, -2, "rep");
    }
    lua_pop(L, 1);

    lua_pushstring(L, "package");
    if (lua_rawget(L, 2) == LUA_TTABLE) { /* 3: package */
        lua_pushstring(L, "searchers");
        if (lua_rawget(L, 3) == LUA_TTABLE) {
            lua_pushvalue(L, 3);
            lua_pushcclosure(L, searcher_lua, 1);
            lua_rawseti(L, -2, 2);
            if (!sandbox) {
                if (lua_rawgeti(L, -1, 4) == LUA_TFUNCTION) {
                    lua_pushcclosure(L, searcher_croot_then_plugins, 1);
                    lua_rawseti(L, -2, 4);
                } else {
                    lua_pop(L, 1);
                }
            }
            if (sandbox) {
                /* No C modules under the sandbox. */
                lua_pushnil(L);
                lua_rawseti(L, -2, 4);
                lua_pushnil(L);
                lua_rawseti(L, -2, 3);
            }
        }
        lua_pop(L, 1);
        if (sandbox) {
            lua_pushcfunction(L, std_searchpath);
            set_raw(L, 3, "searchpath");
        }
    }
    lua_pop(L, 1);

    if (sandbox) {
        lua_pushstring(L, "os");
        if (lua_rawget(L, 2) == LUA_TTABLE) {
            lua_pushcfunction(L, sandbox_getenv);
            set_raw(L, -2, "getenv");
        }
        lua_pop(L, 1);
    }
    lua_setwarnf(L, warnfoff, L);
    return 0;
}

int cd_stdlib_install(lua_State *L, int sandbox, size_t rep_limit) {
    lua_pushcfunction(L, install);
    lua_pushboolean(L, sandbox);
    lua_pushinteger(L, (lua_Integer)rep_limit);
    int status = lua_pcall(L, 2, 0, 0);
    if (status != LUA_OK) lua_pop(L, 1);
    return status;
}

static int set_folders(lua_State *L) {
    const char *script_dir = (const char *)lua_touserdata(L, 1);
    const char *const *dirs = (const char *const *)lua_touserdata(L, 2);
    int count = (int)lua_tointeger(L, 3);
    push_config(L);
    int config = lua_gettop(L);
    if (script_dir) lua_pushstring(L, script_dir);
    else lua_pushnil(L);
    set_raw(L, config, "script_dir");
    lua_createtable(L, count, 0);
    for (int i = 0; i < count; i++) {
        lua_pushstring(L, dirs[i]);
        lua_rawseti(L, -2, i + 1);
    }
    set_raw(L, config, "plugin_dirs");
    return 0;
}

int cd_stdlib_set_folders(lua_State *L, const char *script_dir, const char *const *plugin_dirs, int count) {
    lua_pushcfunction(L, set_folders);
    lua_pushlightuserdata(L, (void *)script_dir);
    lua_pushlightuserdata(L, (void *)plugin_dirs);
    lua_pushinteger(L, count);
    int status = lua_pcall(L, 3, 0, 0);
    if (status != LUA_OK) lua_pop(L, 1);
    return status;
}

static int set_builtins(lua_State *L) {
    push_config(L);
    lua_pushvalue(L, 2);
    set_raw(L, -2, "builtins");
    lua_pushvalue(L, 1);
    set_raw(L, -2, "api");
    return 0;
}

int cd_stdlib_set_builtins(lua_State *L) {
    lua_pushcfunction(L, set_builtins);
    lua_insert(L, -3);
    int status = lua_pcall(L, 2, 0, 0);
    if (status != LUA_OK) lua_pop(L, 1);
    return status;
}

/* ---- the log plugin's files -------------------------------------------- */

int cd_open_append(const char *path, const char *root) {
    int flags = O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY;
    if (root == NULL) return open(path, flags, 0644);
    char *root_real = realpath(root, NULL);
    if (root_real == NULL) return -2;
    const char *slash = strrchr(path, '/');
    char *dir;
    const char *base;
    if (slash == NULL) {
        dir = strdup(".");
        base = path;
    } else if (slash == path) {
        dir = strdup("/");
        base = path + 1;
    } else {
        dir = strndup(path, (size_t)(slash - path));
        base = slash + 1;
    }
    if (dir == NULL) {
        free(root_real);
        errno = ENOMEM;
        return -1;
    }
    if (*base == '\0' || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
        free(dir);
        free(root_real);
        errno = EISDIR;
        return -1;
    }
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    free(dir);
    if (dfd < 0) {
        free(root_real);
        return -2;
    }
    /* The folder actually opened, by its resolved path. */
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", dfd);
    char *dir_real = realpath(link, NULL);
    int inside = dir_real != NULL && cd_path_inside(dir_real, root_real);
    free(dir_real);
    free(root_real);
    if (!inside) {
        close(dfd);
        return -2;
    }
    /* No symbolic link as the file itself (a dangling one would create a file
     * wherever it points), and no FIFO or device blocking the open. */
    int fd = openat(dfd, base, flags | O_NOFOLLOW | O_NONBLOCK, 0644);
    int saved = errno;
    close(dfd);
    if (fd < 0) {
        if (saved == ELOOP) return -2;
        errno = saved;
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1) {
        close(fd);
        return -2;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}
