/* Countdowns by id: which running countdown holds each id. A C table, not a Lua
 * one: a start with an id looks up and stores its id in one probe, with no
 * rehash of a growing Lua table and no API call per step (docs/performance.md). */
#include "CLuaIds.h"
#include "CLuaHandles.h"
#include <stdlib.h>
#include <string.h>

/* FNV-1a: ids are short, and any bytes. */
static uint32_t id_hash(const char *bytes, size_t length) {
    uint32_t hash = 2166136261u;
    for (size_t i = 0; i < length; i++) hash = (hash ^ (unsigned char)bytes[i]) * 16777619u;
    return hash;
}

/* Whether the handle registry[ref] holds the id `bytes`: its user value CD_UV_ID
 * is read only for a slot whose hash matched, mostly the id's own. When it does
 * and `holder` is not NULL, *holder is that handle (a start that replaces the
 * countdown of its id needs it, and would otherwise push the handle again). */
static __attribute__((noinline)) int holds_id(lua_State *L, int ref, const char *bytes, size_t length, cd_handle **holder) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);            /* h */
    int same = 0;
    /* A string (ids are), so lua_tolstring converts nothing. */
    if (lua_getiuservalue(L, -1, CD_UV_ID) == LUA_TSTRING) {   /* h id */
        size_t held_length;
        const char *held = lua_tolstring(L, -1, &held_length);
        /* Interned (short) strings are equal when their addresses are. */
        same = held_length == length && (held == bytes || memcmp(held, bytes, length) == 0);
    }
    if (same && holder) *holder = (cd_handle *)lua_touserdata(L, -2);
    lua_settop(L, -3);
    return same;
}

/* The slot of the id, or of the empty slot where it would go; *holder as holds_id sets it.
 * Inlined into its callers, holds_id not: a start with a new id only probes. */
static inline __attribute__((always_inline)) uint32_t id_slot(lua_State *L, const cd_id_map *map, const char *bytes,
                                                               size_t length, uint32_t hash, cd_handle **holder) {
    uint32_t i = hash & map->mask;
    for (;;) {
        const cd_id_entry *e = &map->entries[i];
        if (e->ref == 0 || (e->hash == hash && holds_id(L, e->ref, bytes, length, holder))) return i;
        i = (i + 1) & map->mask;
    }
}

/* The first empty slot from `hash`'s home: where an id not in the table goes. */
static uint32_t free_slot(const cd_id_map *map, uint32_t hash) {
    uint32_t i = hash & map->mask;
    while (map->entries[i].ref != 0) i = (i + 1) & map->mask;
    return i;
}

/* Room for one more id, keeping the table at most half full; 0 when memory ran out. */
static int id_reserve(cd_id_map *map) {
    uint32_t capacity = map->entries ? map->mask + 1 : 0;
    if ((map->count + 1) * 2 <= capacity) return 1;
    uint32_t grown = capacity ? capacity * 2 : 64;
    cd_id_entry *entries = (cd_id_entry *)calloc(grown, sizeof(cd_id_entry));
    if (entries == NULL) return map->count + 1 < capacity;   /* fuller, but it still works */
    cd_id_map bigger = {entries, grown - 1, map->count};
    /* The ids are distinct: each goes to the first free slot from its home, with
     * no comparison of ids. */
    for (uint32_t i = 0; i < capacity; i++) {
        const cd_id_entry *e = &map->entries[i];
        if (e->ref) bigger.entries[free_slot(&bigger, e->hash)] = *e;
    }
    free(map->entries);
    *map = bigger;
    return 1;
}

/* Empties slot i, moving back the entries after it that it kept from their home
 * slot (linear probing without tombstones). */
static void id_remove_at(cd_id_map *map, uint32_t i) {
    uint32_t j = i;
    for (;;) {
        j = (j + 1) & map->mask;
        cd_id_entry *e = &map->entries[j];
        if (e->ref == 0) break;
        uint32_t home = e->hash & map->mask;
        /* e stays when its home lies cyclically in (i, j]. */
        int stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (!stays) {
            map->entries[i] = *e;
            i = j;
        }
    }
    map->entries[i].ref = 0;
    map->count--;
}

uint32_t cd_prefetch_id_slot(const cd_hook_caller *caller, const char *bytes, size_t length) {
    const cd_id_map *map = &caller->ids;
    uint32_t hash = id_hash(bytes, length);
    if (map->entries) __builtin_prefetch(&map->entries[hash & map->mask]);
    return hash;
}

int cd_bind_id_at(lua_State *L, cd_hook_caller *caller, int id_index, uint32_t hash, cd_handle *handle, int ref,
                  cd_handle **replaced) {
    size_t length;
    const char *bytes = lua_tolstring(L, id_index, &length);
    cd_id_map *map = &caller->ids;
    *replaced = NULL;
    if (!id_reserve(map)) return 0;
    cd_handle *old = NULL;
    cd_id_entry *e = &map->entries[id_slot(L, map, bytes, length, hash, &old)];
    if (e->ref == 0) {
        map->count++;
    } else if (e->ref != ref && old != handle) {
        *replaced = old;
    }
    /* The id itself stays the handle's (user value CD_UV_ID), read through `ref`. */
    *e = (cd_id_entry){hash, ref};
    return 1;
}

int cd_bind_id(lua_State *L, cd_hook_caller *caller, int index, int ref, cd_handle **replaced) {
    index = lua_absindex(L, index);
    int bound = 1;
    *replaced = NULL;
    if (lua_getiuservalue(L, index, CD_UV_ID) == LUA_TSTRING) {
        size_t length;
        const char *bytes = lua_tolstring(L, -1, &length);
        bound = cd_bind_id_at(L, caller, -1, id_hash(bytes, length), (cd_handle *)lua_touserdata(L, index), ref, replaced);
    }
    lua_settop(L, -2);
    return bound;
}

static cd_id_entry *find_id(lua_State *L, cd_hook_caller *caller, int index) {
    cd_id_map *map = &caller->ids;
    if (map->count == 0) return NULL;
    size_t length;
    const char *bytes = lua_tolstring(L, index, &length);
    cd_id_entry *e = &map->entries[id_slot(L, map, bytes, length, id_hash(bytes, length), NULL)];
    return e->ref ? e : NULL;
}

/* The slot that binds `ref` under the id at `index`, or NULL: found by the
 * reference, so no id is read back. */
static cd_id_entry *find_ref(lua_State *L, cd_hook_caller *caller, int index, int ref) {
    cd_id_map *map = &caller->ids;
    if (map->count == 0) return NULL;
    size_t length;
    const char *bytes = lua_tolstring(L, index, &length);
    uint32_t hash = id_hash(bytes, length);
    for (uint32_t i = hash & map->mask; map->entries[i].ref != 0; i = (i + 1) & map->mask) {
        if (map->entries[i].ref == ref) return &map->entries[i];
    }
    return NULL;
}

cd_handle *cd_ended_handle(lua_State *L, cd_hook_caller *caller, int ref, int has_id) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);            /* h */
    /* Its id is free, unless another countdown holds it by now. */
    if (has_id && lua_getiuservalue(L, -1, CD_UV_ID) == LUA_TSTRING) {
        cd_id_entry *e = find_ref(L, caller, -1, ref);
        if (e) id_remove_at(&caller->ids, (uint32_t)(e - caller->ids.entries));
    }
    if (has_id) lua_settop(L, -2);
    cd_handle *h = (cd_handle *)lua_touserdata(L, -1);
    lua_settop(L, -2);
    return h;
}

void cd_push_handle_for_id(lua_State *L, cd_hook_caller *caller, int index) {
    cd_id_entry *e = lua_type(L, index) == LUA_TSTRING ? find_id(L, caller, index) : NULL;
    if (e) lua_rawgeti(L, LUA_REGISTRYINDEX, e->ref);
    else lua_pushnil(L);
}

size_t cd_id_map_bytes(const cd_id_map *map) {
    return map->entries ? (size_t)(map->mask + 1) * sizeof(cd_id_entry) : 0;
}

void cd_id_map_free(cd_id_map *map) {
    free(map->entries);
    *map = (cd_id_map){NULL, 0, 0};
}
