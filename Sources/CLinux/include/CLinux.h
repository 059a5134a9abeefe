#ifndef CLINUX_H
#define CLINUX_H
/* Linux descriptors the run loop waits on, which Swift's Glibc module does not export,
 * the reader of inotify's records (inotify.c) and the process's signal handling (signals.c). */
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/inotify.h>
#include <signal.h>
#include <stdint.h>

/* TFD_TIMER_CANCEL_ON_SET: report wall-clock changes on a CLOCK_REALTIME timerfd. */
int cdl_timer_cancel_on_set(void);

/* ---- inotify (inotify.c) ------------------------------------------------------
 * The one reader of inotify's packed records (a header, then a NUL-padded name),
 * for every watcher: FileChangeWatch (scripts) and SQLiteChangeWatcher (stores).
 *
 *     cdl_inotify_reader *events = cdl_inotify_reader_open(fd);
 *     cdl_inotify_event event;
 *     while (cdl_inotify_next(events, &event)) { ... }
 *     cdl_inotify_reader_close(events);
 */
typedef struct cdl_inotify_reader cdl_inotify_reader;
typedef struct {
    int watch;        /* what inotify_add_watch returned */
    uint32_t mask;    /* what happened: IN_CREATE, IN_MOVED_TO, ... */
    const char *name; /* the file in the watched folder; NULL for the folder itself.
                         Valid until the next cdl_inotify_next or the close. */
} cdl_inotify_event;
/* A reader of the events queued on `fd` (opened with IN_NONBLOCK); NULL when out of memory. */
cdl_inotify_reader *cdl_inotify_reader_open(int fd);
/* The next queued event, in order, read without blocking: 1 with `*event` filled,
 * or 0 when none is left (or `reader` is NULL). */
int cdl_inotify_next(cdl_inotify_reader *reader, cdl_inotify_event *event);
void cdl_inotify_reader_close(cdl_inotify_reader *reader);

/* ---- signals (signals.c) ---------------------------------------------------
 * Real handlers (sigaction), never a blocked mask, so that a signal is seen at
 * once whatever the process is doing, and children start with an empty mask.
 *
 * - SIGINT, SIGTERM, SIGHUP end the run: the handler records the signal, wakes
 *   the loop through a self-pipe, calls the interrupter (which makes running Lua
 *   code raise "interrupted"), and arms the watchdog: when the run has not ended
 *   within the grace period (code in C that no Lua hook sees, a finalizer, a host
 *   loop), the watchdog thread restores the terminal (the restorer) and ends the
 *   process with 128 + the signal. A second terminating signal forces at once.
 * - SIGWINCH, SIGCONT are recorded and handed to the loop.
 * - SIGTSTP (Ctrl-Z) requests a stop, which whoever comes first carries out
 *   (cdl_take_stop_request makes sure only one does): the loop, handed the
 *   signal as an observed one, when it is idle; running Lua code at its next
 *   instruction (the pauser arms a hook that calls cdl_stop_if_requested); or,
 *   after 0.5 s, the watchdog thread (code in C that no hook reaches, a host call
 *   that blocks). The last two give the terminal back with the suspender and stop
 *   the process with SIGSTOP; after SIGCONT the stopped code goes on where it
 *   was, and the loop, handed SIGCONT, takes the terminal over again.
 * - SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, SIGVTALRM, SIGQUIT, SIGXFSZ: restore the
 *   terminal, then die by the default action (SIGQUIT included: no backtracer prompt).
 * - SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT (crashes, Swift traps):
 *   with the view open, restore the terminal and die by the default action (the
 *   Swift backtracer would keep the process, and so the screen, for seconds);
 *   otherwise the previous disposition (Swift's backtracer) takes over.
 * - SIGPIPE is caught and does nothing: a write to a closed pipe fails with EPIPE
 *   (a caught disposition, unlike SIG_IGN, is reset to the default by exec). */

/* Catches SIGPIPE with a handler that does nothing, for every command (not only
 * runs): a write into a closed pipe then fails with EPIPE, and the command ends
 * with exit 141 through its own path (OutputContract). Caught, not ignored, so
 * that children start with the default. */
void cdl_catch_sigpipe(void);

/* Called from a signal handler with the terminating signal (async-signal-safe code only). */
typedef void (*cdl_interrupt_fn)(int signal);
/* Gives the terminal back from any thread or handler (async-signal-safe code
 * only); returns nonzero when there was something to give back (a view open). */
typedef int (*cdl_restore_fn)(void);

/* Called from the SIGTSTP handler (async-signal-safe code only): when Lua code is
 * running, arrange for it to call `stop_now` at its next instruction. */
typedef void (*cdl_pause_fn)(int (*stop_now)(void));

/* Installs the handlers (once) and returns the read end of the self-pipe, or -1. */
int cdl_signals_install(void);
void cdl_set_interrupter(cdl_interrupt_fn interrupter);
void cdl_set_restorer(cdl_restore_fn restorer);
/* How long the run may take to end after a terminating signal before it is forced. */
void cdl_set_grace_ms(int milliseconds);
/* What Ctrl-Z uses besides the loop: `pause` (see cdl_pause_fn) and `suspend`,
 * which gives the terminal back without ending the view (async-signal-safe). */
void cdl_set_stop_actions(cdl_pause_fn pause, cdl_restore_fn suspend);
/* Claims the pending Ctrl-Z, if any: 1 when the caller is now to stop the
 * process (giving the terminal back first), 0 when there is none or another
 * path took it. */
int cdl_take_stop_request(void);
/* Claims the pending Ctrl-Z and carries it out: the suspender, then SIGSTOP;
 * returns 1 after the process was continued, 0 at once when there was none.
 * Async-signal-safe, any thread. */
int cdl_stop_if_requested(void);
/* The first terminating signal received, or 0. */
int cdl_terminating_signal(void);
/* Empties the self-pipe and returns the observed signals received since the
 * last call, as a bit mask (1 << signal). */
uint64_t cdl_take_observed_signals(void);
/* Ends the run as a terminating signal does (wakes the loop, interrupts Lua code,
 * arms the watchdog, which exits with `code`), for a cause that is no signal:
 * output that cannot be written (`cause` SIGPIPE, which cdl_terminating_signal
 * then returns). Does nothing before cdl_signals_install or once the run is
 * ending. Not for signal handlers: call it on the thread that writes. */
void cdl_end_run(int cause, int code);

/* Store connections (store_wait.c). A descriptor registered with
 * cdl_cut_on_termination is shut down (shutdown(2), both ways) by a terminating
 * signal or cdl_end_run, so a command blocked on a server that stopped answering
 * fails at once; unregister it before closing it. Returns 0 when every slot is
 * taken (the connection then just waits out its timeout). */
int cdl_cut_on_termination(int fd);
void cdl_keep_on_termination(int fd);
void cdl_cut_store_connections(void);
/* Set while a store command waits for its server: a watchdog that must end the
 * run then says the store did not answer, not that the script did not stop. */
void cdl_set_waiting_on_store(int waiting);
int cdl_waiting_on_store(void);
/* The watchdog's message in that case (kept, never freed; NULL: a generic one). */
void cdl_set_store_wait_message(const char *message);
const char *cdl_store_wait_message(void);
/* Arms the watchdog: unless disarmed first, after `milliseconds` it restores the
 * terminal, writes `message` (a static string) to stderr, and _exits with `code`.
 * Used around shutdown (finalizers), where no hook can interrupt Lua. */
void cdl_watchdog_arm(int milliseconds, int code, const char *message);
void cdl_watchdog_disarm(void);
/* Restores the terminal now (the restorer, if any); nonzero when it did. */
int cdl_restore_terminal(void);

/* ---- the CPU-time limit (signals.c) ----------------------------------------
 * A timer on the calling thread's CPU-time clock (CLOCK_THREAD_CPUTIME_ID), firing
 * SIGRTMIN+4 at that thread every `period_ns` of its CPU time. A CPU-time clock
 * stands still while the thread sleeps: an idle run gets no signal and no wake-up.
 * The handler calls `check` (async-signal-safe); when it returns nonzero, the
 * process ends as the watchdog ends it: terminal restored, `message` (a string
 * that must outlive the process) on stderr, exit `code`. Returns 0, or -1 (errno). */
typedef int (*cdl_cpu_check_fn)(void);
int cdl_cpu_timer_start(int64_t period_ns, cdl_cpu_check_fn check, int code, const char *message);

/* ---- the heap (heap.c) -------------------------------------------------------
 * Transparent huge pages for the heap the process grows from now on: the heap is
 * grown at once by 64 MiB of address space, advised with MADV_HUGEPAGE, and kept
 * (no trimming below twice that; blocks up to 32 MiB come from it). A run that
 * starts 100,000 countdowns then takes ~1,600 page faults instead of ~9,000
 * (docs/performance.md). Where the kernel has transparent huge pages off or
 * "always", nothing changes but the reserve; nor where the host takes back free
 * huge pages (cdl_host_reclaims_huge_pages), which would come back slower than
 * small ones. Call it first thing, before the heap holds much. Returns 0, or -1. */
int cdl_heap_prefer_huge_pages(void);
/* Gives the kernel back the pages of the heap that hold only freed blocks
 * (malloc_trim, keeping the reserve at its top): a store calls it once a copy
 * of a whole table, freed record by record as loads took them, is gone, so that
 * its holes do not stay resident for the rest of the run. Returns 1 when some
 * memory was given back. */
int cdl_heap_give_back_free(void);

/* Whether this machine is a virtual one whose host takes back the guest's free
 * 2 MiB blocks (a virtio balloon with free page reporting, reporting blocks of a
 * huge page's order), read from the sysfs tree at `sysfs` ("/sys"; another root
 * in tests). A huge page then often comes from such a block, which the host must
 * supply again on its first touch. 1 or 0. */
int cdl_host_reclaims_huge_pages(const char *sysfs);
/* ---- a long-running service's signals (serve_signals.c) ----------------------
 * For `cdscript serve`'s end-action runner, which stays up instead of ending at
 * the first signal: SIGTERM, SIGINT, SIGHUP and SIGCHLD are caught by handlers
 * that only write the signal's number, one byte, into a non-blocking pipe, whose
 * read end is returned (or -1); the runner polls it with its other descriptors and
 * decides (SIGHUP reloads, SIGCHLD reaps, the others stop it). No watchdog, no
 * interrupter: nothing runs in a handler but write(2). Children started with
 * posix_spawn get the default dispositions back (POSIX_SPAWN_SETSIGDEF). The four
 * are unblocked in the calling thread (a parent's mask is inherited).
 * Not to be combined with cdl_signals_install in one process. */
int cdl_service_signals_install(void);
/* The next signal number written to the pipe `fd`, or 0 when there is none. */
int cdl_service_signal_take(int fd);

#endif
