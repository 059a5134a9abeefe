/* A hook's `t`: a read-only userdata whose fields its metatable computes. */
#include "CLuaTick.h"
#include "CLuaSlots.h"
#include <lauxlib.h>
#include <string.h>

static const char TICK_METATABLE_KEY = 0;

static const char *const TICK_FIELDS[CD_TICK_FIELD_COUNT + 1] = {
    [CD_TICK_ID] = "id", [CD_TICK_REMAINING] = "remaining", [CD_TICK_DAYS] = "days",
    [CD_TICK_HOURS] = "hours", [CD_TICK_MINUTES] = "minutes", [CD_TICK_SECONDS] = "seconds",
    [CD_TICK_TENTHS] = "tenths", [CD_TICK_ELAPSED] = "elapsed", [CD_TICK_PROGRESS] = "progress",
    [CD_TICK_MISSED] = "missed", [CD_TICK_OVERTIME] = "overtime", [CD_TICK_FIELD_COUNT] = NULL
};

const char *cd_tick_field_name(int field) {
    return field >= 0 && field < CD_TICK_FIELD_COUNT ? TICK_FIELDS[field] : NULL;
}

/* Pushes field `i` of the tick at `index`; units are truncated, as clocks show them. */
static void push_tick_field(lua_State *L, int index, const cd_tick *t, cd_tick_field i) {
    int64_t r = t->remaining_ns < 0 ? 0 : t->remaining_ns;
    int64_t secs = r / 1000000000;
    int64_t elapsed = t->total_ns - r;
    if (elapsed < 0) elapsed = 0;
    switch (i) {
    case CD_TICK_ID: {
        /* The countdown's handle (the tick's user value 1), whose CD_UV_ID is the id. */
        int handle_ref = ((const cd_tick_box *)t)->handle_ref;
        int type = handle_ref != LUA_NOREF ? lua_rawgeti(L, LUA_REGISTRYINDEX, handle_ref)
                                           : lua_getiuservalue(L, index, 1);
        if (type == LUA_TUSERDATA) {
            lua_getiuservalue(L, -1, CD_UV_ID);
            lua_remove(L, -2);
        } else {
            lua_pop(L, 1);
            lua_pushnil(L);
        }
        break;
    }
    case CD_TICK_REMAINING: lua_pushnumber(L, (lua_Number)r / 1e9); break;
    case CD_TICK_DAYS: lua_pushinteger(L, secs / 86400); break;
    case CD_TICK_HOURS: lua_pushinteger(L, (secs / 3600) % 24); break;
    case CD_TICK_MINUTES: lua_pushinteger(L, (secs / 60) % 60); break;
    case CD_TICK_SECONDS: lua_pushinteger(L, secs % 60); break;
    case CD_TICK_TENTHS: lua_pushinteger(L, (r / 100000000) % 10); break;
    case CD_TICK_ELAPSED: lua_pushnumber(L, (lua_Number)elapsed / 1e9); break;
    case CD_TICK_PROGRESS: {
        lua_Number p = t->total_ns <= 0 ? 1.0 : (lua_Number)elapsed / (lua_Number)t->total_ns;
        lua_pushnumber(L, p < 0 ? 0 : p > 1 ? 1 : p);
        break;
    }
    case CD_TICK_MISSED: lua_pushinteger(L, t->missed); break;
    /* Seconds past the end of an overtime countdown (its remaining below zero); 0 before. */
    case CD_TICK_OVERTIME: lua_pushnumber(L, t->remaining_ns < 0 ? (lua_Number)(-t->remaining_ns) / 1e9 : 0); break;
    case CD_TICK_FIELD_COUNT:
    default: lua_pushnil(L);
    }
}

static int tick_field_index(const char *key) {
    for (int i = 0; TICK_FIELDS[i]; i++)
        if (strcmp(key, TICK_FIELDS[i]) == 0) return i;
    return -1;
}

static int tick_index(lua_State *L) {
    const cd_tick *t = (const cd_tick *)lua_touserdata(L, 1);
    const char *key = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
    int i = key ? tick_field_index(key) : -1;
    if (i < 0) lua_pushnil(L);
    else push_tick_field(L, 1, t, i);
    return 1;
}

static int tick_newindex(lua_State *L) {
    return luaL_error(L, "a tick is read-only (copy the fields you need into a table of your own)");
}

static int tick_next(lua_State *L) {
    const cd_tick *t = (const cd_tick *)lua_touserdata(L, 1);
    int i = lua_isnil(L, 2) ? 0 : tick_field_index(lua_tostring(L, 2)) + 1;
    for (; TICK_FIELDS[i]; i++) {
        push_tick_field(L, 1, t, i);
        if (!lua_isnil(L, -1)) {
            lua_pushstring(L, TICK_FIELDS[i]);
            lua_insert(L, -2);
            return 2;
        }
        lua_pop(L, 1);
    }
    lua_pushnil(L);
    return 1;
}

static int tick_pairs(lua_State *L) {
    lua_pushcfunction(L, tick_next);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

static int tick_tostring(lua_State *L) {
    const cd_tick *t = (const cd_tick *)lua_touserdata(L, 1);
    push_tick_field(L, 1, t, CD_TICK_ID);
    const char *id = lua_tostring(L, -1);
    lua_pushfstring(L, "tick of %s%s%s: %f s remaining", id ? "\"" : "", id ? id : "an anonymous countdown",
                    id ? "\"" : "", (lua_Number)(t->remaining_ns < 0 ? 0 : t->remaining_ns) / 1e9);
    return 1;
}

void cd_push_tick_metatable(lua_State *L) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &TICK_METATABLE_KEY) != LUA_TNIL) return;
    lua_pop(L, 1);
    lua_createtable(L, 0, 6);
    lua_pushcfunction(L, tick_index);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, tick_newindex);
    lua_setfield(L, -2, "__newindex");
    lua_pushcfunction(L, tick_pairs);
    lua_setfield(L, -2, "__pairs");
    lua_pushcfunction(L, tick_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pushstring(L, "countdown tick");
    lua_setfield(L, -2, "__name");
    lua_pushstring(L, "locked");
    lua_setfield(L, -2, "__metatable");
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &TICK_METATABLE_KEY);
}

void cd_push_tick(lua_State *L, int handle_index, const cd_tick *tick) {
    if (handle_index < 0) handle_index = lua_gettop(L) + handle_index + 1;
    cd_new_tick_box(L, handle_index, LUA_NOREF, tick);
}

const cd_tick *cd_to_tick(lua_State *L, int index) {
    if (lua_type(L, index) != LUA_TUSERDATA || !lua_getmetatable(L, index)) return NULL;
    lua_rawgetp(L, LUA_REGISTRYINDEX, &TICK_METATABLE_KEY);
    int same = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
    return same ? &((const cd_tick_box *)lua_touserdata(L, index))->tick : NULL;
}
