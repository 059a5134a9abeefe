#ifndef CTERMINAL_H
#define CTERMINAL_H
/* Terminal calls Swift cannot make directly: ioctl is variadic. */

/* Stores the window size of the terminal on `fd`; returns 0, or -1 when `fd` is
 * not a terminal or reports no size. */
int cdt_window_size(int fd, int *columns, int *rows);
#endif
