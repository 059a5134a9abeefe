#include "CTerminal.h"
#include <sys/ioctl.h>

int cdt_window_size(int fd, int *columns, int *rows) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_col == 0 || size.ws_row == 0) return -1;
    *columns = size.ws_col;
    *rows = size.ws_row;
    return 0;
}
