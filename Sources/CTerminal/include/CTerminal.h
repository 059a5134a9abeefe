#ifndef CTERMINAL_H
#define CTERMINAL_H
/* Terminal calls Swift cannot make directly: ioctl is variadic. */
#include <stddef.h>
#include <termios.h>

/* Stores the window size of the terminal on `fd`; returns 0, or -1 when `fd` is
 * not a terminal or reports no size. */
int cdt_window_size(int fd, int *columns, int *rows);

/* ---- restoring the terminal from anywhere (restore.c) ----------------------
 * While the view is open, what giving the terminal back takes is kept here,
 * built in advance, so that a signal handler or the watchdog thread can restore
 * it with write(2) and tcsetattr alone (no allocation, no lock): the escape
 * sequences, the saved termios, and the captured output to write out. */

/* Arms the restore: write `sequence` to `output_fd`; if `has_mode`, set `mode` on `input_fd`. */
void cdt_restore_arm(int output_fd, int input_fd, const struct termios *mode, int has_mode,
                     const char *sequence, size_t length);
/* Also copy what was captured in `captured_fd` (from offset 0) to `target_fd` (-1: none). */
void cdt_restore_capture(int index, int captured_fd, int target_fd);
/* The view gave the terminal back by itself: nothing to restore. */
void cdt_restore_disarm(void);
/* Restores once (later calls do nothing); async-signal-safe. Returns nonzero
 * when it restored (the view was open). */
int cdt_restore_now(void);
/* Gives the terminal back for a stop (Ctrl-Z) that the view does not see coming:
 * the sequences and the termios, but the view stays open (the captured output
 * stays captured) until the view takes the terminal again (cdt_restore_arm).
 * Async-signal-safe; nonzero when it gave the terminal back. */
int cdt_suspend_now(void);
/* Nonzero while the terminal is given back by cdt_suspend_now. */
int cdt_suspended(void);

/* A memory file of `limit` bytes that cannot grow (writes past its end fail),
 * close-on-exec; -1 when the system has none. */
int cdt_bounded_capture(size_t limit);
/* Whether a write to stdout or stderr failed since the last call (a capture was
 * full); clears the streams' error flags. */
int cdt_take_stream_errors(void);

/* ---- standard output (output.c) --------------------------------------------
 * What cdscript writes to standard output (plain view lines, Lua's print,
 * listings, test reports) goes through stdio's stdout, so it keeps one order
 * with the script's io.write, and is flushed per write, so that a failure is
 * seen with its errno: a reader that went away (EPIPE; SIGPIPE is caught and
 * does nothing) or a write error (ENOSPC, EIO). The first failure is kept with
 * what was being written, later writes are dropped, and the failure action
 * runs once (a run ends). While the view captures stdout in a bounded memory
 * file, a full capture is the view's to report, not a failure. */
typedef void (*cdt_output_failure_fn)(int error);
/* The failure's errno when stdio kept only its error flag (no errno is negative). */
#define CDT_OUTPUT_UNKNOWN_ERROR (-1)
/* Writes and flushes; 0, or the errno of the (first) failure. `what` names
 * what was written ("print", "the listing"), for the message. */
int cdt_output_write(const char *bytes, size_t count, const char *what);
/* Flushes stdout and notices writes that others made and that failed (the
 * script's io.write): 0, or the errno of the (first) failure. */
int cdt_output_flush(const char *what);
/* Records a failure seen elsewhere (the terminal the view draws on). */
void cdt_output_fail(int error, const char *what);
/* The errno of the first failure, or 0; and what was being written. */
int cdt_output_failure(void);
const char *cdt_output_failure_what(void);
/* What to do on the first failure (called once, on the writing thread). */
void cdt_output_on_failure(cdt_output_failure_fn action);
#endif
