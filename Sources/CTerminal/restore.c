#define _GNU_SOURCE
#include "CTerminal.h"
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

static char sequence[128];
static size_t sequence_length;
static int output = -1, input = -1, has_saved_mode;
static struct termios saved_mode;
static int captured[2] = {-1, -1}, targets[2] = {-1, -1};
static _Atomic int armed = 0;
static _Atomic int suspended = 0; /* given back by cdt_suspend_now */

void cdt_restore_arm(int output_fd, int input_fd, const struct termios *mode, int has_mode,
                     const char *seq, size_t length) {
    atomic_store(&armed, 0);
    if (length > sizeof sequence) length = sizeof sequence;
    memcpy(sequence, seq, length);
    sequence_length = length;
    output = output_fd;
    input = input_fd;
    has_saved_mode = has_mode && mode != NULL;
    if (has_saved_mode) saved_mode = *mode;
    atomic_store(&suspended, 0);
    atomic_store(&armed, 1);
}

void cdt_restore_capture(int index, int captured_fd, int target_fd) {
    if (index < 0 || index > 1) return;
    captured[index] = captured_fd;
    targets[index] = target_fd;
}

/* Whether stdout is the view's capture now (output.c asks). */
int cdt_stdout_captured(void) { return captured[0] >= 0; }

void cdt_restore_disarm(void) {
    atomic_store(&armed, 0);
    atomic_store(&suspended, 0);
    captured[0] = captured[1] = targets[0] = targets[1] = -1;
}

static void write_all(int fd, const char *bytes, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, bytes, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        bytes += w;
        n -= (size_t)w;
    }
}

int cdt_restore_now(void) {
    int expected = 1;
    if (!atomic_compare_exchange_strong(&armed, &expected, 0)) return 0;
    int saved = errno;
    /* Given back already for a stop: only the captured output is left to do. */
    if (!atomic_load(&suspended)) {
        write_all(output, sequence, sequence_length);
        if (has_saved_mode && input >= 0) tcsetattr(input, TCSAFLUSH, &saved_mode);
    }
    /* What the script printed while the view was open (bounded: see TerminalSession). */
    static char buffer[4096];
    for (int i = 0; i < 2; i++) {
        if (captured[i] < 0 || targets[i] < 0) continue;
        /* The capture is a fixed-size memfd: what was written ends at its offset. */
        off_t end = lseek(captured[i], 0, SEEK_CUR);
        off_t offset = 0;
        while (offset < end) {
            size_t want = end - offset < (off_t)sizeof buffer ? (size_t)(end - offset) : sizeof buffer;
            ssize_t n = pread(captured[i], buffer, want, offset);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            write_all(targets[i], buffer, (size_t)n);
            offset += n;
        }
        /* What is written after (the watchdog's message) goes where it should. */
        dup2(targets[i], i + 1);
    }
    errno = saved;
    return 1;
}

int cdt_suspend_now(void) {
    if (!atomic_load(&armed)) return 0;
    int expected = 0;
    if (!atomic_compare_exchange_strong(&suspended, &expected, 1)) return 0;
    int saved = errno;
    write_all(output, sequence, sequence_length);
    if (has_saved_mode && input >= 0) tcsetattr(input, TCSAFLUSH, &saved_mode);
    errno = saved;
    return 1;
}

int cdt_suspended(void) { return atomic_load(&suspended); }

int cdt_bounded_capture(size_t limit) {
    int fd = memfd_create("cdscript-output", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return -1;
    if (ftruncate(fd, (off_t)limit) != 0 || fcntl(fd, F_ADD_SEALS, F_SEAL_GROW | F_SEAL_SHRINK) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

int cdt_take_stream_errors(void) {
    int failed = ferror(stdout) || ferror(stderr);
    clearerr(stdout);
    clearerr(stderr);
    return failed;
}
