#include "CLinux.h"
#include <dirent.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define HUGE_PAGE ((uintptr_t)2 << 20)

/* Address space, not memory, until a page is touched. */
#define RESERVE (64 << 20)

/* virtio's device id of a memory balloon, and its feature bit "free page reporting". */
#define VIRTIO_ID_BALLOON 5
#define VIRTIO_BALLOON_F_REPORTING 5

/* The first `size - 1` bytes of `dir/name` (sysfs files are small), NUL-terminated;
 * -1 when there is no such file. */
static ssize_t read_small(const char *dir, const char *name, char *buffer, size_t size) {
    char path[512];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path) return -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, buffer, size - 1);
    close(fd);
    if (n < 0) return -1;
    buffer[n] = '\0';
    return n;
}

/* The page order of a huge page: 9 for 2 MiB of 4 KiB pages. */
static long huge_page_order(void) {
    long page = sysconf(_SC_PAGESIZE);
    long order = 0;
    while (page > 0 && ((uintptr_t)page << order) < HUGE_PAGE) order++;
    return order;
}

int cdl_host_reclaims_huge_pages(const char *sysfs) {
    char dir[256];
    if (snprintf(dir, sizeof dir, "%s/bus/virtio/devices", sysfs) >= (int)sizeof dir) return 0;
    DIR *devices = opendir(dir);
    if (devices == NULL) return 0;
    int reporting = 0;
    struct dirent *entry;
    while (!reporting && (entry = readdir(devices)) != NULL) {
        if (entry->d_name[0] == '.') continue;
        char device[320], text[256];
        snprintf(device, sizeof device, "%s/%s", dir, entry->d_name);
        if (read_small(device, "device", text, sizeof text) < 0 || strtol(text, NULL, 0) != VIRTIO_ID_BALLOON) continue;
        /* One character per feature bit, bit 0 first: "0110010...". */
        if (read_small(device, "features", text, sizeof text) > VIRTIO_BALLOON_F_REPORTING)
            reporting = text[VIRTIO_BALLOON_F_REPORTING] == '1';
    }
    closedir(devices);
    if (!reporting) return 0;
    /* Free blocks of this order and above are reported. Without the parameter the
     * kernel reports from its pageblock order, a huge page's on x86-64. Reported only
     * from above a huge page's order, blocks of exactly that order stay the guest's
     * and a huge page is taken from them first. */
    char text[32];
    char module[256];
    snprintf(module, sizeof module, "%s/module/page_reporting/parameters", sysfs);
    if (read_small(module, "page_reporting_order", text, sizeof text) > 0 && strtol(text, NULL, 10) > huge_page_order())
        return 0;
    return 1;
}

int cdl_heap_prefer_huge_pages(void) {
    /* Blocks up to 32 MiB (a million-entry queue) come from the heap too, not from
     * mmaps of their own that the advice below would miss. */
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    /* The heap grows by the reserve beyond what is asked, and gives nothing back
     * below twice that. */
    mallopt(M_TOP_PAD, RESERVE);
    mallopt(M_TRIM_THRESHOLD, 2 * RESERVE);
    /* A free 2 MiB block the host has taken back costs the host's own faults on its
     * first touch, so that a run's CPU would depend on what ran before it (the 100k
     * workload's kernel time: 0.012 s after a run that freed huge pages moments
     * before, 0.072 s after one that did not). Small pages come from memory the guest
     * kept (docs/performance.md, "tenth pass"). */
    if (cdl_host_reclaims_huge_pages("/sys")) return 0;
    /* Grows the heap now, by the pad, so that the reserve exists to be advised:
     * only what the break moved over, which is the heap's and untouched. */
    uintptr_t before = (uintptr_t)sbrk(0);
    /* volatile: a block only freed again is a pair the compiler may drop. */
    char *volatile probe = malloc(1 << 20);
    if (probe == NULL) return -1;
    uintptr_t after = (uintptr_t)sbrk(0);
    free(probe);
    uintptr_t start = (before + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    uintptr_t end = after & ~(HUGE_PAGE - 1);
    if (before == (uintptr_t)-1 || end <= start) return 0;
    return madvise((void *)start, end - start, MADV_HUGEPAGE);
}

int cdl_heap_give_back_free(void) {
    return malloc_trim(RESERVE);
}
