#include "CLinux.h"
#include <malloc.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define HUGE_PAGE ((uintptr_t)2 << 20)

/* Address space, not memory, until a page is touched. */
#define RESERVE (64 << 20)

int cdl_heap_prefer_huge_pages(void) {
    /* Blocks up to 32 MiB (a million-entry queue) come from the heap too, not from
     * mmaps of their own that the advice below would miss. */
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    /* The heap grows by the reserve beyond what is asked, and gives nothing back
     * below twice that. */
    mallopt(M_TOP_PAD, RESERVE);
    mallopt(M_TRIM_THRESHOLD, 2 * RESERVE);
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
