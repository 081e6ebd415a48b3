/* Large-table allocation; see memory.h. */
#define _DEFAULT_SOURCE /* madvise, MAP_ANONYMOUS */
#include "memory.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define HUGE_PAGE_BYTES ((size_t)2 << 20)

/* Under AddressSanitizer the big tables come from its allocator like everything else, so its
 * limits (max_allocation_size_mb, the fuzzer's stand-in for a machine without the memory)
 * refuse a Hash it cannot give, instead of a lazy mapping accepting it and the first searches
 * filling it past the RSS limit. */
#if defined(__SANITIZE_ADDRESS__)
#define LARGE_TABLES_FROM_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LARGE_TABLES_FROM_MALLOC 1
#endif
#endif

static size_t alignment_for(size_t bytes) { return bytes >= HUGE_PAGE_BYTES ? HUGE_PAGE_BYTES : 64; }

/* The block's size rounded up to its alignment; 0 when that overflows. */
static size_t rounded_size(size_t bytes) {
    size_t align = alignment_for(bytes);
    return bytes > SIZE_MAX - 2 * align ? 0 : (bytes + align - 1) & ~(align - 1);
}

#if defined(__linux__) && !defined(LARGE_TABLES_FROM_MALLOC)

void *memory_alloc_large(size_t bytes) {
    size_t align = alignment_for(bytes), size = rounded_size(bytes);
    if (size == 0) return NULL;
    /* mmap gives page alignment; for huge pages map one alignment more and trim both ends */
    size_t mapped = align > 64 ? size + align : size;
    uint8_t *base = mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) return NULL;
    if (mapped == size) return base;
    uint8_t *block = (uint8_t *)(((uintptr_t)base + align - 1) & ~(uintptr_t)(align - 1));
    if (block > base) munmap(base, (size_t)(block - base));
    size_t tail = (size_t)(base + mapped - (block + size));
    if (tail) munmap(block + size, tail);
#if defined(MADV_HUGEPAGE)
    /* a hint: where THP is "madvise" only, this is what turns it on; failure changes nothing */
    madvise(block, size, MADV_HUGEPAGE);
#endif
    return block;
}

void memory_free_large(void *block, size_t bytes) {
    if (block) munmap(block, rounded_size(bytes));
}

void memory_zero_large(void *block, size_t bytes) {
    /* a private anonymous mapping reads as zero pages after MADV_DONTNEED */
    if (block && madvise(block, rounded_size(bytes), MADV_DONTNEED) != 0) memset(block, 0, bytes);
}

#elif defined(LARGE_TABLES_FROM_MALLOC)

/* calloc, whose large blocks the sanitizer maps fresh and so need no clearing, aligned by hand:
 * the pointer calloc gave is kept just below the aligned block. */
void *memory_alloc_large(size_t bytes) {
    size_t align = alignment_for(bytes), size = rounded_size(bytes);
    if (size == 0 || size > SIZE_MAX - align - sizeof(void *)) return NULL;
    uint8_t *base = calloc(1, size + align + sizeof(void *));
    if (!base) return NULL;
    uint8_t *block = (uint8_t *)(((uintptr_t)base + sizeof(void *) + align - 1) & ~(uintptr_t)(align - 1));
    memcpy(block - sizeof(void *), &base, sizeof base);
    return block;
}

void memory_free_large(void *block, size_t bytes) {
    (void)bytes;
    if (!block) return;
    void *base;
    memcpy(&base, (uint8_t *)block - sizeof base, sizeof base);
    free(base);
}

void memory_zero_large(void *block, size_t bytes) {
    if (block) memset(block, 0, bytes);
}

#else

void *memory_alloc_large(size_t bytes) {
    size_t align = alignment_for(bytes), size = rounded_size(bytes);
    void *block = NULL;
    if (size == 0 || posix_memalign(&block, align, size) != 0) return NULL;
    memset(block, 0, size);
    return block;
}

void memory_free_large(void *block, size_t bytes) {
    (void)bytes;
    free(block);
}

void memory_zero_large(void *block, size_t bytes) {
    if (block) memset(block, 0, bytes);
}

#endif
