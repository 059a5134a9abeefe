/* The process's signal handling; see CLinux.h for what each signal does.
 * Everything a handler or the watchdog runs is async-signal-safe: atomics,
 * write(2), sem_post, tcsetattr, kill, _exit. */
#define _GNU_SOURCE
#include "CLinux.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int wake_pipe[2] = {-1, -1};
static _Atomic int terminating = 0;
static _Atomic uint64_t observed = 0;
static _Atomic(cdl_interrupt_fn) interrupter = NULL;
static _Atomic(cdl_restore_fn) restorer = NULL;
static _Atomic int grace_ms = 300;

/* The watchdog: a deadline on CLOCK_MONOTONIC (ns; 0: disarmed), an exit code, a message. */
static _Atomic int64_t watchdog_deadline = 0;
static _Atomic int watchdog_code = 0;
static _Atomic(const char *) watchdog_message = NULL;
static sem_t watchdog_wake;
static struct sigaction previous[65];

static const int TERMINATING[] = {SIGINT, SIGTERM, SIGHUP};
static const int OBSERVED[] = {SIGWINCH, SIGCONT};
static const int FATAL[] = {SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, SIGVTALRM, SIGQUIT, SIGXFSZ};
static const int CRASH[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT};

static int64_t monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int cdl_restore_terminal(void) {
    cdl_restore_fn restore = atomic_load(&restorer);
    return restore ? restore() : 0;
}

static void write_all(int fd, const char *text) {
    size_t n = strlen(text);
    while (n > 0) {
        ssize_t w = write(fd, text, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        text += w;
        n -= (size_t)w;
    }
}

static void force_exit(int code, const char *message) {
    cdl_restore_terminal();
    if (message) write_all(STDERR_FILENO, message);
    _exit(code);
}

static void wake_loop(void) {
    int saved = errno;
    if (wake_pipe[1] >= 0) {
        char byte = 1;
        (void)!write(wake_pipe[1], &byte, 1);
    }
    errno = saved;
}

static void arm(int64_t deadline, int code, const char *message) {
    atomic_store(&watchdog_code, code);
    atomic_store(&watchdog_message, message);
    atomic_store(&watchdog_deadline, deadline);
    sem_post(&watchdog_wake);
}

static void on_terminating(int signal) {
    int expected = 0;
    if (!atomic_compare_exchange_strong(&terminating, &expected, signal)) {
        /* A second terminating signal: the user insists. */
        force_exit(128 + expected, "cdscript: ended at once by a second signal\n");
    }
    wake_loop();
    cdl_cut_store_connections();
    cdl_interrupt_fn interrupt = atomic_load(&interrupter);
    if (interrupt) interrupt(signal);
    arm(monotonic_ns() + (int64_t)atomic_load(&grace_ms) * 1000000, 128 + signal,
        "cdscript: the script did not stop in time after a signal; the run was ended\n");
}

void cdl_end_run(int cause, int code) {
    int expected = 0;
    if (wake_pipe[1] < 0 || !atomic_compare_exchange_strong(&terminating, &expected, cause)) return;
    wake_loop();
    cdl_cut_store_connections();
    cdl_interrupt_fn interrupt = atomic_load(&interrupter);
    if (interrupt) interrupt(cause);
    arm(monotonic_ns() + (int64_t)atomic_load(&grace_ms) * 1000000, code,
        "cdscript: the script did not stop in time after its output failed; the run was ended\n");
}

static void on_observed(int signal) {
    atomic_fetch_or(&observed, (uint64_t)1 << signal);
    wake_loop();
}

/* ---- Ctrl-Z (see CLinux.h): whoever comes first stops the process ---- */

static _Atomic int stop_requested = 0;
static _Atomic int64_t stop_deadline = 0; /* CLOCK_MONOTONIC ns; 0: none */
static _Atomic(cdl_pause_fn) pauser = NULL;
static _Atomic(cdl_restore_fn) suspender = NULL;
static _Atomic int stop_grace_ms = 500;

int cdl_take_stop_request(void) {
    int expected = 1;
    if (!atomic_compare_exchange_strong(&stop_requested, &expected, 0)) return 0;
    atomic_store(&stop_deadline, 0);
    return 1;
}

int cdl_stop_if_requested(void) {
    if (!cdl_take_stop_request()) return 0;
    int saved = errno;
    cdl_restore_fn suspend = atomic_load(&suspender);
    if (suspend) suspend();
    /* SIGSTOP stops every thread, wherever it is; this call returns after SIGCONT. */
    kill(getpid(), SIGSTOP);
    errno = saved;
    return 1;
}

static void on_stop(int signal) {
    int saved = errno;
    atomic_store(&stop_requested, 1);
    /* Running Lua code stops at its next instruction; the loop, when it runs,
     * takes the request first; the watchdog when neither did in time. */
    cdl_pause_fn pause = atomic_load(&pauser);
    if (pause) pause(cdl_stop_if_requested);
    /* Only a command that can give the terminal back from any thread lets the
     * watchdog stop it; otherwise the loop does, when it runs. */
    if (atomic_load(&suspender)) {
        atomic_store(&stop_deadline, monotonic_ns() + (int64_t)atomic_load(&stop_grace_ms) * 1000000);
        sem_post(&watchdog_wake);
    }
    atomic_fetch_or(&observed, (uint64_t)1 << signal);
    wake_loop();
    errno = saved;
}

static void on_fatal(int signal) {
    cdl_restore_terminal();
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(signal, &dfl, NULL);
    raise(signal); /* blocked while this handler runs: delivered as it returns */
}

static void on_crash(int signal) {
    if (cdl_restore_terminal()) {
        /* The view was open: end now. Swift's backtracer would hold the process
         * (symbolicating, perhaps prompting) with the user looking at a blank screen. */
        write_all(STDERR_FILENO, "cdscript: crashed with the view open; the terminal was restored\n");
        on_fatal(signal);
        return;
    }
    /* The previous disposition (Swift's backtracer, or the default) handles it:
     * a fault re-executes the faulting instruction, anything else is re-raised. */
    sigaction(signal, &previous[signal], NULL);
    raise(signal);
}

static void on_pipe(int signal) { (void)signal; }

static void handle(int signal, void (*handler)(int), int save);

void cdl_catch_sigpipe(void) {
    struct sigaction current;
    if (sigaction(SIGPIPE, NULL, &current) == 0 && current.sa_handler == on_pipe) return;
    handle(SIGPIPE, on_pipe, 0);
}

static void *watchdog(void *unused) {
    (void)unused;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL); /* signals go to the main thread */
    for (;;) {
        while (sem_wait(&watchdog_wake) != 0 && errno == EINTR) {}
        for (;;) {
            int64_t deadline = atomic_load(&watchdog_deadline);
            int64_t stop = atomic_load(&stop_deadline);
            if (deadline == 0 && stop == 0) break;
            int64_t now = monotonic_ns();
            if (deadline != 0 && now >= deadline) {
                /* A run that waits on its store is not a script that will not stop. */
                const char *message = atomic_load(&watchdog_message);
                if (atomic_load(&terminating) != 0 && cdl_waiting_on_store())
                    message = cdl_store_wait_message();
                force_exit(atomic_load(&watchdog_code), message);
            }
            if (stop != 0 && now >= stop) {
                /* Ctrl-Z, and neither Lua's hook nor the loop took it: code in C
                 * (a pattern match, a finalizer) or a host call that blocks. */
                if (!cdl_stop_if_requested()) atomic_compare_exchange_strong(&stop_deadline, &stop, 0);
                continue;
            }
            int64_t next = deadline == 0 || (stop != 0 && stop < deadline) ? stop : deadline;
            int64_t wait = next - now;
            if (wait > 20000000) wait = 20000000; /* re-read: it may be disarmed or moved */
            struct timespec ts = {(time_t)(wait / 1000000000), (long)(wait % 1000000000)};
            nanosleep(&ts, NULL);
        }
    }
    return NULL;
}

static void handle(int signal, void (*handler)(int), int save) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(signal, &action, save ? &previous[signal] : NULL);
}

int cdl_signals_install(void) {
    static int installed = 0;
    if (installed) return wake_pipe[0];
    if (pipe2(wake_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return -1;
    sem_init(&watchdog_wake, 0, 0);
    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attributes, 64 * 1024);
    if (pthread_create(&thread, &attributes, watchdog, NULL) != 0) return -1;
    pthread_attr_destroy(&attributes);
    installed = 1;
    for (size_t i = 0; i < sizeof CRASH / sizeof *CRASH; i++) handle(CRASH[i], on_crash, 1);
    for (size_t i = 0; i < sizeof FATAL / sizeof *FATAL; i++) handle(FATAL[i], on_fatal, 1);
    for (size_t i = 0; i < sizeof OBSERVED / sizeof *OBSERVED; i++) handle(OBSERVED[i], on_observed, 1);
    handle(SIGTSTP, on_stop, 1);
    handle(SIGPIPE, on_pipe, 1);
    for (size_t i = 0; i < sizeof TERMINATING / sizeof *TERMINATING; i++) {
        /* Ignored by whoever started us (nohup, `&` without job control): stays ignored. */
        struct sigaction current;
        if (sigaction(TERMINATING[i], NULL, &current) == 0 && current.sa_handler == SIG_IGN) continue;
        handle(TERMINATING[i], on_terminating, 1);
    }
    /* Whatever started us may have blocked these (the old loop did, and a parent's
     * mask is inherited): they must get through, and children must start clean. */
    sigset_t mask;
    sigemptyset(&mask);
    pthread_sigmask(SIG_SETMASK, &mask, NULL);
    return wake_pipe[0];
}

void cdl_set_interrupter(cdl_interrupt_fn fn) { atomic_store(&interrupter, fn); }
void cdl_set_restorer(cdl_restore_fn fn) { atomic_store(&restorer, fn); }
void cdl_set_grace_ms(int milliseconds) { atomic_store(&grace_ms, milliseconds); }
void cdl_set_stop_actions(cdl_pause_fn pause, cdl_restore_fn suspend) {
    atomic_store(&pauser, pause);
    atomic_store(&suspender, suspend);
}
int cdl_terminating_signal(void) { return atomic_load(&terminating); }

uint64_t cdl_take_observed_signals(void) {
    char buffer[64];
    while (wake_pipe[0] >= 0 && read(wake_pipe[0], buffer, sizeof buffer) > 0) {}
    return atomic_exchange(&observed, 0);
}

void cdl_watchdog_arm(int milliseconds, int code, const char *message) {
    /* A signal's deadline, already running, is never pushed back. */
    if (atomic_load(&terminating) != 0) return;
    arm(monotonic_ns() + (int64_t)milliseconds * 1000000, code, message);
}

void cdl_watchdog_disarm(void) {
    if (atomic_load(&terminating) != 0) return;
    atomic_store(&watchdog_deadline, 0);
}

/* ---- the CPU-time limit (see CLinux.h) ---- */

static _Atomic(cdl_cpu_check_fn) cpu_check = NULL;
static _Atomic int cpu_code = 1;
static _Atomic(const char *) cpu_message = NULL;

static void on_cpu_timer(int signal) {
    (void)signal;
    int saved = errno;
    cdl_cpu_check_fn check = atomic_load(&cpu_check);
    if (check && check()) force_exit(atomic_load(&cpu_code), atomic_load(&cpu_message));
    errno = saved;
}

int cdl_cpu_timer_start(int64_t period_ns, cdl_cpu_check_fn check, int code, const char *message) {
    static int started = 0;
    if (started) return 0;
    atomic_store(&cpu_code, code);
    atomic_store(&cpu_message, message);
    atomic_store(&cpu_check, check);
    handle(SIGRTMIN + 4, on_cpu_timer, 0);
    /* A parent's mask is inherited (a test harness blocks nearly everything), and
     * `cdscript test` sets up no loop that would clear it: let the timer's signal in. */
    sigset_t timer_signal;
    sigemptyset(&timer_signal);
    sigaddset(&timer_signal, SIGRTMIN + 4);
    pthread_sigmask(SIG_UNBLOCK, &timer_signal, NULL);
    struct sigevent event;
    memset(&event, 0, sizeof event);
    event.sigev_notify = SIGEV_THREAD_ID; /* this thread, the one that runs Lua */
    event.sigev_signo = SIGRTMIN + 4;
    event._sigev_un._tid = gettid();
    timer_t timer;
    if (timer_create(CLOCK_THREAD_CPUTIME_ID, &event, &timer) != 0) return -1;
    struct itimerspec spec;
    spec.it_value.tv_sec = (time_t)(period_ns / 1000000000);
    spec.it_value.tv_nsec = (long)(period_ns % 1000000000);
    spec.it_interval = spec.it_value;
    if (timer_settime(timer, 0, &spec, NULL) != 0) return -1;
    started = 1;
    return 0;
}
