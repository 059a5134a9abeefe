#define _GNU_SOURCE
#include "CBenchFloor.h"
#include <lauxlib.h>
#include <time.h>

int64_t cdb_process_cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t cdb_pcall_floor_calls(lua_State *L, int fn_ref, int64_t count) {
    for (int64_t i = 0; i < count; i++) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, fn_ref);
        if (lua_pcall(L, 0, 0, 0) != LUA_OK) lua_pop(L, 1);
    }
    return count;
}

int64_t cdb_pcall_floor(lua_State *L, int fn_ref, int64_t count) {
    int64_t start = cdb_process_cpu_ns();
    cdb_pcall_floor_calls(L, fn_ref, count);
    return cdb_process_cpu_ns() - start;
}

static int64_t boot_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_BOOTTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void sleep_until(int64_t instant) {
    struct timespec ts = { .tv_sec = instant / 1000000000, .tv_nsec = instant % 1000000000 };
    while (clock_nanosleep(CLOCK_BOOTTIME, TIMER_ABSTIME, &ts, NULL) != 0) {}
}

int64_t cdb_pcall_floor_bursts(lua_State *L, int fn_ref, int64_t burst, int64_t period_ns, double seconds, int64_t *calls) {
    int64_t next = boot_ns() + period_ns;
    int64_t end = next + (int64_t)(seconds * 1e9);
    *calls = 0;
    int64_t start = cdb_process_cpu_ns();
    for (; next < end; next += period_ns) {
        sleep_until(next);
        *calls += cdb_pcall_floor_calls(L, fn_ref, burst);
    }
    return cdb_process_cpu_ns() - start;
}

void cdb_nanosleep_schedule(int64_t period_ns, int count, int64_t *lateness) {
    int64_t next = boot_ns() + period_ns;
    for (int i = 0; i < count; i++) {
        struct timespec ts = { .tv_sec = next / 1000000000, .tv_nsec = next % 1000000000 };
        while (clock_nanosleep(CLOCK_BOOTTIME, TIMER_ABSTIME, &ts, NULL) != 0) {}
        lateness[i] = boot_ns() - next;
        next += period_ns;
    }
}
