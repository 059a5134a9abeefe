/* `--coverage`: the line hook that counts, in C (see CLuaCoverage.h).
 *
 * A Lua hook (debug.sethook with a Lua function, as luacov's) costs a call into
 * Lua, a debug.getinfo table and a table update per line: about 2.8 us a line,
 * 84 to 130 times the run without it. Here a line costs one lua_getinfo("S")
 * (no allocation: it fills `ar` with a pointer to the chunk's source string) and
 * an increment in an array of counters kept per chunk source.
 *
 * Counters are found by the source string: first in a small cache keyed by the
 * string's address (lines mostly follow lines of the same few files), checked
 * against the stored name (the address may have been reused by another chunk's
 * source after a collection), then in a hash table by content. */
#include "CLuaCoverage.h"
#include "CLuaLimits.h"
#include "CLuaInterrupt.h"
#include <stdlib.h>
#include <string.h>

typedef struct coverage_file {
    char *name;        /* the source, "@" included, NUL-terminated */
    size_t length;     /* bytes of the source, "@" included */
    uint64_t hash;
    uint64_t *counts;  /* counts[line] */
    int capacity;      /* lines counts can hold */
} coverage_file;

#define CACHE_SLOTS 64

typedef struct cd_coverage {
    coverage_file *files;
    int count, capacity;
    int *slots;        /* open addressing by hash: index + 1 into files, 0: empty */
    int slot_count;    /* a power of two, more than twice `count` */
    struct { const char *source; int file; } cache[CACHE_SLOTS];
} cd_coverage;

static cd_coverage *coverage_of(lua_State *L) {
    cd_limits *limits = cd_get_limits(L);
    return limits ? (cd_coverage *)limits->coverage : NULL;
}

int cd_coverage_active(lua_State *L) { return coverage_of(L) != NULL; }

static uint64_t hash_bytes(const char *s, size_t n) {
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return h;
}

static void clear_cache(cd_coverage *c) {
    for (int i = 0; i < CACHE_SLOTS; i++) {
        c->cache[i].source = NULL;
        c->cache[i].file = -1;
    }
}

/* Rebuilds the hash slots at `slot_count` (a power of two). 0 when out of memory. */
static int rehash(cd_coverage *c, int slot_count) {
    int *slots = (int *)calloc((size_t)slot_count, sizeof(int));
    if (slots == NULL) return 0;
    for (int i = 0; i < c->count; i++) {
        size_t at = (size_t)c->files[i].hash & (size_t)(slot_count - 1);
        while (slots[at] != 0) at = (at + 1) & (size_t)(slot_count - 1);
        slots[at] = i + 1;
    }
    free(c->slots);
    c->slots = slots;
    c->slot_count = slot_count;
    return 1;
}

/* The index of the file with this source, added when new; -1 when out of memory. */
static int find_file(cd_coverage *c, const char *source, size_t length) {
    uint64_t hash = hash_bytes(source, length);
    if (c->slots != NULL) {
        size_t at = (size_t)hash & (size_t)(c->slot_count - 1);
        while (c->slots[at] != 0) {
            coverage_file *f = &c->files[c->slots[at] - 1];
            if (f->hash == hash && f->length == length && memcmp(f->name, source, length) == 0) return c->slots[at] - 1;
            at = (at + 1) & (size_t)(c->slot_count - 1);
        }
    }
    if ((c->count + 1) * 2 >= c->slot_count && !rehash(c, c->slot_count ? c->slot_count * 2 : 64)) return -1;
    if (c->count == c->capacity) {
        int capacity = c->capacity ? c->capacity * 2 : 16;
        coverage_file *files = (coverage_file *)realloc(c->files, (size_t)capacity * sizeof(coverage_file));
        if (files == NULL) return -1;
        c->files = files;
        c->capacity = capacity;
    }
    char *name = (char *)malloc(length + 1);
    if (name == NULL) return -1;
    memcpy(name, source, length);
    name[length] = '\0';
    int index = c->count++;
    c->files[index] = (coverage_file){name, length, hash, NULL, 0};
    size_t at = (size_t)hash & (size_t)(c->slot_count - 1);
    while (c->slots[at] != 0) at = (at + 1) & (size_t)(c->slot_count - 1);
    c->slots[at] = index + 1;
    return index;
}

/* Room for counts[line]; 0 when out of memory. */
static int grow(coverage_file *f, int line) {
    int capacity = f->capacity ? f->capacity : 64;
    while (capacity <= line) capacity = capacity > (1 << 29) ? line + 1 : capacity * 2;
    uint64_t *counts = (uint64_t *)realloc(f->counts, (size_t)capacity * sizeof(uint64_t));
    if (counts == NULL) return 0;
    memset(counts + f->capacity, 0, (size_t)(capacity - f->capacity) * sizeof(uint64_t));
    f->counts = counts;
    f->capacity = capacity;
    return 1;
}

void cd_coverage_count_line(lua_State *L, lua_Debug *ar) {
    cd_coverage *c = coverage_of(L);
    int line = ar->currentline;
    if (c == NULL || line <= 0 || !lua_getinfo(L, "S", ar) || ar->source[0] != '@') return;
    const char *source = ar->source;
    size_t length = ar->srclen;
    int slot = (int)(((uintptr_t)source >> 4) & (CACHE_SLOTS - 1));
    int index = c->cache[slot].file;
    coverage_file *f;
    if (c->cache[slot].source == source && (f = &c->files[index])->length == length &&
        memcmp(f->name, source, length) == 0) {
        /* found by address */
    } else {
        index = find_file(c, source, length);
        if (index < 0) return;
        c->cache[slot].source = source;
        c->cache[slot].file = index;
        f = &c->files[index];
    }
    if (line >= f->capacity && !grow(f, line)) return;
    f->counts[line]++;
}

void cd_coverage_hook(lua_State *L, lua_Debug *ar) {
    if (ar->event == LUA_HOOKLINE) {
        cd_coverage_count_line(L, ar);
        return;
    }
    /* A count event: the interrupt and the instruction budget, as cd_count_hook. */
    if (cd_interrupt_pending() != 0) cd_stop_hook(L, ar);
    cd_limits *limits = cd_get_limits(L);
    if (limits == NULL || !limits->capped || limits->budget <= 0) return;
    int count = lua_gethookcount(L);
    if (limits->spent + count <= limits->budget) {
        limits->spent += count;
        return;
    }
    /* Over budget: every instruction raises from now on (cd_count_hook says why);
     * the outermost callback's end puts this hook back. */
    if (count != 1) {
        limits->spent += count - 1;
        lua_sethook(L, cd_coverage_hook, lua_gethookmask(L), 1);
        limits->hook_dirty = 1;
    }
    cd_count_hook(L, ar); /* charges one and raises the budget error */
}

void *cd_coverage_counters_new(void) {
    cd_coverage *c = (cd_coverage *)calloc(1, sizeof(cd_coverage));
    if (c != NULL) clear_cache(c);
    return c;
}

int cd_coverage_file_count(lua_State *L) {
    cd_coverage *c = coverage_of(L);
    return c ? c->count : 0;
}

const char *cd_coverage_file_name(lua_State *L, int index, size_t *length) {
    cd_coverage *c = coverage_of(L);
    if (c == NULL || index < 0 || index >= c->count) return NULL;
    *length = c->files[index].length - 1;
    return c->files[index].name + 1;
}

const uint64_t *cd_coverage_file_counts(lua_State *L, int index, int *lines) {
    cd_coverage *c = coverage_of(L);
    *lines = 0;
    if (c == NULL || index < 0 || index >= c->count) return NULL;
    *lines = c->files[index].capacity;
    return c->files[index].counts;
}

static void free_files(cd_coverage *c) {
    for (int i = 0; i < c->count; i++) {
        free(c->files[i].name);
        free(c->files[i].counts);
    }
    free(c->files);
    free(c->slots);
    c->files = NULL;
    c->slots = NULL;
    c->count = c->capacity = c->slot_count = 0;
    clear_cache(c);
}

void cd_coverage_reset(lua_State *L) {
    cd_coverage *c = coverage_of(L);
    if (c != NULL) free_files(c);
}

void cd_coverage_counters_free(void *coverage) {
    cd_coverage *c = (cd_coverage *)coverage;
    if (c == NULL) return;
    free_files(c);
    free(c);
}
