/* Neuron order for sparsity: see nnue_order.h. */
#include "nnue_order.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "train_record.h"

#define GROUP 4 /* neurons per input group of the first hidden layer */
#define NNUE_ORDER_SWEEPS 20 /* passes of the local search at most */

/* Zero sets: bit s of zero[j * words + s / 64] set when neuron j's activation is 0 in half-sample s
 * (each sample gives two: its side to move's half and the other's). */
typedef struct {
    uint64_t *zero;
    size_t words, halves;
} ZeroSets;

/* The byte the forward pass feeds L1 is 0 exactly when this holds (see nnue.h: activations). */
static bool activation_is_zero(const NnueNet *net, int16_t acc) {
    int c = acc >> net->acc_shift;
    c = c < 0 ? 0 : c > 127 ? 127 : c;
    return net->activation == NNUE_ACTIVATION_SCRELU ? (c * c) >> NNUE_SCRELU_SHIFT == 0 : c == 0;
}

static bool zero_sets_build(ZeroSets *z, const NnueNet *net, const TrainSample *samples, size_t count) {
    z->halves = 2 * count;
    z->words = (z->halves + 63) / 64;
    z->zero = calloc((size_t)NNUE_L1 * z->words, sizeof *z->zero);
    if (!z->zero) return false;
    int32_t sum[NNUE_L1];
    for (size_t i = 0; i < count; i++)
        for (int h = 0; h < 2; h++) {
            for (int j = 0; j < NNUE_L1; j++) sum[j] = net->ft_biases[j];
            for (int k = 0; k < samples[i].count; k++) {
                const int16_t *row = net->ft_weights[samples[i].feat[h][k]];
                for (int j = 0; j < NNUE_L1; j++) sum[j] += row[j];
            }
            const size_t s = 2 * i + (size_t)h;
            /* the accumulator wraps in int16; so does this cast */
            for (int j = 0; j < NNUE_L1; j++)
                if (activation_is_zero(net, (int16_t)(uint16_t)sum[j])) z->zero[(size_t)j * z->words + s / 64] |= 1ULL << (s % 64);
        }
    return true;
}

/* Half-samples in which every neuron of set (bits, one word array) is zero. */
static long popcount_words(const uint64_t *bits, size_t words) {
    long n = 0;
    for (size_t w = 0; w < words; w++) n += __builtin_popcountll(bits[w]);
    return n;
}

/* Half-samples in which `have` (a group's common zero set) and neuron j are zero together. */
static long common_zero(const ZeroSets *z, const uint64_t *have, int j) {
    const uint64_t *b = z->zero + (size_t)j * z->words;
    long n = 0;
    for (size_t w = 0; w < z->words; w++) n += __builtin_popcountll(have[w] & b[w]);
    return n;
}

/* Without VNNI the kernel adds the two products of each input pair (neurons 2i, 2i+1) in int16,
 * so a group with a pair whose weights of one sign exceed 127 * cap <= INT16_MAX / 2 for some
 * output is summed alone, the slower way (simd.h: VEC_PAIR_LIMIT). This is how far neurons a and
 * b paired go beyond the cap. */
static long pair_excess(const NnueNet *net, int a, int b) {
    const long cap = (INT16_MAX / 2) / 127;
    long excess = 0;
    for (int o = 0; o < NNUE_L2; o++)
        for (int h = 0; h < 2; h++) {
            int wa = net->l1_weights[o][h * NNUE_L1 + a], wb = net->l1_weights[o][h * NNUE_L1 + b];
            long pos = (wa > 0 ? wa : 0) + (wb > 0 ? wb : 0), neg = (wa < 0 ? -wa : 0) + (wb < 0 ? -wb : 0);
            excess += (pos > cap ? pos - cap : 0) + (neg > cap ? neg - cap : 0);
        }
    return excess;
}

/* Of the three ways to split a group of four into two pairs, takes the one going least beyond
 * the pair cap (the group's zero counts do not depend on it). */
static void pair_group(const NnueNet *net, int *g) {
    static const int splits[3][4] = {{0, 1, 2, 3}, {0, 2, 1, 3}, {0, 3, 1, 2}};
    int best = 0;
    long best_excess = -1;
    for (int s = 0; s < 3; s++) {
        const int *p = splits[s];
        long e = pair_excess(net, g[p[0]], g[p[1]]) + pair_excess(net, g[p[2]], g[p[3]]);
        if (best_excess < 0 || e < best_excess) best_excess = e, best = s;
    }
    int copy[GROUP];
    for (int k = 0; k < GROUP; k++) copy[k] = g[splits[best][k]];
    memcpy(g, copy, sizeof copy);
}

/* The local search's view of group g: others[(4g + k) * words ...] is the common zero set of the
 * group's members but its k-th (so a swap is scored with two ANDs), zeros[g] the half-samples in
 * which the whole group is zero. */
static void group_update(const ZeroSets *z, const int *order, uint64_t *others, long *zeros, int g) {
    const size_t words = z->words;
    for (int k = 0; k < GROUP; k++) {
        uint64_t *o = others + (size_t)(GROUP * g + k) * words;
        for (size_t w = 0; w < words; w++) o[w] = ~0ULL;
        for (int m = 0; m < GROUP; m++)
            if (m != k)
                for (size_t w = 0; w < words; w++) o[w] &= z->zero[(size_t)order[GROUP * g + m] * words + w];
    }
    zeros[g] = common_zero(z, others + (size_t)GROUP * g * words, order[GROUP * g]);
}

/* Local search after the greedy grouping, whose last groups are made of what is left: swaps two
 * neurons of different groups whenever that makes more all-zero groups over the samples, until no
 * swap does (or NNUE_ORDER_SWEEPS passes). false when out of memory. */
static bool refine_groups(const ZeroSets *z, int *order) {
    enum { GROUPS = NNUE_L1 / GROUP };
    uint64_t *others = malloc((size_t)NNUE_L1 * z->words * sizeof *others);
    long *zeros = malloc(GROUPS * sizeof *zeros);
    if (!others || !zeros) return free(others), free(zeros), false;
    for (int g = 0; g < GROUPS; g++) group_update(z, order, others, zeros, g);
    for (int sweep = 0; sweep < NNUE_ORDER_SWEEPS; sweep++) {
        bool improved = false;
        for (int a = 0; a < NNUE_L1; a++)
            for (int b = a + GROUP - a % GROUP; b < NNUE_L1; b++) { /* every neuron of a later group */
                const int ga = a / GROUP, gb = b / GROUP;
                long after = common_zero(z, others + (size_t)a * z->words, order[b])
                           + common_zero(z, others + (size_t)b * z->words, order[a]);
                if (after <= zeros[ga] + zeros[gb]) continue;
                int t = order[a];
                order[a] = order[b], order[b] = t;
                group_update(z, order, others, zeros, ga);
                group_update(z, order, others, zeros, gb);
                improved = true;
            }
        if (!improved) break;
    }
    free(others);
    free(zeros);
    return true;
}

bool nnue_sparsity_order(const NnueNet *net, const TrainSample *samples, size_t count, int *order) {
    ZeroSets z;
    if (!zero_sets_build(&z, net, samples, count)) return false;
    uint64_t *have = malloc(z.words * sizeof *have);
    if (!have) return free(z.zero), false;
    bool used[NNUE_L1] = {false};
    int placed = 0;
    while (placed < NNUE_L1) {
        /* the group's first neuron: the one most often zero among those left */
        int first = -1;
        long best = -1;
        for (int j = 0; j < NNUE_L1; j++) {
            long n = used[j] ? -1 : popcount_words(z.zero + (size_t)j * z.words, z.words);
            if (n > best) best = n, first = j;
        }
        used[first] = true;
        order[placed++] = first;
        memcpy(have, z.zero + (size_t)first * z.words, z.words * sizeof *have);
        for (int k = 1; k < GROUP; k++) {
            int pick = -1;
            best = -1;
            for (int j = 0; j < NNUE_L1; j++) {
                long n = used[j] ? -1 : common_zero(&z, have, j);
                if (n > best) best = n, pick = j;
            }
            used[pick] = true;
            order[placed++] = pick;
            const uint64_t *b = z.zero + (size_t)pick * z.words;
            for (size_t w = 0; w < z.words; w++) have[w] &= b[w];
        }
    }
    bool ok = refine_groups(&z, order);
    for (int g = 0; ok && g < NNUE_L1; g += GROUP) pair_group(net, order + g);
    free(have);
    free(z.zero);
    return ok;
}

double nnue_zero_group_share(const NnueNet *net, const TrainSample *samples, size_t count) {
    ZeroSets z;
    if (!count || !zero_sets_build(&z, net, samples, count)) return 0;
    uint64_t *have = malloc(z.words * sizeof *have);
    long zero_groups = 0;
    for (int g = 0; have && g < NNUE_L1; g += GROUP) {
        memcpy(have, z.zero + (size_t)g * z.words, z.words * sizeof *have);
        for (int k = 1; k < GROUP; k++)
            for (size_t w = 0; w < z.words; w++) have[w] &= z.zero[(size_t)(g + k) * z.words + w];
        zero_groups += popcount_words(have, z.words);
    }
    free(have);
    free(z.zero);
    return (double)zero_groups / ((double)z.halves * (NNUE_L1 / GROUP));
}

void nnue_net_reorder(NnueNet *net, const int *order) {
    int16_t row[NNUE_L1];
    for (int f = 0; f < NNUE_INPUTS; f++) {
        for (int j = 0; j < NNUE_L1; j++) row[j] = net->ft_weights[f][order[j]];
        memcpy(net->ft_weights[f], row, sizeof row);
    }
    for (int j = 0; j < NNUE_L1; j++) row[j] = net->ft_biases[order[j]];
    memcpy(net->ft_biases, row, sizeof row);
    int8_t in[2 * NNUE_L1];
    for (int o = 0; o < NNUE_L2; o++) {
        for (int h = 0; h < 2; h++)
            for (int j = 0; j < NNUE_L1; j++) in[h * NNUE_L1 + j] = net->l1_weights[o][h * NNUE_L1 + order[j]];
        memcpy(net->l1_weights[o], in, sizeof in);
    }
}

/* Up to `limit` samples spread over the whole set (one record in every count / n); NULL when out
 * of memory, else the count in *got. */
static TrainSample *spread_samples(const TrainData *data, size_t limit, size_t *got) {
    size_t n = data->count < limit ? data->count : limit;
    TrainSample *samples = calloc(n ? n : 1, sizeof *samples);
    *got = 0;
    for (size_t i = 0; samples && i < n; i++)
        if (train_sample_from_record(&data->records[i * data->count / n], &samples[*got])) (*got)++;
    return samples;
}

double nnue_zero_group_share_on_data(const NnueNet *net, const TrainData *data, size_t limit) {
    size_t got;
    TrainSample *samples = spread_samples(data, limit, &got);
    if (!samples) return -1;
    double share = nnue_zero_group_share(net, samples, got);
    free(samples);
    return share;
}

bool nnue_reorder_for_data(NnueNet *net, const TrainData *data, size_t limit, double *before, double *after) {
    size_t got;
    TrainSample *samples = spread_samples(data, limit, &got);
    if (!samples) return false;
    if (before) *before = nnue_zero_group_share(net, samples, got);
    int order[NNUE_L1];
    bool ok = got == 0 || nnue_sparsity_order(net, samples, got, order);
    if (ok && got) nnue_net_reorder(net, order);
    if (ok && after) *after = nnue_zero_group_share(net, samples, got);
    free(samples);
    return ok;
}

/* ---------------- squall net-reorder ---------------- */

void net_reorder_usage(FILE *out) {
    fprintf(out, "usage: squall net-reorder --net IN --data FILE[,FILE] --out OUT [--positions N]\n");
}

static int reorder_usage(const char *why) {
    fprintf(stderr, "net-reorder: %s\n", why);
    net_reorder_usage(stderr);
    return 2;
}

int net_reorder_main(int argc, char **argv) {
    const char *in = NULL, *data_list = NULL, *out = NULL;
    long positions = NNUE_ORDER_DEFAULT_POSITIONS;
    for (int i = 1; i < argc; i += 2) { /* every option takes a value */
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!value) return reorder_usage("an option lacks its value");
        if (!strcmp(argv[i], "--net")) in = value;
        else if (!strcmp(argv[i], "--data")) data_list = value;
        else if (!strcmp(argv[i], "--out")) out = value;
        else if (!strcmp(argv[i], "--positions")) {
            char *end;
            errno = 0;
            positions = strtol(value, &end, 10);
            if (errno || *end || positions < 1 || positions > 10000000) return reorder_usage("--positions takes 1..10000000");
        } else return reorder_usage("unknown argument");
    }
    if (!in || !data_list || !out) return reorder_usage("--net, --data and --out are required");
    char err[256];
    if (!nnue_load_file(in, err, sizeof err)) return fprintf(stderr, "net-reorder: %s\n", err), 1;
    NnueNet *net = nnue_net_alloc();
    TrainData data;
    if (!net) return fprintf(stderr, "net-reorder: out of memory\n"), 1;
    memcpy(net, nnue_current_net(), sizeof *net);
    if (!train_data_load(&data, data_list, 0, NULL, err, sizeof err)) {
        nnue_net_free(net);
        return fprintf(stderr, "net-reorder: %s\n", err), 1;
    }
    double before = 0, after = 0;
    bool ok = nnue_reorder_for_data(net, &data, (size_t)positions, &before, &after);
    if (!ok) snprintf(err, sizeof err, "out of memory");
    if (ok) ok = nnue_net_save(net, out, err, sizeof err);
    if (ok)
        printf("net-reorder: %zu positions, all-zero input groups %.1f%% -> %.1f%%; wrote %s\n",
               data.count < (size_t)positions ? data.count : (size_t)positions, 100 * before, 100 * after, out);
    else fprintf(stderr, "net-reorder: %s\n", err);
    train_data_free(&data);
    nnue_net_free(net);
    return ok ? 0 : 1;
}
