/* Allocation of large tables (transposition table, net weights) with transparent huge pages
 * where the OS offers them: random reads across many megabytes otherwise spend much of their
 * time on TLB misses. */
#ifndef SQUALL_MEMORY_H
#define SQUALL_MEMORY_H

#include <stddef.h>

/* Zero-filled, 64-byte aligned (2 MiB aligned when large); NULL when out of memory. */
void *memory_alloc_large(size_t bytes);
/* Frees a block from memory_alloc_large; NULL is fine. */
void memory_free_large(void *block);

#endif
