/* The sandbox's folders: which paths a sandboxed script may read (the script's
 * folder and the plugin folders) and where the log plugin may append (see
 * CLuaStdlib.h). Every check is made on the path actually opened. */

#define _GNU_SOURCE
#include "CLuaStdlib.h"
#include "stdlib_internal.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
    if (cd_stdlib_config_field(L, "script_dir") == LUA_TSTRING) inside = inside_folder(resolved, lua_tostring(L, -1));
    lua_pop(L, 1);
    if (inside) return 1;
    if (cd_stdlib_config_field(L, "plugin_dirs") == LUA_TTABLE) {
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

FILE *cd_open_for_reading(lua_State *L, const char *name, int sandbox, int *refused) {
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
