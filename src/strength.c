/* The weakened move choice: node budget, error size and the seeded pick. */
#include "strength.h"

#include <math.h>

#include "random.h"

/* Fitted to games at 10+0.1 against Fairy-Max, Phalanx and Glaurung (docs/protocol.md,
 * Limited strength): the first guess (64 nodes at 1000, 125 Elo per doubling, 250 cp
 * shrinking to none at 2600) played 1900 as about 1760 and 2400 as about 2460, and
 * 2600 far above it, so the budget now grows more slowly and the error never quite
 * vanishes inside the range. */
#define STRENGTH_NODES_AT_MIN 430      /* a search of a few plies */
#define STRENGTH_ELO_PER_DOUBLING 180  /* each doubling of the node budget buys this much */
#define STRENGTH_ERROR_AT_MIN_CP 195   /* the error shrinks linearly from here ... */
#define STRENGTH_ERROR_ZERO_ELO 2800   /* ... to none at this Elo, above the range */

static int clamp_elo(int elo) { return elo < STRENGTH_ELO_MIN ? STRENGTH_ELO_MIN : elo > STRENGTH_ELO_MAX ? STRENGTH_ELO_MAX : elo; }

uint64_t strength_node_limit(int elo) {
    double doublings = (double)(clamp_elo(elo) - STRENGTH_ELO_MIN) / STRENGTH_ELO_PER_DOUBLING;
    return (uint64_t)(STRENGTH_NODES_AT_MIN * pow(2.0, doublings));
}

int strength_error_cp(int elo) {
    return STRENGTH_ERROR_AT_MIN_CP * (STRENGTH_ERROR_ZERO_ELO - clamp_elo(elo)) / (STRENGTH_ERROR_ZERO_ELO - STRENGTH_ELO_MIN);
}

/* A standard normal deviate (Box-Muller). */
static double normal_random(uint64_t *state) {
    double u1 = ((double)(splitmix64(state) >> 11) + 1.0) / 9007199254740993.0; /* (0, 1] */
    double u2 = (double)(splitmix64(state) >> 11) / 9007199254740992.0;         /* [0, 1) */
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

int strength_pick(const int *scores, int count, int elo, uint64_t seed) {
    double spread = strength_error_cp(elo), best_value = -INFINITY;
    int best = 0;
    uint64_t state = seed;
    for (int i = 0; i < count; i++) {
        double value = scores[i] + spread * normal_random(&state);
        if (value > best_value) best_value = value, best = i;
    }
    return best;
}
