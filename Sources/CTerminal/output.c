/* Standard output with its failures seen: see CTerminal.h, "standard output". */
#define _GNU_SOURCE
#include "CTerminal.h"
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int failure = 0;
static char failure_what[96];
static cdt_output_failure_fn failure_action = NULL;

int cdt_stdout_captured(void); /* restore.c */

static int fail(int error, const char *what) {
    if (failure != 0) return failure;
    failure = error != 0 ? error : CDT_OUTPUT_UNKNOWN_ERROR;
    snprintf(failure_what, sizeof failure_what, "%s", what ? what : "output");
    /* Nothing more reaches a reader that is gone or a disk that is full. */
    if (failure_action) failure_action(failure);
    return failure;
}

/* A write failed, its errno lost (stdio kept only the error flag): a pipe
 * whose reader went away reports POLLERR on its write end; anything else is
 * CDT_OUTPUT_UNKNOWN_ERROR, and the message says no more than that it failed. */
static int guess_error(void) {
    struct pollfd p = {STDOUT_FILENO, POLLOUT, 0};
    if (poll(&p, 1, 0) == 1 && (p.revents & POLLERR)) return EPIPE;
    return CDT_OUTPUT_UNKNOWN_ERROR;
}

int cdt_output_write(const char *bytes, size_t count, const char *what) {
    if (failure != 0) return failure;
    if (cdt_stdout_captured()) {
        /* The view holds stdout in a bounded capture; a full one is its business. */
        fwrite(bytes, 1, count, stdout);
        return 0;
    }
    /* A line-buffered fwrite flushes inside and may still report every byte
     * taken: the stream's error flag, with the errno the failed write(2) left,
     * is what tells. */
    errno = 0;
    size_t taken = count > 0 ? fwrite(bytes, 1, count, stdout) : 0;
    int flushed = fflush(stdout);
    if (taken != count || flushed != 0 || ferror(stdout)) {
        int error = errno != 0 ? errno : guess_error();
        clearerr(stdout);
        return fail(error, what);
    }
    return 0;
}

int cdt_output_flush(const char *what) {
    if (failure != 0) return failure;
    if (cdt_stdout_captured()) return 0;
    errno = 0;
    int flushed = fflush(stdout);
    int error = errno;
    if (flushed != 0 || ferror(stdout)) {
        clearerr(stdout);
        return fail(flushed != 0 && error != 0 ? error : guess_error(), what);
    }
    return 0;
}

void cdt_output_fail(int error, const char *what) { (void)fail(error, what); }
int cdt_output_failure(void) { return failure; }
const char *cdt_output_failure_what(void) { return failure_what; }
void cdt_output_on_failure(cdt_output_failure_fn action) { failure_action = action; }
