/* Deterministic nets without training: random nets for tests and timing, and a PSQT-only net
 * whose output is a hand-checkable material + piece-square sum. Also `squall net-init`. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "nnue.h"
#include "random.h"

/* Uniform integer in [lo, hi]. */
static int random_range(uint64_t *state, int lo, int hi) {
    return lo + (int)(splitmix64(state) % (uint64_t)(hi - lo + 1));
}

/* One output bucket's L2 and output layers. */
static void random_stack(NnueNet *net, int b, uint64_t *s) {
    for (int o = 0; o < NNUE_L3; o++) {
        for (int i = 0; i < NNUE_L2; i++) net->l2_weights[b][o][i] = (int8_t)random_range(s, -24, 24);
        net->l2_biases[b][o] = random_range(s, -2000, 4000);
    }
    for (int i = 0; i < NNUE_L3; i++) net->out_weights[b][i] = (int8_t)random_range(s, -40, 40);
    net->out_bias[b] = random_range(s, -1000, 1000);
}

void nnue_net_init_random(NnueNet *net, uint64_t seed) { nnue_net_init_random_buckets(net, seed, 1); }

void nnue_net_init_random_buckets(NnueNet *net, uint64_t seed, int buckets) {
    uint64_t s = seed ^ 0x5155414C4C4E4E55ULL; /* "SQUALLNNU": different seeds, different streams */
    memset(net, 0, sizeof *net);
    net->output_buckets = buckets;
    net->acc_shift = 0;
    net->hidden_shift = 6;
    net->output_divisor = 16;
    /* Ranges chosen so every layer's activations spread over [0,127] instead of all clipping. */
    for (int f = 0; f < NNUE_INPUTS; f++) {
        for (int i = 0; i < NNUE_L1; i++) net->ft_weights[f][i] = (int16_t)random_range(&s, -24, 24);
        net->psqt_weights[f] = random_range(&s, -2000, 2000);
    }
    for (int i = 0; i < NNUE_L1; i++) net->ft_biases[i] = (int16_t)random_range(&s, -16, 64);
    for (int o = 0; o < NNUE_L2; o++) {
        for (int i = 0; i < 2 * NNUE_L1; i++) {
            /* a few extreme weights so the kernels meet the int8 limits */
            int r = random_range(&s, 0, 63);
            net->l1_weights[o][i] = (int8_t)(r == 0 ? -128 : r == 1 ? 127 : random_range(&s, -8, 8));
        }
        net->l1_biases[o] = random_range(&s, -2000, 2000);
    }
    random_stack(net, 0, &s);
    for (int b = 1; b < buckets; b++) random_stack(net, b, &s); /* after all else: bucket 0 is the one-bucket net */
    snprintf(net->description, sizeof net->description, "random net-init seed %" PRIu64 "%s", seed,
             buckets > 1 ? ", 8 output buckets" : "");
}

int nnue_classical_piece_value(int type, int rel_sq) {
    static const int material[PIECE_TYPE_NB] = {100, 320, 330, 500, 900, 0};
    int r = rel_sq >> 3, f = rel_sq & 7, v = material[type];
    if (type == PAWN) v += 5 * (r - 1);                                   /* +5 per step from the 2nd rank */
    if (type == KNIGHT && (r == 0 || r == 7 || f == 0 || f == 7)) v -= 20; /* knight on the rim */
    if (type == ROOK && r == 6) v += 10;                                  /* rook on the 7th */
    return v;
}

void nnue_net_init_psqt_classical(NnueNet *net) {
    memset(net, 0, sizeof *net);
    net->output_buckets = 1;
    net->acc_shift = 0;
    net->hidden_shift = 6;
    net->output_divisor = 16;
    /* Each feature carries +value for own pieces, -value for enemy pieces. The oriented square
     * is the owner-relative square for own pieces (all values are file-symmetric, so the file
     * mirror does not matter) and its rank flip for enemy pieces. Kings share one plane, so they
     * cannot be told apart and are worth 0. Hidden weights and biases stay 0. */
    for (int b = 0; b < NNUE_KING_BUCKETS; b++)
        for (int plane = 0; plane < 10; plane++)
            for (int sq = 0; sq < 64; sq++) {
                int type = plane / 2;
                bool own = (plane & 1) == 0;
                int v = own ? nnue_classical_piece_value(type, sq) : -nnue_classical_piece_value(type, sq ^ 56);
                net->psqt_weights[b * NNUE_PLANES + plane * 64 + sq] = v * net->output_divisor;
            }
    snprintf(net->description, sizeof net->description, "psqt-classical net-init");
}

void net_init_usage(FILE *out) {
    fprintf(out, "usage: squall net-init --seed S --out FILE [--psqt-classical] [--output-buckets 1|%d] [--screlu] "
                    "[--description TEXT]\n", NNUE_MAX_OUTPUT_BUCKETS);
}

static int usage(void) {
    net_init_usage(stderr);
    return 2;
}

int net_init_main(int argc, char **argv) {
    uint64_t seed = 1;
    const char *out = NULL, *description = NULL;
    bool classical = false, screlu = false;
    int buckets = 1;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "net-init")) continue; /* tolerate being passed the subcommand itself */
        if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            char *end;
            errno = 0;
            seed = strtoull(argv[++i], &end, 0);
            if (errno || *end || argv[i][0] == '-') {
                fprintf(stderr, "net-init: bad seed '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "--description") && i + 1 < argc) description = argv[++i];
        else if (!strcmp(argv[i], "--psqt-classical")) classical = true;
        else if (!strcmp(argv[i], "--screlu")) screlu = true;
        else if (!strcmp(argv[i], "--output-buckets") && i + 1 < argc) {
            const char *v = argv[++i];
            buckets = !strcmp(v, "1") ? 1 : !strcmp(v, "8") ? NNUE_MAX_OUTPUT_BUCKETS : 0;
            if (!buckets) {
                fprintf(stderr, "net-init: output buckets '%s' is not 1 or %d\n", v, NNUE_MAX_OUTPUT_BUCKETS);
                return 2;
            }
        }
        else {
            fprintf(stderr, "net-init: unknown argument '%s'\n", argv[i]);
            return usage();
        }
    }
    if (!out) return usage();
    if (classical && (buckets != 1 || screlu)) {
        fprintf(stderr, "net-init: --psqt-classical makes a one-bucket clipped-ReLU net\n");
        return 2;
    }
    NnueNet *net = nnue_net_alloc();
    if (!net) {
        fprintf(stderr, "net-init: out of memory\n");
        return 1;
    }
    if (classical) nnue_net_init_psqt_classical(net);
    else nnue_net_init_random_buckets(net, seed, buckets);
    if (screlu) net->activation = NNUE_ACTIVATION_SCRELU; /* the same weights, squared activation */
    if (description) snprintf(net->description, sizeof net->description, "%s", description);
    char err[256];
    bool ok = nnue_net_save(net, out, err, sizeof err);
    size_t bytes = nnue_net_file_size(net);
    nnue_net_free(net);
    if (!ok) {
        fprintf(stderr, "net-init: %s\n", err);
        return 1;
    }
    printf("net-init: wrote %s (%zu bytes, %s, %d output bucket%s%s)\n", out, bytes,
           classical ? "psqt-classical" : "random", buckets, buckets > 1 ? "s" : "", screlu ? ", SCReLU" : "");
    return 0;
}
