/* The common countdown.start and countdown.fetch, read and made in C: one pass
 * over the options table, and the handle made with only the user values given. */
#include "CLuaStartOptions.h"
#include "CLuaHandles.h"
#include "CLuaIds.h"
#include <lauxlib.h>

/* The options each quick read takes (a mask of 1 << CD_OPTION_*): fetch's are the
 * start's less what a stored countdown already has (its id, duration and
 * persistence). */
#define START_OPTIONS ((1 << CD_OPTION_ID) | (1 << CD_OPTION_SECONDS) | (1 << CD_OPTION_EVERY) | \
                       (1 << CD_OPTION_ON_TICK) | (1 << CD_OPTION_ON_DONE) | (1 << CD_OPTION_PERSIST))
#define FETCH_OPTIONS ((1 << CD_OPTION_EVERY) | (1 << CD_OPTION_ON_TICK) | (1 << CD_OPTION_ON_DONE))

/* cd_start_read and cd_fetch_read: one pass over the options at `index`, any key
 * outside `allowed` sending the caller the long way. Inlined into each, so that
 * `allowed` is a constant there. */
static inline __attribute__((always_inline)) int read_options(lua_State *L, cd_hook_caller *caller, int index,
                                                              cd_start_options *options, int allowed, int needs_seconds) {
    if (lua_type(L, index) != LUA_TTABLE) return 0;
    index = lua_absindex(L, index);
    int base = lua_gettop(L);
    int has_seconds = 0;
    options->has_every = 0;
    options->found = 0;
    options->base = base;
    options->id_index = options->tick_index = options->done_index = 0;
    /* The id and the hooks stay where lua_next put them, each with its key below
     * it and a copy of the key above to go on from: no copying into slots of their
     * own, and no pop. At most three, so at most six slots more than a plain walk. */
    int kept = 0;
    /* One pass over the table: each key is found by address among the names, so
     * the check for unknown keys costs nothing more. */
    lua_pushnil(L);
    while (lua_next(L, index) != 0) {                  /* ... key value */
        int value = base + 2 + 2 * kept;
        int keep = 0;
        /* One call for the key's type and text: a number key is converted in place,
         * harmless, since it matches no name and the loop ends here (its next
         * lua_next would have needed the key as it was). */
        const char *key = lua_tolstring(L, -2, NULL);
        if (key == NULL) goto long_way;
        int option = 0;
        while (option < CD_OPTION_COUNT && caller->option_names[option] != key) option++;
        int type = lua_type(L, -1);
        /* Each case checks `allowed` itself: a constant once inlined, so that the
         * check costs nothing where the option is allowed. */
#define ALLOWED(option) if (!(allowed & (1 << (option)))) goto long_way
        switch (option) {
        case CD_OPTION_ID: {
            ALLOWED(CD_OPTION_ID);
            size_t length;
            const char *bytes = type == LUA_TSTRING ? lua_tolstring(L, -1, &length) : NULL;
            if (bytes == NULL || length == 0) goto long_way;
            options->id_index = value;
            keep = 1;
            options->found |= CD_HOOK_HAS_ID;
            /* The id's slot is a cache miss in a big table: start fetching it now,
             * a few hundred instructions before the handle binds it. */
            options->id_hash = cd_prefetch_id_slot(caller, bytes, length);
            break;
        }
        case CD_OPTION_SECONDS:
            ALLOWED(CD_OPTION_SECONDS);
            if (type != LUA_TNUMBER) goto long_way;
            options->seconds = lua_tonumberx(L, -1, NULL);
            has_seconds = 1;
            break;
        case CD_OPTION_EVERY:
            ALLOWED(CD_OPTION_EVERY);
            if (type != LUA_TNUMBER) goto long_way;
            options->every = lua_tonumberx(L, -1, NULL);
            options->has_every = 1;
            break;
        case CD_OPTION_ON_TICK:
        case CD_OPTION_ON_DONE:
            ALLOWED(option);
            if (type != LUA_TFUNCTION) goto long_way;
            if (option == CD_OPTION_ON_TICK) {
                options->tick_index = value;
                options->found |= CD_HOOK_HAS_TICK;
            } else {
                options->done_index = value;
                options->found |= CD_HOOK_HAS_DONE;
            }
            keep = 1;
            break;
        case CD_OPTION_PERSIST:
            ALLOWED(CD_OPTION_PERSIST);
            if (type != LUA_TBOOLEAN || lua_toboolean(L, -1)) goto long_way;
            break;
        default:                                       /* at, on_error, unknown */
            goto long_way;
        }
#undef ALLOWED
        if (keep) {
            lua_pushvalue(L, -2);                      /* ... key value key */
            kept++;
        } else {
            lua_settop(L, -2);                         /* ... key */
        }
    }
    if (has_seconds || !needs_seconds) return 1;
long_way:
    lua_settop(L, base);
    return 0;
}

int cd_start_read(lua_State *L, cd_hook_caller *caller, int index, cd_start_options *options) {
    return read_options(L, caller, index, options, START_OPTIONS, 1);
}

int cd_fetch_read(lua_State *L, cd_hook_caller *caller, int index, cd_start_options *options) {
    return read_options(L, caller, index, options, FETCH_OPTIONS, 0);
}

cd_handle *cd_start_handle(lua_State *L, cd_hook_caller *caller, const cd_start_options *options, int64_t every_ns,
                           int *flags, int *shared_hook, int *ref, cd_handle **replaced) {
    int base = options->base;
    int f = options->found;
    /* User values up to the last one given, not four: lua_getiuservalue of a
     * missing one pushes nil (and says LUA_TNONE), which every reader takes as
     * absent; the quick path never has an on_error (CD_UV_ERROR), which
     * ErrorPolicy then reads as the default. 16 bytes less per countdown for each
     * one left out (a countdown with on_tick alone: 80 bytes, not 128 with all four), and less
     * memory for the collector to go through. */
    int user_values = (f & CD_HOOK_HAS_DONE) ? CD_UV_DONE : (f & CD_HOOK_HAS_ID) ? CD_UV_ID : (f & CD_HOOK_HAS_TICK) ? CD_UV_TICK : 0;
    cd_handle *h = (cd_handle *)lua_newuserdatauv(L, sizeof(cd_handle), user_values);
    int handle = lua_gettop(L);
    h->slot = -1;
    h->generation = 0;
    h->final_state = 0;
    h->persistent = 0;
    h->every_ns = every_ns;
    lua_rawgeti(L, LUA_REGISTRYINDEX, caller->handle_metatable_ref);
    lua_setmetatable(L, handle);
    /* New user values are nil: set only those given (cd_start_read says which). */
    if (f & CD_HOOK_HAS_ID) {
        lua_pushvalue(L, options->id_index);
        lua_setiuservalue(L, handle, CD_UV_ID);
    }
    const void *tick_fn = NULL;
    if (f & CD_HOOK_HAS_TICK) {
        tick_fn = lua_topointer(L, options->tick_index);
        if (cd_hook_is_local_at(L, caller, options->tick_index, tick_fn)) f |= CD_HOOK_TICK_LOCAL;
        lua_pushvalue(L, options->tick_index);
        lua_setiuservalue(L, handle, CD_UV_TICK);
    }
    if (f & CD_HOOK_HAS_DONE) {
        if (cd_hook_is_local(L, caller, options->done_index)) f |= CD_HOOK_DONE_LOCAL;
        lua_pushvalue(L, options->done_index);
        lua_setiuservalue(L, handle, CD_UV_DONE);
    }
    lua_pushvalue(L, handle);
    int r = cd_ref_handle(L, caller);
    *replaced = NULL;
    if ((f & CD_HOOK_HAS_ID) && !cd_bind_id_at(L, caller, options->id_index, options->id_hash, h, r, replaced)) {
        cd_unref_handle(L, caller, r);
        lua_settop(L, handle - 1);
        return NULL;
    }
    *shared_hook = (f & CD_HOOK_TICK_LOCAL) ? cd_share_tick_hook_at(L, caller, options->tick_index, tick_fn) : 0;
    lua_copy(L, handle, base + 1);
    lua_settop(L, base + 1);                           /* h */
    *flags = f;
    *ref = r;
    return h;
}

cd_handle *cd_fetch_handle(lua_State *L, cd_hook_caller *caller, cd_start_options *options, int id_index, int64_t every_ns,
                           int *flags, int *shared_hook, int *ref, cd_handle **replaced) {
    size_t length;
    const char *bytes = lua_tolstring(L, id_index, &length);
    options->id_index = id_index;
    options->found |= CD_HOOK_HAS_ID;
    options->id_hash = cd_prefetch_id_slot(caller, bytes, length);
    cd_handle *h = cd_start_handle(L, caller, options, every_ns, flags, shared_hook, ref, replaced);
    if (h) h->persistent = 1;
    return h;
}
