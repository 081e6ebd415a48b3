/* Large-table allocation; see memory.h. */
#define _DEFAULT_SOURCE /* madvise */
#include "memory.h"

#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define HUGE_PAGE_BYTES ((size_t)2 << 20)

void *memory_alloc_large(size_t bytes) {
    size_t align = bytes >= HUGE_PAGE_BYTES ? HUGE_PAGE_BYTES : 64;
    size_t size = (bytes + align - 1) & ~(align - 1);
    void *block = NULL;
    if (size == 0 || posix_memalign(&block, align, size) != 0) return NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    /* a hint: where THP is "madvise" only, this is what turns it on; failure changes nothing */
    if (align == HUGE_PAGE_BYTES) madvise(block, size, MADV_HUGEPAGE);
#endif
    memset(block, 0, size);
    return block;
}

void memory_free_large(void *block) { free(block); }
