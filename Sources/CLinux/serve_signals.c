/* A long-running service's signals: see CLinux.h. The handler writes one byte,
 * which is async-signal-safe; errno is kept for the code it interrupted. */
#define _GNU_SOURCE
#include "CLinux.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static int service_pipe[2] = {-1, -1};

static void service_handler(int signal) {
    int saved = errno;
    unsigned char byte = (unsigned char)signal;
    /* A full pipe drops the byte: the runner is behind, and reads what is there. */
    if (service_pipe[1] >= 0) (void)!write(service_pipe[1], &byte, 1);
    errno = saved;
}

int cdl_service_signals_install(void) {
    if (service_pipe[0] >= 0) return service_pipe[0];
    if (pipe2(service_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return -1;
    static const int CAUGHT[] = {SIGTERM, SIGINT, SIGHUP, SIGCHLD};
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = service_handler;
    action.sa_flags = SA_RESTART | SA_NOCLDSTOP;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < sizeof CAUGHT / sizeof CAUGHT[0]; i++) {
        if (sigaction(CAUGHT[i], &action, NULL) != 0) return -1;
    }
    /* A command's output into a closed pipe must not end the service. */
    signal(SIGPIPE, SIG_IGN);
    /* Whatever started us may have blocked them (a parent's mask is inherited):
     * they must get through to this thread. */
    sigset_t mask;
    sigemptyset(&mask);
    for (size_t i = 0; i < sizeof CAUGHT / sizeof CAUGHT[0]; i++) sigaddset(&mask, CAUGHT[i]);
    pthread_sigmask(SIG_UNBLOCK, &mask, NULL);
    return service_pipe[0];
}

int cdl_service_signal_take(int fd) {
    unsigned char byte;
    for (;;) {
        ssize_t n = read(fd, &byte, 1);
        if (n == 1) return byte;
        if (n < 0 && errno == EINTR) continue;
        return 0;
    }
}
