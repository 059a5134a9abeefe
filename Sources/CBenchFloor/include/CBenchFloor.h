#ifndef CBENCHFLOOR_H
#define CBENCHFLOOR_H
/* The floors cdscript is measured against: what the machine and Lua allow
 * with no scheduler at all. */
#include <stdint.h>
#include <lua.h>

/* Calls registry[fn_ref]() `count` times with lua_pcall; returns CPU nanoseconds spent. */
int64_t cdb_pcall_floor(lua_State *L, int fn_ref, int64_t count);

/* The same in real time: a burst of `burst` calls every `period_ns` (absolute
 * deadlines on CLOCK_BOOTTIME, slept to with clock_nanosleep) for `seconds`, as
 * a run loop with `burst` countdowns in one phase works. Returns CPU nanoseconds
 * spent, sleeping included; the number of calls goes to *calls. */
int64_t cdb_pcall_floor_bursts(lua_State *L, int fn_ref, int64_t burst, int64_t period_ns, double seconds, int64_t *calls);

/* Sleeps to `count` absolute deadlines `period_ns` apart with
 * clock_nanosleep(TIMER_ABSTIME) on CLOCK_BOOTTIME and writes each wake-up's
 * lateness in nanoseconds to `lateness`. */
void cdb_nanosleep_schedule(int64_t period_ns, int count, int64_t *lateness);

/* Sets the global `start_floor` (start_floor.c): countdown.start's common case
 * done with Lua's C API alone, nothing of cdscript's around it. */
void cdb_register_start_floor(lua_State *L);

/* CPU time of this process in nanoseconds. */
int64_t cdb_process_cpu_ns(void);
#endif
