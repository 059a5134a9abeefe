#ifndef CLUACPULIMIT_H
#define CLUACPULIMIT_H

/* Stopping Lua code from a signal handler once it ran too long or the user
 * pressed Ctrl-Z (cpu_limit.c): hooks set on the running threads, which put the
 * usual hook back (hooks.c) when done. */
#include <stdint.h>
#include <lua.h>

/* ---- the CPU-time limit per callback (cpu_limit.c) ----
 * A per-thread CPU-time timer (set up by the run, see CLinux's cdl_cpu_timer_start)
 * calls cd_cpu_limit_check from its signal handler every period of the thread's
 * CPU time. Each outermost callback bumps cd_callback_sequence (one increment);
 * when the check sees the same callback still running after the limit, it sets a
 * hook that makes its Lua code raise "CPU time limit exceeded" (the callback's
 * error: the run goes on); when that callback is still running at the next fire
 * (a finalizer or a loop in C, which no hook reaches), it returns 1 and the
 * caller ends the process. */
extern volatile uint32_t cd_callback_sequence;
/* Fires of the timer a callback may span before it is stopped (0: no limit), and
 * the limit in seconds, for the message. */
void cd_cpu_limit_configure(int periods, double seconds);
/* Replaces the message the stopped callback raises (after cd_cpu_limit_configure,
 * before the timer starts): `cdscript test` names a test and its own option. */
void cd_cpu_limit_set_message(const char *message);
/* For the timer's signal handler (async-signal-safe): 1 when the run must end now. */
int cd_cpu_limit_check(void);
/* The hook cd_cpu_limit_check sets: raises the CPU-time error in the callback it
 * was set for, and puts the usual hook back in any later one. */
void cd_cpu_hook(lua_State *L, lua_Debug *ar);
/* Nonzero when the CPU-time limit has stopped the callback running now. */
int cd_cpu_limit_stopped_now(void);
/* For cd_limits_end_failed_hook: the CPU-time limit lets go of the callback it
 * stopped (a nested hook's), so that the enclosing one runs on. */
void cd_cpu_limit_release_stopped(void);

/* ---- Ctrl-Z while Lua code runs (cpu_limit.c) ---- */
/* For the SIGTSTP handler (async-signal-safe; see CLinux's cdl_pause_fn): when a
 * callback is running, sets a hook on the running threads that calls `stop_now`
 * at the next instruction (which gives the terminal back and stops the process),
 * then puts back the hook it displaced, so that after SIGCONT the code goes on
 * where it was. Does nothing between callbacks or once interrupted. */
void cd_pause(int (*stop_now)(void));
/* The hook cd_pause sets. */
void cd_pause_hook(lua_State *L, lua_Debug *ar);

#endif
