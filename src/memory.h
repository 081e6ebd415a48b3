/* Allocation of large tables (transposition table, net weights) with transparent huge pages
 * where the OS offers them: random reads across many megabytes otherwise spend much of their
 * time on TLB misses. On Linux (except under AddressSanitizer, see memory.c) the tables are
 * anonymous mappings: the kernel hands out zero
 * pages as they are first touched, so a fresh or cleared table costs nothing until it is used
 * (engine start-up, ucinewgame), while the size itself is still reserved, and refused, at once. */
#ifndef SQUALL_MEMORY_H
#define SQUALL_MEMORY_H

#include <stddef.h>

/* Zero-filled, 64-byte aligned (2 MiB aligned when large); NULL when the size cannot be had. */
void *memory_alloc_large(size_t bytes);
/* Frees a block from memory_alloc_large of that many bytes; NULL is fine. */
void memory_free_large(void *block, size_t bytes);
/* Makes a block from memory_alloc_large all zero again, without touching its pages on Linux. */
void memory_zero_large(void *block, size_t bytes);

#endif
