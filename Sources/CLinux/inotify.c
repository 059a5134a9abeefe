#include "CLinux.h"
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

struct cdl_inotify_reader {
    int fd;
    ssize_t length; /* bytes the last read(2) put in buffer */
    ssize_t offset; /* where the next record in buffer starts */
    /* Room for many records, and at least for one with the longest name (NAME_MAX + 1). */
    _Alignas(struct inotify_event) char buffer[4096];
};

cdl_inotify_reader *cdl_inotify_reader_open(int fd) {
    cdl_inotify_reader *reader = malloc(sizeof *reader);
    if (reader != NULL) {
        reader->fd = fd;
        reader->length = 0;
        reader->offset = 0;
    }
    return reader;
}

void cdl_inotify_reader_close(cdl_inotify_reader *reader) {
    free(reader);
}

int cdl_inotify_next(cdl_inotify_reader *reader, cdl_inotify_event *event) {
    if (reader == NULL) return 0;
    while (reader->offset + (ssize_t)sizeof(struct inotify_event) > reader->length) {
        ssize_t count = read(reader->fd, reader->buffer, sizeof reader->buffer);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) return 0;
        reader->length = count;
        reader->offset = 0;
    }
    const struct inotify_event *record = (const struct inotify_event *)(reader->buffer + reader->offset);
    reader->offset += (ssize_t)(sizeof *record + record->len);
    event->watch = record->wd;
    event->mask = record->mask;
    event->name = record->len > 0 ? record->name : NULL;
    return 1;
}
