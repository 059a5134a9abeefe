/* `-lluacov` under `cdscript test -c` (see luacov_standin.h).
 *
 * Lines are counted by a C line hook, as `cdscript test -c` counts them in its
 * own states (CLuaShim's coverage.c, which this program cannot link: it links
 * Lua and libc only): per line one lua_getinfo("S") and an increment in the
 * counters of the chunk's source, found through a cache keyed by the source
 * string's address, checked against the stored name.
 *
 * As the process ends (a return from the script or os.exit), the counts are
 * added to the stats file the run named, as luacov's runner adds its counts to
 * the file it finds: under an exclusive lock on a file beside it (several
 * subprocesses may end at once), read, added to, written to a temporary file
 * and renamed into place, so that a reader never sees half a file. */
#include "luacov_standin.h"
#include <fcntl.h>
#include <lauxlib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

typedef struct {
    char *name;        /* as luacov records it: no "@", no leading "./" */
    const char *source; /* the last source string seen for it (cache check only) */
    uint64_t *counts;  /* counts[line] */
    int capacity;
} counted_file;

static counted_file *files = NULL;
static int file_count = 0, file_capacity = 0;
static const char *stats_path = NULL;

#define CACHE_SLOTS 64
static struct { const char *source; int file; } cache[CACHE_SLOTS];

/* luacov's name for a chunk source ("@./a.lua" -> "a.lua"). */
static const char *record_name(const char *source) {
    source++; /* the "@" */
    if (source[0] == '.' && (source[1] == '/' || source[1] == '\\')) source += 2;
    return source;
}

static int find_or_add(const char *name) {
    for (int i = 0; i < file_count; i++)
        if (strcmp(files[i].name, name) == 0) return i;
    if (file_count == file_capacity) {
        int capacity = file_capacity ? file_capacity * 2 : 16;
        counted_file *grown = (counted_file *)realloc(files, (size_t)capacity * sizeof *files);
        if (grown == NULL) return -1;
        files = grown;
        file_capacity = capacity;
    }
    char *copy = strdup(name);
    if (copy == NULL) return -1;
    files[file_count] = (counted_file){copy, NULL, NULL, 0};
    return file_count++;
}

/* Room for counts[line]; 0 when out of memory. */
static int make_room(counted_file *f, int line) {
    int capacity = f->capacity ? f->capacity : 64;
    while (capacity <= line) capacity *= 2;
    uint64_t *counts = (uint64_t *)realloc(f->counts, (size_t)capacity * sizeof(uint64_t));
    if (counts == NULL) return 0;
    memset(counts + f->capacity, 0, (size_t)(capacity - f->capacity) * sizeof(uint64_t));
    f->counts = counts;
    f->capacity = capacity;
    return 1;
}

static void count_line(lua_State *L, lua_Debug *ar) {
    int line = ar->currentline;
    if (line <= 0 || !lua_getinfo(L, "S", ar) || ar->source[0] != '@') return;
    const char *source = ar->source;
    int slot = (int)(((uintptr_t)source >> 4) & (CACHE_SLOTS - 1));
    int index = cache[slot].file;
    /* An address may be reused by another chunk's source after a collection:
     * the cached file is taken only when its name still matches. */
    if (cache[slot].source != source || index < 0 || files[index].source != source ||
        strcmp(files[index].name, record_name(source)) != 0) {
        index = find_or_add(record_name(source));
        if (index < 0) return;
        files[index].source = source;
        cache[slot].source = source;
        cache[slot].file = index;
    }
    counted_file *f = &files[index];
    if (line >= f->capacity && !make_room(f, line)) return;
    f->counts[line]++;
}

/* ---- the stats file ---- */

/* One file's record of the stats file, read back: lines 1...max. */
typedef struct {
    char *name;
    int max;
    uint64_t *counts; /* counts[0...max-1] for lines 1...max */
} stats_record;

static int by_name(const void *a, const void *b) {
    return strcmp(((const stats_record *)a)->name, ((const stats_record *)b)->name);
}

/* Reads "MAX:NAME\n" and MAX counts per record; stops at the first record that
 * does not parse (what a reader of luacov's format can do with a damaged file). */
static int read_stats(FILE *in, stats_record **records) {
    int count = 0, capacity = 0;
    char *line = NULL;
    size_t size = 0;
    ssize_t length;
    while ((length = getline(&line, &size, in)) > 0) {
        if (line[length - 1] == '\n') line[--length] = '\0';
        char *colon = strchr(line, ':');
        if (colon == NULL) break;
        int max = atoi(line);
        if (max < 0) break;
        if (count == capacity) {
            capacity = capacity ? capacity * 2 : 16;
            stats_record *grown = (stats_record *)realloc(*records, (size_t)capacity * sizeof **records);
            if (grown == NULL) break;
            *records = grown;
        }
        stats_record *r = &(*records)[count];
        r->name = strdup(colon + 1);
        r->max = max;
        r->counts = (uint64_t *)calloc((size_t)max + 1, sizeof(uint64_t));
        if (r->name == NULL || r->counts == NULL) break;
        for (int i = 0; i < max; i++) {
            unsigned long long value = 0;
            if (fscanf(in, "%llu", &value) != 1) break;
            r->counts[i] = value;
        }
        count++;
        /* The rest of the counts line. */
        int c;
        while ((c = fgetc(in)) != EOF && c != '\n') {}
    }
    free(line);
    return count;
}

/* Adds this process's counts to `records` (new files appended); the new count. */
static int add_counts(stats_record **records, int count) {
    for (int i = 0; i < file_count; i++) {
        counted_file *f = &files[i];
        int max = 0;
        for (int line = f->capacity - 1; line > 0; line--)
            if (f->counts[line] != 0) { max = line; break; }
        if (max == 0) continue;
        int at = 0;
        while (at < count && strcmp((*records)[at].name, f->name) != 0) at++;
        if (at == count) {
            stats_record *grown = (stats_record *)realloc(*records, (size_t)(count + 1) * sizeof **records);
            if (grown == NULL) return count;
            *records = grown;
            (*records)[at] = (stats_record){strdup(f->name), 0, NULL};
            count++;
        }
        stats_record *r = &(*records)[at];
        if (max > r->max) {
            uint64_t *grown = (uint64_t *)realloc(r->counts, (size_t)max * sizeof(uint64_t));
            if (grown == NULL) continue;
            memset(grown + r->max, 0, (size_t)(max - r->max) * sizeof(uint64_t));
            r->counts = grown;
            r->max = max;
        }
        for (int line = 1; line <= max; line++) r->counts[line - 1] += f->counts[line];
    }
    return count;
}

/* Writes `records` to a temporary file beside `path` and renames it into place. */
static int write_stats(const char *path, stats_record *records, int count) {
    size_t length = strlen(path);
    char *temporary = (char *)malloc(length + 8);
    if (temporary == NULL) return 0;
    memcpy(temporary, path, length);
    memcpy(temporary + length, ".XXXXXX", 8);
    int fd = mkstemp(temporary);
    FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
    int written = out != NULL;
    for (int i = 0; written && i < count; i++) {
        if (records[i].name == NULL) continue;
        written = fprintf(out, "%d:%s\n", records[i].max, records[i].name) > 0;
        for (int line = 0; written && line < records[i].max; line++)
            written = fprintf(out, "%llu ", (unsigned long long)records[i].counts[line]) > 0;
        if (written) written = fputc('\n', out) != EOF;
    }
    if (out != NULL) {
        written = fflush(out) == 0 && fsync(fileno(out)) == 0 && written;
        written = fclose(out) == 0 && written;
    } else if (fd >= 0) {
        close(fd);
    }
    if (written) written = rename(temporary, path) == 0;
    if (!written && fd >= 0) unlink(temporary);
    free(temporary);
    return written;
}

static void save_counts(void) {
    if (stats_path == NULL || file_count == 0) return;
    size_t length = strlen(stats_path);
    char *lock_path = (char *)malloc(length + 6);
    if (lock_path == NULL) return;
    memcpy(lock_path, stats_path, length);
    memcpy(lock_path + length, ".lock", 6);
    int lock = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    free(lock_path);
    if (lock < 0 || flock(lock, LOCK_EX) != 0) {
        fprintf(stderr, "cdscript-lua: -lluacov: cannot lock %s.lock; this run's coverage is lost\n", stats_path);
        if (lock >= 0) close(lock);
        return;
    }
    stats_record *records = NULL;
    int count = 0;
    FILE *in = fopen(stats_path, "r");
    if (in != NULL) {
        count = read_stats(in, &records);
        fclose(in);
    }
    count = add_counts(&records, count);
    qsort(records, (size_t)count, sizeof *records, by_name);
    if (!write_stats(stats_path, records, count))
        fprintf(stderr, "cdscript-lua: -lluacov: cannot write %s; this run's coverage is lost\n", stats_path);
    for (int i = 0; i < count; i++) {
        free(records[i].name);
        free(records[i].counts);
    }
    free(records);
    close(lock); /* lets the next subprocess in */
}

/* `require "luacov"`: starts counting on this thread (coroutines made from now
 * on inherit the hook) and returns a table, as luacov returns its runner. */
static int open_luacov(lua_State *L) {
    static int started = 0;
    if (!started) {
        started = 1;
        for (int i = 0; i < CACHE_SLOTS; i++) cache[i].file = -1;
        atexit(save_counts);
    }
    lua_sethook(L, count_line, LUA_MASKLINE, 0);
    lua_newtable(L);
    lua_pushstring(L, stats_path);
    lua_setfield(L, -2, "statsfile");
    return 1;
}

void cd_luacov_standin_install(lua_State *L) {
    const char *path = getenv(CDSCRIPT_LUACOV_STATS);
    if (path == NULL || path[0] == '\0') return;
    stats_path = path;
    lua_getglobal(L, "package");
    if (lua_getfield(L, -1, "preload") == LUA_TTABLE) {
        lua_pushcfunction(L, open_luacov);
        lua_setfield(L, -2, "luacov");
        /* luacov's variant for processes that do not end normally: the counts
         * here are written at any exit, so the same stand-in serves. */
        lua_pushcfunction(L, open_luacov);
        lua_setfield(L, -2, "luacov.tick");
    }
    lua_pop(L, 2);
}
