/* splitmix64: the project's one small random-number generator. A state advanced by a fixed
 * odd constant and a strong mix of it gives a well-spread sequence from any seed (zero
 * included), identical on every platform, which deterministic keys, nets and games rely on. */
#ifndef SQUALL_RANDOM_H
#define SQUALL_RANDOM_H

#include <stdint.h>

/* The mix alone: a well-spread 64-bit hash of one 64-bit value (keys, splits). */
static inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint64_t splitmix64(uint64_t *state) { return mix64(*state += 0x9E3779B97F4A7C15ULL); }

#endif
