/* NNUE net: file format, validated loading, the embedded default net and the evaluation
 * entry points (the layers themselves are in nnue_layers.c). See docs/nnue.md for the format
 * and the quantization. */
#include "nnue.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "accumulator.h"
#include "board.h"
#include "memory.h"
#include "nnue_layers.h"
#include "regular_file.h"

static unsigned nnue_generation = 1; /* accumulators remember it, so a stale one is detectable */

static NnueNet *current_net;
static NnueLayers *current_layers; /* current_net's hidden layers laid out for the forward pass */
/* The previous net and layers, freed only at the next change (see nnue_set_net). */
static NnueNet *retired_net;
static NnueLayers *retired_layers;
static char current_name[256] = "none";
/* Output bucket by piece count under the current net (all 0 for a one-bucket net): a table,
 * so the evaluation picks its stack without a branch. */
static uint8_t bucket_of_pieces[NNUE_MAX_ACTIVE + 1];

/* The net embedded by net_embed.S; zero bytes long when the build had no net to embed. */
extern const unsigned char squall_embedded_net[];
extern const unsigned char squall_embedded_net_end[];
extern const char squall_embedded_net_name[];

/* Header field offsets (all little-endian uint32 after the 8-byte magic). */
enum {
    OFF_VERSION = 8, OFF_FEATURE_SET = 12, OFF_INPUTS = 16, OFF_L1 = 20, OFF_L2 = 24, OFF_L3 = 28,
    OFF_OUTPUTS = 32, OFF_ACC_SHIFT = 36, OFF_HIDDEN_SHIFT = 40, OFF_OUTPUT_DIVISOR = 44,
    OFF_PAYLOAD_SIZE = 48, OFF_CHECKSUM = 52, OFF_DESCRIPTION = 56,
    /* version 2 only (zero in version 1 files) */
    OFF_OUTPUT_BUCKETS = 120, OFF_ACTIVATION = 124
};
_Static_assert(OFF_DESCRIPTION + NNUE_DESCRIPTION_SIZE <= OFF_OUTPUT_BUCKETS, "header fields overlap");
_Static_assert(OFF_ACTIVATION + 4 <= NNUE_HEADER_SIZE, "header fields fit the header");

static void set_err(char *err, size_t size, const char *fmt, ...) {
    if (!err || !size) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, size, fmt, ap);
    va_end(ap);
}

unsigned nnue_net_generation(void) { return nnue_generation; }
const NnueNet *nnue_current_net(void) { return current_net; }
bool nnue_is_loaded(void) { return current_net != NULL; }
const char *nnue_net_name(void) { return current_name; }

/* ---------------- nets in memory ---------------- */

NnueNet *nnue_net_alloc(void) {
    NnueNet *net = memory_alloc_large(sizeof(NnueNet));
    if (net) net->output_buckets = 1;
    return net;
}

void nnue_net_free(NnueNet *net) { memory_free_large(net, sizeof *net); }

bool nnue_net_validate(const NnueNet *net, char *err, size_t err_size) {
    if (net->output_buckets != 1 && net->output_buckets != NNUE_MAX_OUTPUT_BUCKETS)
        return set_err(err, err_size, "output bucket count %d is not supported (1 or %d)", net->output_buckets,
                       NNUE_MAX_OUTPUT_BUCKETS), false;
    if (net->activation != NNUE_ACTIVATION_CRELU && net->activation != NNUE_ACTIVATION_SCRELU)
        return set_err(err, err_size, "activation %d is not supported (0 clipped ReLU, 1 SCReLU)", net->activation),
               false;
    if (net->acc_shift < 0 || net->acc_shift > NNUE_MAX_ACC_SHIFT)
        return set_err(err, err_size, "accumulator shift %d outside 0..%d", net->acc_shift, NNUE_MAX_ACC_SHIFT), false;
    if (net->hidden_shift < 0 || net->hidden_shift > NNUE_MAX_HIDDEN_SHIFT)
        return set_err(err, err_size, "hidden shift %d outside 0..%d", net->hidden_shift, NNUE_MAX_HIDDEN_SHIFT), false;
    if (net->output_divisor < 1 || net->output_divisor > NNUE_MAX_OUTPUT_DIVISOR)
        return set_err(err, err_size, "output divisor %d outside 1..%d", net->output_divisor, NNUE_MAX_OUTPUT_DIVISOR),
               false;
    for (int f = 0; f < NNUE_INPUTS; f++)
        if (net->psqt_weights[f] > NNUE_MAX_PSQT_WEIGHT || net->psqt_weights[f] < -NNUE_MAX_PSQT_WEIGHT)
            return set_err(err, err_size, "PSQT weight %d of feature %d is beyond +-%d", net->psqt_weights[f], f,
                           NNUE_MAX_PSQT_WEIGHT), false;
    for (int b = 0; b < net->output_buckets; b++) {
        const int32_t *biases[3] = {net->l1_biases, net->l2_biases[b], &net->out_bias[b]};
        const int counts[3] = {NNUE_L2, NNUE_L3, 1};
        for (int l = 0; l < 3; l++)
            for (int i = 0; i < counts[l]; i++)
                if (biases[l][i] > NNUE_MAX_BIAS || biases[l][i] < -NNUE_MAX_BIAS)
                    return set_err(err, err_size, "layer %d bias %d is beyond +-%d", l + 1, biases[l][i], NNUE_MAX_BIAS),
                           false;
    }
    return true;
}

/* Makes net (with its layers) current; the previous ones stay allocated until the next change. */
static void install(NnueNet *net, NnueLayers *layers) {
    nnue_net_free(retired_net);
    nnue_layers_free(retired_layers);
    retired_net = current_net, retired_layers = current_layers;
    current_net = net, current_layers = layers;
    for (int n = 0; n <= NNUE_MAX_ACTIVE; n++)
        bucket_of_pieces[n] = (uint8_t)(net ? nnue_output_bucket(n, net->output_buckets) : 0);
    nnue_generation++;
}

bool nnue_set_net(NnueNet *net, const char *name, char *err, size_t err_size) {
    if (!net) return set_err(err, err_size, "no net"), false;
    if (!nnue_net_validate(net, err, err_size)) return false;
    NnueLayers *layers = nnue_layers_build(net);
    if (!layers) return set_err(err, err_size, "out of memory"), false;
    /* The previous net is kept alive until the next change, so an evaluation that raced with
     * this swap (which the protocol rules out anyway) reads stale but valid memory. */
    install(net, layers);
    snprintf(current_name, sizeof current_name, "%s", name && *name ? name : "unnamed");
    return true;
}

void nnue_unload(void) {
    install(NULL, NULL);
    snprintf(current_name, sizeof current_name, "none");
}

/* ---------------- file format ---------------- */

uint32_t nnue_file_checksum(const uint8_t *buf, size_t size) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < size; i++) {
        if (i == OFF_CHECKSUM) {
            i += 3; /* the checksum cannot cover itself */
            continue;
        }
        h = (h ^ buf[i]) * 16777619u;
    }
    return h;
}

static inline uint32_t rd32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline void wr32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

size_t nnue_net_file_size(const NnueNet *net) { return NNUE_FILE_SIZE_FOR(net->output_buckets); }

/* A net version 1 can hold (one bucket, clipped ReLU) is written as version 1, so such nets keep
 * their bytes (and every engine that reads version 1 reads them). */
static uint32_t format_version_of(const NnueNet *net) {
    return net->output_buckets == 1 && net->activation == NNUE_ACTIVATION_CRELU ? 1u : 2u;
}

void nnue_net_write(const NnueNet *net, uint8_t *buf) {
    const int buckets = net->output_buckets;
    const uint32_t version = format_version_of(net);
    const size_t file_size = NNUE_FILE_SIZE_FOR(buckets);
    memset(buf, 0, NNUE_HEADER_SIZE);
    memcpy(buf, NNUE_MAGIC, 8);
    wr32(buf + OFF_VERSION, version);
    wr32(buf + OFF_FEATURE_SET, NNUE_FEATURE_SET_ID);
    wr32(buf + OFF_INPUTS, NNUE_INPUTS);
    wr32(buf + OFF_L1, NNUE_L1);
    wr32(buf + OFF_L2, NNUE_L2);
    wr32(buf + OFF_L3, NNUE_L3);
    wr32(buf + OFF_OUTPUTS, NNUE_OUTPUTS);
    wr32(buf + OFF_ACC_SHIFT, (uint32_t)net->acc_shift);
    wr32(buf + OFF_HIDDEN_SHIFT, (uint32_t)net->hidden_shift);
    wr32(buf + OFF_OUTPUT_DIVISOR, (uint32_t)net->output_divisor);
    wr32(buf + OFF_PAYLOAD_SIZE, (uint32_t)NNUE_PAYLOAD_SIZE_FOR(buckets));
    memcpy(buf + OFF_DESCRIPTION, net->description, NNUE_DESCRIPTION_SIZE);
    buf[OFF_DESCRIPTION + NNUE_DESCRIPTION_SIZE - 1] = 0;
    if (version >= 2) {
        wr32(buf + OFF_OUTPUT_BUCKETS, (uint32_t)buckets);
        wr32(buf + OFF_ACTIVATION, (uint32_t)net->activation);
    }

    uint8_t *p = buf + NNUE_HEADER_SIZE;
    for (int f = 0; f < NNUE_INPUTS; f++)
        for (int i = 0; i < NNUE_L1; i++) {
            uint16_t v = (uint16_t)net->ft_weights[f][i];
            *p++ = (uint8_t)v, *p++ = (uint8_t)(v >> 8);
        }
    for (int i = 0; i < NNUE_L1; i++) {
        uint16_t v = (uint16_t)net->ft_biases[i];
        *p++ = (uint8_t)v, *p++ = (uint8_t)(v >> 8);
    }
    for (int f = 0; f < NNUE_INPUTS; f++, p += 4) wr32(p, (uint32_t)net->psqt_weights[f]);
    memcpy(p, net->l1_weights, sizeof net->l1_weights), p += sizeof net->l1_weights;
    for (int i = 0; i < NNUE_L2; i++, p += 4) wr32(p, (uint32_t)net->l1_biases[i]);
    for (int b = 0; b < buckets; b++) { /* the stacks one after the other, each in version 1's order */
        memcpy(p, net->l2_weights[b], sizeof net->l2_weights[b]), p += sizeof net->l2_weights[b];
        for (int i = 0; i < NNUE_L3; i++, p += 4) wr32(p, (uint32_t)net->l2_biases[b][i]);
        memcpy(p, net->out_weights[b], sizeof net->out_weights[b]), p += sizeof net->out_weights[b];
        wr32(p, (uint32_t)net->out_bias[b]), p += 4;
    }
    wr32(buf + OFF_CHECKSUM, nnue_file_checksum(buf, file_size));
}

bool nnue_net_save(const NnueNet *net, const char *path, char *err, size_t err_size) {
    const size_t size = nnue_net_file_size(net);
    uint8_t *buf = malloc(size);
    if (!buf) return set_err(err, err_size, "out of memory"), false;
    nnue_net_write(net, buf);
    FILE *f = fopen(path, "wb");
    if (!f) {
        set_err(err, err_size, "cannot create '%s': %s", path, strerror(errno));
        free(buf);
        return false;
    }
    bool ok = fwrite(buf, 1, size, f) == size;
    ok = (fclose(f) == 0) && ok;
    free(buf);
    if (!ok) set_err(err, err_size, "write to '%s' failed", path);
    return ok;
}

/* The payload holds little-endian integers in the order and widths of the net's arrays: on a
 * little-endian host one copy per array, elsewhere value by value. Each returns the next byte. */
static const uint8_t *read_i16s(int16_t *dst, const uint8_t *p, size_t n) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(dst, p, n * 2);
#else
    for (size_t i = 0; i < n; i++) dst[i] = (int16_t)(uint16_t)(p[2 * i] | p[2 * i + 1] << 8);
#endif
    return p + n * 2;
}
static const uint8_t *read_i32s(int32_t *dst, const uint8_t *p, size_t n) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(dst, p, n * 4);
#else
    for (size_t i = 0; i < n; i++) dst[i] = (int32_t)rd32(p + 4 * i);
#endif
    return p + n * 4;
}

/* Parses and checks a file image into a fresh net; NULL with a reason on any mismatch. The
 * checksum is skipped only for the embedded net, which a test checks once (see nnue_init). */
static NnueNet *parse_net(const uint8_t *buf, size_t size, bool verify_checksum, char *err, size_t err_size) {
    if (size < NNUE_HEADER_SIZE)
        return set_err(err, err_size, "file is truncated: %zu bytes, the header alone needs %d", size, NNUE_HEADER_SIZE),
               NULL;
    if (memcmp(buf, NNUE_MAGIC, 8) != 0) return set_err(err, err_size, "not a Squall net file (bad magic)"), NULL;
    uint32_t version = rd32(buf + OFF_VERSION);
    if (version < 1 || version > NNUE_FORMAT_VERSION)
        return set_err(err, err_size, "net format version %u is not supported (this engine reads 1..%u)", version,
                       NNUE_FORMAT_VERSION), NULL;
    /* version 1 has one bucket and no further fields (its bytes 120..127 are not read) */
    uint32_t buckets = version >= 2 ? rd32(buf + OFF_OUTPUT_BUCKETS) : 1;
    if (buckets != 1 && buckets != NNUE_MAX_OUTPUT_BUCKETS)
        return set_err(err, err_size, "output bucket count %u is not supported (1 or %d)", buckets,
                       NNUE_MAX_OUTPUT_BUCKETS), NULL;
    uint32_t activation = version >= 2 ? rd32(buf + OFF_ACTIVATION) : NNUE_ACTIVATION_CRELU;
    if (activation != NNUE_ACTIVATION_CRELU && activation != NNUE_ACTIVATION_SCRELU)
        return set_err(err, err_size, "activation %u is not supported (0 clipped ReLU, 1 SCReLU)", activation), NULL;
    const size_t payload_size = NNUE_PAYLOAD_SIZE_FOR(buckets), file_size = NNUE_FILE_SIZE_FOR(buckets);
    uint32_t fs = rd32(buf + OFF_FEATURE_SET);
    if (fs != NNUE_FEATURE_SET_ID)
        return set_err(err, err_size, "feature set 0x%08x is not HalfKAv2_hm (0x%08x)", fs, NNUE_FEATURE_SET_ID), NULL;
    uint32_t dims[5] = {rd32(buf + OFF_INPUTS), rd32(buf + OFF_L1), rd32(buf + OFF_L2), rd32(buf + OFF_L3),
                        rd32(buf + OFF_OUTPUTS)};
    if (dims[0] != NNUE_INPUTS || dims[1] != NNUE_L1 || dims[2] != NNUE_L2 || dims[3] != NNUE_L3 || dims[4] != NNUE_OUTPUTS)
        return set_err(err, err_size, "layer sizes %u/%u/%u/%u/%u differ from this engine's %d/%d/%d/%d/%d", dims[0],
                       dims[1], dims[2], dims[3], dims[4], NNUE_INPUTS, NNUE_L1, NNUE_L2, NNUE_L3, NNUE_OUTPUTS), NULL;
    uint32_t payload = rd32(buf + OFF_PAYLOAD_SIZE);
    if (payload != payload_size)
        return set_err(err, err_size, "header payload size %u does not match the layer sizes (%zu)", payload,
                       payload_size), NULL;
    if (size < file_size)
        return set_err(err, err_size, "file is truncated: %zu bytes, expected %zu", size, file_size), NULL;
    if (size > file_size)
        return set_err(err, err_size, "file is %zu bytes, expected exactly %zu", size, file_size), NULL;
    uint32_t stored = rd32(buf + OFF_CHECKSUM), actual = verify_checksum ? nnue_file_checksum(buf, size) : stored;
    if (stored != actual)
        return set_err(err, err_size, "checksum mismatch (file says %08x, contents give %08x): corrupt file", stored,
                       actual), NULL;

    NnueNet *net = nnue_net_alloc();
    if (!net) return set_err(err, err_size, "out of memory"), NULL;
    net->acc_shift = (int32_t)rd32(buf + OFF_ACC_SHIFT);
    net->hidden_shift = (int32_t)rd32(buf + OFF_HIDDEN_SHIFT);
    net->output_divisor = (int32_t)rd32(buf + OFF_OUTPUT_DIVISOR);
    net->output_buckets = (int32_t)buckets;
    net->activation = (int32_t)activation;
    memcpy(net->description, buf + OFF_DESCRIPTION, NNUE_DESCRIPTION_SIZE);
    net->description[NNUE_DESCRIPTION_SIZE - 1] = 0;

    const uint8_t *p = buf + NNUE_HEADER_SIZE;
    p = read_i16s(&net->ft_weights[0][0], p, (size_t)NNUE_INPUTS * NNUE_L1);
    p = read_i16s(net->ft_biases, p, NNUE_L1);
    p = read_i32s(net->psqt_weights, p, NNUE_INPUTS);
    memcpy(net->l1_weights, p, sizeof net->l1_weights), p += sizeof net->l1_weights;
    p = read_i32s(net->l1_biases, p, NNUE_L2);
    for (uint32_t b = 0; b < buckets; b++) {
        memcpy(net->l2_weights[b], p, sizeof net->l2_weights[b]), p += sizeof net->l2_weights[b];
        p = read_i32s(net->l2_biases[b], p, NNUE_L3);
        memcpy(net->out_weights[b], p, sizeof net->out_weights[b]), p += sizeof net->out_weights[b];
        p = read_i32s(&net->out_bias[b], p, 1);
    }

    if (!nnue_net_validate(net, err, err_size)) {
        nnue_net_free(net);
        return NULL;
    }
    return net;
}

static bool load_image(const void *data, size_t size, bool verify_checksum, const char *name, char *err,
                       size_t err_size) {
    NnueNet *net = parse_net(data, size, verify_checksum, err, err_size);
    if (!net) return false;
    if (!nnue_set_net(net, name, err, err_size)) {
        nnue_net_free(net);
        return false;
    }
    return true;
}

bool nnue_load_memory(const void *data, size_t size, const char *name, char *err, size_t err_size) {
    return load_image(data, size, true, name, err, err_size);
}

bool nnue_load_file(const char *path, char *err, size_t err_size) {
    char why[200];
    long long size;
    FILE *f = regular_file_open(path, &size, why, sizeof why);
    if (!f) return set_err(err, err_size, "cannot open net file '%s': %s", path, why), false;
    if (size > (long long)NNUE_MAX_FILE_SIZE) { /* said from the size on disk: nothing to read (a sparse file) */
        fclose(f);
        return set_err(err, err_size, "net file '%s' refused: file is %lld bytes, a net has at most %zu", path, size,
                       (size_t)NNUE_MAX_FILE_SIZE),
               false;
    }
    uint8_t *buf = malloc(size > 0 ? (size_t)size : 1);
    if (!buf) {
        fclose(f);
        return set_err(err, err_size, "out of memory"), false;
    }
    size_t n = fread(buf, 1, (size_t)size, f);
    fclose(f);
    bool ok = false;
    if (n != (size_t)size) set_err(err, err_size, "cannot read net file '%s'", path);
    else {
        const char *base = strrchr(path, '/');
        ok = nnue_load_memory(buf, n, base ? base + 1 : path, why, sizeof why);
        if (!ok) set_err(err, err_size, "net file '%s' refused: %s", path, why);
    }
    free(buf);
    return ok;
}

const void *nnue_embedded_net(size_t *size) {
    *size = (size_t)(squall_embedded_net_end - squall_embedded_net);
    return squall_embedded_net;
}

bool nnue_init(void) {
    if (current_net) return true;
    size_t size;
    const void *image = nnue_embedded_net(&size);
    if (size == 0) return false;
    char err[200], name[128];
    snprintf(name, sizeof name, "embedded %s", squall_embedded_net_name);
    /* Every start-up pays for the checksum of 11 MB byte by byte, yet the bytes are part of the
     * program: the test nnue.embedded_net_passes_every_file_check verifies it once per build.
     * The header and the value limits are still checked here. */
    if (!load_image(image, size, false, name, err, sizeof err)) {
        fprintf(stderr, "info string embedded net refused: %s\n", err);
        return false;
    }
    return true;
}

/* ---------------- forward pass ---------------- */

int32_t nnue_propagate(const int16_t *stm_half, const int16_t *other_half, int bucket) {
    return nnue_layers_propagate(current_layers, stm_half, other_half, bucket);
}

static inline int position_bucket(const Position *pos) { return bucket_of_pieces[popcount(pos->occupied)]; }

static inline int clamp_eval(int64_t v) {
    return v > NNUE_EVAL_LIMIT ? NNUE_EVAL_LIMIT : v < -NNUE_EVAL_LIMIT ? -NNUE_EVAL_LIMIT : (int)v;
}

/* The accumulator halves to use: acc's (brought up to date), or, without one, a temporary
 * built into tmp. An accumulator last refreshed under another net (a net was loaded since)
 * is never trusted. */
static inline const AccumulatorHalf *halves_for(const NnueNet *net, const Position *pos, Accumulator *acc,
                                                AccumulatorHalf tmp[2]) {
    if (acc) {
        const AccumulatorHalf *h = accumulator_halves(acc, pos);
        if (h) {
#if !defined(NDEBUG) || defined(SQUALL_CHECK_ACCUMULATOR)
            accumulator_assert_current(acc, pos, "evaluate");
#endif
            return h;
        }
    }
    accumulator_compute_half(net, pos, WHITE, &tmp[WHITE]);
    accumulator_compute_half(net, pos, BLACK, &tmp[BLACK]);
    return tmp;
}

static inline int32_t psqt_units(const AccumulatorHalf *h, int stm) {
    /* halving the difference keeps the value symmetric and in the units of one side's view */
    return (int32_t)(((int64_t)h[stm].psqt - h[!stm].psqt) / 2);
}

void nnue_evaluate_parts(const Position *pos, NnueParts *parts) {
    memset(parts, 0, sizeof *parts);
    const NnueNet *net = current_net;
    if (!net) return;
    AccumulatorHalf tmp[2];
    const AccumulatorHalf *h = halves_for(net, pos, NULL, tmp);
    int stm = pos->side;
    parts->psqt[WHITE] = h[WHITE].psqt, parts->psqt[BLACK] = h[BLACK].psqt;
    parts->psqt_units = psqt_units(h, stm);
    parts->bucket = position_bucket(pos);
    parts->hidden_units = nnue_layers_propagate(current_layers, h[stm].values, h[!stm].values, parts->bucket);
    parts->psqt_cp = clamp_eval(parts->psqt_units / net->output_divisor);
    parts->hidden_cp = clamp_eval(parts->hidden_units / net->output_divisor);
    parts->total_cp = clamp_eval(((int64_t)parts->psqt_units + parts->hidden_units) / net->output_divisor);
}

int nnue_evaluate(const Position *pos, Accumulator *acc) {
    const NnueNet *net = current_net;
    if (!net) return 0;
    AccumulatorHalf tmp[2];
    const AccumulatorHalf *h = halves_for(net, pos, acc, tmp);
    int stm = pos->side;
    int32_t hidden =
        nnue_layers_propagate(current_layers, h[stm].values, h[!stm].values, position_bucket(pos));
    return clamp_eval(((int64_t)psqt_units(h, stm) + hidden) / net->output_divisor);
}

int nnue_psqt_only(const Position *pos, Accumulator *acc) {
    const NnueNet *net = current_net;
    if (!net) return 0;
    /* the PSQT sums are kept current by make: no vector work for the lazy tier */
    const AccumulatorEntry *e = acc ? accumulator_psqt_entry(acc) : NULL;
    if (e) return clamp_eval(psqt_units(e->half, pos->side) / net->output_divisor);
    AccumulatorHalf tmp[2];
    const AccumulatorHalf *h = halves_for(net, pos, NULL, tmp);
    return clamp_eval(psqt_units(h, pos->side) / net->output_divisor);
}

void nnue_trace(const Position *pos, FILE *out) {
    if (!current_net) {
        fprintf(out, "NNUE no net loaded\n");
        return;
    }
    NnueParts p;
    nnue_evaluate_parts(pos, &p);
    const char *side = pos->side == WHITE ? "white" : "black";
    fprintf(out, "NNUE net %s (%s), kernels %s, accumulator activation %s\n", current_name, current_net->description,
            nnue_simd_name(), current_net->activation == NNUE_ACTIVATION_SCRELU ? "SCReLU" : "clipped ReLU");
    fprintf(out, "NNUE psqt sums: white %d black %d (output units, %d per centipawn)\n", p.psqt[WHITE], p.psqt[BLACK],
            current_net->output_divisor);
    fprintf(out, "NNUE psqt part %d units = %d cp\n", p.psqt_units, p.psqt_cp);
    fprintf(out, "NNUE hidden part %d units = %d cp (output bucket %d of %d)\n", p.hidden_units, p.hidden_cp, p.bucket,
            current_net->output_buckets);
    fprintf(out, "NNUE raw output %d units\n", p.psqt_units + p.hidden_units);
    fprintf(out, "NNUE evaluation %d cp (%s to move; white view %d cp)\n", p.total_cp, side,
            pos->side == WHITE ? p.total_cp : -p.total_cp);
}
