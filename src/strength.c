/* The weakened move choice: node budget, error size and the seeded pick. */
#include "strength.h"

#include <math.h>

#include "random.h"

#define STRENGTH_NODES_AT_MIN 64       /* a search of a few plies */
#define STRENGTH_ELO_PER_DOUBLING 125  /* each doubling of the node budget buys this much */
#define STRENGTH_ERROR_AT_MIN_CP 250   /* the error shrinks linearly to none at the top Elo */

static int clamp_elo(int elo) { return elo < STRENGTH_ELO_MIN ? STRENGTH_ELO_MIN : elo > STRENGTH_ELO_MAX ? STRENGTH_ELO_MAX : elo; }

uint64_t strength_node_limit(int elo) {
    double doublings = (double)(clamp_elo(elo) - STRENGTH_ELO_MIN) / STRENGTH_ELO_PER_DOUBLING;
    return (uint64_t)(STRENGTH_NODES_AT_MIN * pow(2.0, doublings));
}

int strength_error_cp(int elo) {
    return STRENGTH_ERROR_AT_MIN_CP * (STRENGTH_ELO_MAX - clamp_elo(elo)) / (STRENGTH_ELO_MAX - STRENGTH_ELO_MIN);
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
