/* Store connections a terminating signal cuts, so that a run blocked on a server
 * that stopped answering (a paused VM, a network partition) ends at once instead
 * of waiting out the command's timeout; and whether the run is waiting on the
 * store, so the watchdog names the store, not the script, when it must step in.
 * Everything the handler reads is an atomic; shutdown(2) is async-signal-safe. */
#include "CLinux.h"
#include <stdatomic.h>
#include <sys/socket.h>

#define CUT_SLOTS 16
static _Atomic int cut_fds[CUT_SLOTS] = {
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
static _Atomic int waiting_on_store = 0;

int cdl_cut_on_termination(int fd) {
    if (fd < 0) return 0;
    for (int i = 0; i < CUT_SLOTS; i++) {
        int expected = -1;
        if (atomic_compare_exchange_strong(&cut_fds[i], &expected, fd)) return 1;
    }
    return 0;
}

void cdl_keep_on_termination(int fd) {
    if (fd < 0) return;
    for (int i = 0; i < CUT_SLOTS; i++) {
        int expected = fd;
        atomic_compare_exchange_strong(&cut_fds[i], &expected, -1);
    }
}

void cdl_cut_store_connections(void) {
    for (int i = 0; i < CUT_SLOTS; i++) {
        int fd = atomic_load(&cut_fds[i]);
        if (fd >= 0) shutdown(fd, SHUT_RDWR);
    }
}

static _Atomic(const char *) store_wait_message = NULL;

void cdl_set_waiting_on_store(int waiting) { atomic_store(&waiting_on_store, waiting); }
int cdl_waiting_on_store(void) { return atomic_load(&waiting_on_store); }
void cdl_set_store_wait_message(const char *message) { atomic_store(&store_wait_message, message); }
const char *cdl_store_wait_message(void) {
    const char *message = atomic_load(&store_wait_message);
    return message ? message : "cdscript: the store did not answer in time after the run was ended; changes not sent are kept on disk\n";
}
