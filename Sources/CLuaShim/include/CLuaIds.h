#ifndef CLUAIDS_H
#define CLUAIDS_H

/* Countdowns by id (ids.c). */
#include <stddef.h>
#include <stdint.h>
#include <lua.h>
#include "CLuaHandles.h"

/* Makes the handle at `index`, registry[ref], the countdown of its id (user
 * value 1), if it has one; `*replaced` is the handle that held the id until now
 * (to be ended as replaced), or NULL. Returns 0 when there was no memory for the
 * id (nothing changed), else 1. */
int cd_bind_id(lua_State *L, cd_hook_caller *caller, int index, int ref, cd_handle **replaced);
/* cd_bind_id with the id (a string) at `id_index`, its hash (cd_prefetch_id_slot)
 * and the handle by address. */
int cd_bind_id_at(lua_State *L, cd_hook_caller *caller, int id_index, uint32_t hash, cd_handle *handle, int ref,
                  cd_handle **replaced);
/* Returns the hash of the id `bytes`, and asks the processor for the table slot
 * where it would go: a hint, ahead of cd_bind_id_at. */
uint32_t cd_prefetch_id_slot(const cd_hook_caller *caller, const char *bytes, size_t length);
/* The bytes of the table's slots, by capacity (HeldCountdownMemoryTests). */
size_t cd_id_map_bytes(const cd_id_map *map);
/* Frees the table (when the state closes). */
void cd_id_map_free(cd_id_map *map);
/* The handle of a countdown that just ended, registry[ref] (where only
 * cd_ref_handle puts handles, so it needs no type check), with its id forgotten
 * first when `has_id` and it still holds it. Nothing stays on the stack; the handle
 * stays valid while the reference is held. */
cd_handle *cd_ended_handle(lua_State *L, cd_hook_caller *caller, int ref, int has_id);
/* Pushes the handle of the running countdown with the id at `index`, or nil. */
void cd_push_handle_for_id(lua_State *L, cd_hook_caller *caller, int index);

#endif
