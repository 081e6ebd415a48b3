/* Float model of the net: initialization, forward and backward pass of one sample, the
 * factorizer's effective rows, export to (and import from) the quantized engine net. */
#include "train_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "random.h"

#ifdef TM_EFF_HALF
#include <immintrin.h>
#endif


static void *alloc_floats(size_t n) {
    size_t bytes = (n * sizeof(float) + 63) & ~(size_t)63;
    float *p = aligned_alloc(64, bytes);
    if (p) memset(p, 0, bytes);
    return p;
}

static TrainScratch *train_scratch_alloc(void);

/* Oriented square of the own king in bucket b: the bucket formula read backwards (rank from
 * b / 4, and the orientation puts the king on files e-h, so its file is 7 - b % 4). */
static uint32_t own_king_square(uint32_t bucket) { return (7 - bucket / 4) * 8 + (7 - bucket % 4); }

uint32_t train_virtual_row(uint32_t feature) {
    uint32_t plane_sq = feature % NNUE_PLANES, bucket = feature / NNUE_PLANES;
    if (plane_sq < 640) return plane_sq;
    uint32_t sq = plane_sq - 640;
    return sq == own_king_square(bucket) ? plane_sq : TM_ENEMY_KING_ROWS + sq;
}

bool train_model_alloc(TrainModel *m) { return train_model_alloc_buckets(m, 1); }

bool train_model_alloc_buckets(TrainModel *m, int buckets) {
    memset(m, 0, sizeof *m);
    m->buckets = buckets;
    m->total = tm_total(buckets);
    m->p = alloc_floats(m->total);
    m->eff = alloc_floats((size_t)NNUE_INPUTS * TM_L1 * sizeof(TrainEff) / sizeof(float));
    m->eff_psqt = alloc_floats(NNUE_INPUTS);
    m->l1_t = alloc_floats((size_t)2 * TM_L1 * TM_L2);
    m->factorizer = true;
    if (m->p && m->eff && m->eff_psqt && m->l1_t) return true;
    train_model_free(m);
    return false;
}

void train_model_free(TrainModel *m) {
    free(m->p);
    free(m->eff);
    free(m->eff_psqt);
    free(m->l1_t);
    memset(m, 0, sizeof *m);
}

bool train_grad_alloc(TrainGrad *g, const TrainModel *m) {
    memset(g, 0, sizeof *g);
    g->ft = alloc_floats((size_t)NNUE_INPUTS * TM_L1);
    g->psqt = alloc_floats(NNUE_INPUTS);
    g->small = alloc_floats(m->total - TM_SMALL);
    g->touched = calloc(NNUE_INPUTS, 1);
    g->scratch = train_scratch_alloc();
    if (g->ft && g->psqt && g->small && g->touched && g->scratch) return true;
    train_grad_free(g);
    return false;
}

void train_grad_free(TrainGrad *g) {
    free(g->ft);
    free(g->psqt);
    free(g->small);
    free(g->touched);
    free(g->scratch);
    memset(g, 0, sizeof *g);
}

/* ---------------- limits ---------------- */

static void clamp_range(float *p, size_t n, float limit) {
    for (size_t i = 0; i < n; i++) p[i] = p[i] > limit ? limit : p[i] < -limit ? -limit : p[i];
}

void train_model_clip(TrainModel *m) {
    float *p = m->p;
    clamp_range(p + TM_FT_W, (size_t)NNUE_INPUTS * TM_L1, TRAIN_FT_W_MAX);
    clamp_range(p + TM_PSQT_W, NNUE_INPUTS, TRAIN_PSQT_MAX);
    clamp_range(p + TM_FT_V, (size_t)TM_VIRTUAL_ROWS * TM_L1, TRAIN_FT_W_MAX);
    clamp_range(p + TM_PSQT_V, TM_VIRTUAL_ROWS, TRAIN_PSQT_MAX);
    clamp_range(p + TM_FT_B, TM_L1, TRAIN_FT_B_MAX);
    clamp_range(p + TM_L1_W, (size_t)TM_L2 * 2 * TM_L1, TRAIN_HIDDEN_W_MAX);
    clamp_range(p + TM_L1_B, TM_L2, TRAIN_BIAS_MAX);
    for (int b = 0; b < m->buckets; b++) {
        TrainStack st = tm_stack(b);
        clamp_range(p + st.l2_w, (size_t)TM_L3 * TM_L2, TRAIN_HIDDEN_W_MAX);
        clamp_range(p + st.l2_b, TM_L3, TRAIN_BIAS_MAX);
        clamp_range(p + st.out_w, TM_L3, TRAIN_OUT_W_MAX);
        clamp_range(p + st.out_b, 1, TRAIN_BIAS_MAX);
    }
}

/* Bucket 0's stack copied into every other bucket. */
static void copy_stack_to_all_buckets(TrainModel *m) {
    TrainStack from = tm_stack(0);
    for (int b = 1; b < m->buckets; b++) {
        TrainStack to = tm_stack(b);
        memcpy(m->p + to.l2_w, m->p + from.l2_w, (size_t)TM_L3 * TM_L2 * sizeof(float));
        memcpy(m->p + to.l2_b, m->p + from.l2_b, TM_L3 * sizeof(float));
        memcpy(m->p + to.out_w, m->p + from.out_w, TM_L3 * sizeof(float));
        m->p[to.out_b] = m->p[from.out_b];
    }
}

/* ---------------- initialization ---------------- */

static float uniform(uint64_t *state, float lo, float hi) {
    return lo + (hi - lo) * (float)((splitmix64(state) >> 40) * (1.0 / 16777216.0));
}

/* Starting material values in centipawns by piece type (kings share one plane: 0). */
static const float init_material[PIECE_TYPE_NB] = {100, 300, 320, 500, 900, 0};

void train_model_init(TrainModel *m, uint64_t seed) {
    uint64_t s = seed ^ 0x545241494E494E31ULL; /* "TRAININ1" */
    float *p = m->p;
    memset(p, 0, m->total * sizeof *p);
    /* Without the factorizer, feature rows start small enough that ~30 of them keep most
     * accumulator lanes inside (0, 1). With it, real and virtual rows all start at zero (the
     * hidden layers' random weights break the symmetry): a king bucket the data rarely visits
     * then carries the shared weights instead of its random start. Measured on 0.85 M
     * positions: the same validation loss as a random start (0.0170 against 0.0167). */
    if (!m->factorizer)
        for (size_t i = 0; i < (size_t)NNUE_INPUTS * TM_L1; i++) p[TM_FT_W + i] = uniform(&s, -0.1f, 0.1f);
    for (int i = 0; i < TM_L1; i++) p[TM_FT_B + i] = uniform(&s, 0.0f, 0.5f);
    float a1 = 1.0f / sqrtf(2.0f * TM_L1), a2 = 1.0f / sqrtf((float)TM_L2), a3 = 1.0f / sqrtf((float)TM_L3);
    for (int i = 0; i < TM_L2 * 2 * TM_L1; i++) p[TM_L1_W + i] = uniform(&s, -a1, a1);
    for (int i = 0; i < TM_L2; i++) p[TM_L1_B + i] = uniform(&s, 0.0f, 0.2f);
    for (int i = 0; i < TM_L3 * TM_L2; i++) p[TM_L2_W + i] = uniform(&s, -a2, a2);
    for (int i = 0; i < TM_L3; i++) p[TM_L2_B + i] = uniform(&s, 0.0f, 0.2f);
    for (int i = 0; i < TM_L3; i++) p[TM_OUT_W + i] = uniform(&s, -a3, a3);
    /* every bucket starts from the same stack: each then learns from its own positions only */
    copy_stack_to_all_buckets(m);
    /* PSQT starts as material (in the virtual rows, which every king bucket shares, or in
     * every bucket's rows without the factorizer): the net then learns corrections instead of
     * piece values from scratch. */
    for (int plane = 0; plane < 10; plane++) {
        float v = init_material[plane / 2] / TRAIN_OUTPUT_SCALE * ((plane & 1) ? -1.0f : 1.0f);
        for (int sq = 0; sq < 64; sq++) {
            if (m->factorizer) p[TM_PSQT_V + (size_t)plane * 64 + sq] = v;
            else
                for (int b = 0; b < NNUE_KING_BUCKETS; b++) p[TM_PSQT_W + (size_t)b * NNUE_PLANES + plane * 64 + sq] = v;
        }
    }
    train_model_clip(m);
    train_model_refresh_rows(m, NULL, 0);
    train_model_refresh_transpose(m);
}

/* Moves the part of every feature row that all king buckets share into the virtual rows:
 * V = the mean over the rows it serves, W = what each bucket adds. The sum W + V, and so the
 * exported net, is unchanged, but training started from a net now treats the shared part as
 * shared (it learns from every bucket's samples, and --row-wd pulls only the bucket parts to
 * zero, instead of wiping the imported weights). */
static void split_shared_rows(TrainModel *m) {
    float *p = m->p;
    int served[TM_VIRTUAL_ROWS] = {0};
    for (uint32_t f = 0; f < NNUE_INPUTS; f++) {
        uint32_t v = train_virtual_row(f);
        served[v]++;
        for (int i = 0; i < TM_L1; i++) p[TM_FT_V + (size_t)v * TM_L1 + i] += p[TM_FT_W + (size_t)f * TM_L1 + i];
        p[TM_PSQT_V + v] += p[TM_PSQT_W + f];
    }
    for (uint32_t v = 0; v < TM_VIRTUAL_ROWS; v++) {
        if (!served[v]) continue; /* the own king never stands on files a-d once oriented */
        for (int i = 0; i < TM_L1; i++) p[TM_FT_V + (size_t)v * TM_L1 + i] /= (float)served[v];
        p[TM_PSQT_V + v] /= (float)served[v];
    }
    for (uint32_t f = 0; f < NNUE_INPUTS; f++) {
        uint32_t v = train_virtual_row(f);
        for (int i = 0; i < TM_L1; i++) p[TM_FT_W + (size_t)f * TM_L1 + i] -= p[TM_FT_V + (size_t)v * TM_L1 + i];
        p[TM_PSQT_W + f] -= p[TM_PSQT_V + v];
    }
}

void train_model_from_net(TrainModel *m, const NnueNet *net) {
    float *p = m->p;
    memset(p, 0, m->total * sizeof *p);
    float ft_scale = 1.0f / (TRAIN_ACT_ONE * (float)(1 << net->acc_shift));
    float hid_scale = 1.0f / (float)(1 << net->hidden_shift);
    float out_units = (float)net->output_divisor * TRAIN_OUTPUT_SCALE; /* engine units per 1.0 of y */
    for (int f = 0; f < NNUE_INPUTS; f++) {
        for (int i = 0; i < TM_L1; i++) p[TM_FT_W + (size_t)f * TM_L1 + i] = net->ft_weights[f][i] * ft_scale;
        p[TM_PSQT_W + f] = (float)net->psqt_weights[f] / out_units;
    }
    for (int i = 0; i < TM_L1; i++) p[TM_FT_B + i] = net->ft_biases[i] * ft_scale;
    /* the engine floors (s >> shift), which on average loses half a step: take that out of
     * the bias (train_model_to_net puts it back), so a net survives import + export unchanged */
    float half_step = net->hidden_shift > 0 ? (float)(1 << (net->hidden_shift - 1)) : 0.0f;
    for (int o = 0; o < TM_L2; o++) {
        for (int i = 0; i < 2 * TM_L1; i++) p[TM_L1_W + (size_t)o * 2 * TM_L1 + i] = net->l1_weights[o][i] * hid_scale;
        p[TM_L1_B + o] = ((float)net->l1_biases[o] - half_step) * hid_scale / TRAIN_ACT_ONE;
    }
    for (int b = 0; b < m->buckets; b++) {
        const int from = net->output_buckets > 1 ? b : 0; /* a one-bucket net seeds every bucket */
        const TrainStack st = tm_stack(b);
        for (int o = 0; o < TM_L3; o++) {
            for (int i = 0; i < TM_L2; i++) p[st.l2_w + (size_t)o * TM_L2 + i] = net->l2_weights[from][o][i] * hid_scale;
            p[st.l2_b + o] = ((float)net->l2_biases[from][o] - half_step) * hid_scale / TRAIN_ACT_ONE;
        }
        for (int i = 0; i < TM_L3; i++) p[st.out_w + i] = (float)net->out_weights[from][i] * TRAIN_ACT_ONE / out_units;
        p[st.out_b] = (float)net->out_bias[from] / out_units;
    }
    if (m->factorizer) split_shared_rows(m);
    train_model_clip(m);
    train_model_refresh_rows(m, NULL, 0);
    train_model_refresh_transpose(m);
}

static int32_t round_clamp(double x, int32_t lo, int32_t hi) {
    double r = nearbyint(x);
    return r < lo ? lo : r > hi ? hi : (int32_t)r;
}

void train_model_to_net(const TrainModel *m, NnueNet *net) {
    const float *p = m->p;
    net->output_buckets = m->buckets;
    net->activation = m->screlu ? NNUE_ACTIVATION_SCRELU : NNUE_ACTIVATION_CRELU;
    net->acc_shift = 0;
    net->hidden_shift = TRAIN_HIDDEN_SHIFT;
    net->output_divisor = TRAIN_OUTPUT_DIVISOR;
    const double act = TRAIN_ACT_ONE, hid = 1 << TRAIN_HIDDEN_SHIFT;
    const double out_units = (double)TRAIN_OUTPUT_DIVISOR * TRAIN_OUTPUT_SCALE;
    const double fold = m->factorizer ? 1.0 : 0.0; /* virtual rows count only when the forward pass uses them */
    for (int f = 0; f < NNUE_INPUTS; f++) {
        const float *w = p + TM_FT_W + (size_t)f * TM_L1;
        const uint32_t row = train_virtual_row((uint32_t)f);
        const float *v = p + TM_FT_V + (size_t)row * TM_L1;
        for (int i = 0; i < TM_L1; i++)
            net->ft_weights[f][i] = (int16_t)round_clamp(((double)w[i] + fold * v[i]) * act, INT16_MIN, INT16_MAX);
        double ps = (double)p[TM_PSQT_W + f] + fold * p[TM_PSQT_V + row];
        net->psqt_weights[f] = round_clamp(ps * out_units, -NNUE_MAX_PSQT_WEIGHT, NNUE_MAX_PSQT_WEIGHT);
    }
    for (int i = 0; i < TM_L1; i++) net->ft_biases[i] = (int16_t)round_clamp(p[TM_FT_B + i] * act, INT16_MIN, INT16_MAX);
    /* The engine floors (s >> shift); adding half a step to the bias makes that a rounding, so
     * the quantized activation is the nearest one to the float model's. */
    const int32_t half_step = 1 << (TRAIN_HIDDEN_SHIFT - 1);
    for (int o = 0; o < TM_L2; o++) {
        for (int i = 0; i < 2 * TM_L1; i++)
            net->l1_weights[o][i] = (int8_t)round_clamp(p[TM_L1_W + (size_t)o * 2 * TM_L1 + i] * hid, -127, 127);
        net->l1_biases[o] = round_clamp(p[TM_L1_B + o] * hid * act, -NNUE_MAX_BIAS, NNUE_MAX_BIAS) + half_step;
    }
    for (int b = 0; b < m->buckets; b++) {
        const TrainStack st = tm_stack(b);
        for (int o = 0; o < TM_L3; o++) {
            for (int i = 0; i < TM_L2; i++)
                net->l2_weights[b][o][i] = (int8_t)round_clamp(p[st.l2_w + (size_t)o * TM_L2 + i] * hid, -127, 127);
            net->l2_biases[b][o] = round_clamp(p[st.l2_b + o] * hid * act, -NNUE_MAX_BIAS, NNUE_MAX_BIAS) + half_step;
        }
        for (int i = 0; i < TM_L3; i++)
            net->out_weights[b][i] = (int8_t)round_clamp(p[st.out_w + i] * out_units / act, -127, 127);
        net->out_bias[b] = round_clamp(p[st.out_b] * out_units, -NNUE_MAX_BIAS, NNUE_MAX_BIAS);
    }
}

/* ---------------- effective rows ---------------- */

static void refresh_row(TrainModel *m, uint32_t f) {
    _Alignas(64) float sum[TM_L1];
    const float *restrict w = m->p + TM_FT_W + (size_t)f * TM_L1;
    if (m->factorizer) {
        const uint32_t row = train_virtual_row(f);
        const float *restrict v = m->p + TM_FT_V + (size_t)row * TM_L1;
        for (int i = 0; i < TM_L1; i++) sum[i] = w[i] + v[i];
        m->eff_psqt[f] = m->p[TM_PSQT_W + f] + m->p[TM_PSQT_V + row];
    } else {
        memcpy(sum, w, sizeof sum);
        m->eff_psqt[f] = m->p[TM_PSQT_W + f];
    }
    TrainEff *e = m->eff + (size_t)f * TM_L1;
#ifdef TM_EFF_HALF
    for (int i = 0; i < TM_L1; i += 8)
        _mm_store_si128((__m128i *)(e + i), _mm256_cvtps_ph(_mm256_load_ps(sum + i), _MM_FROUND_TO_NEAREST_INT));
#else
    memcpy(e, sum, sizeof sum);
#endif
}

void train_model_refresh_rows(TrainModel *m, const uint32_t *rows, size_t count) {
    if (!rows)
        for (uint32_t f = 0; f < NNUE_INPUTS; f++) refresh_row(m, f);
    else
        for (size_t k = 0; k < count; k++) refresh_row(m, rows[k]);
}

void train_model_refresh_transpose(TrainModel *m) {
    const float *w = m->p + TM_L1_W;
    for (int o = 0; o < TM_L2; o++)
        for (int i = 0; i < 2 * TM_L1; i++) m->l1_t[(size_t)i * TM_L2 + o] = w[(size_t)o * 2 * TM_L1 + i];
}

/* ---------------- forward and backward ----------------
 *
 * Training runs samples in groups of TM_GROUP so the dense 512x32 layer is read, and its
 * gradient written, once per group instead of once per sample (that layer and its gradient
 * live in L2; the per-sample vectors of a group stay in L1). The feature rows are random
 * 1 KiB reads from a table far larger than L2: the next rows are prefetched while the
 * current one is added. Loop orders are the same in the single-sample forward pass, so both
 * give the same numbers. */

static inline float clip01(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }
static inline bool inside01(float x) { return x > 0.0f && x < 1.0f; }

#define PREFETCH_AHEAD 2 /* rows */

static inline void prefetch_row(const void *row, size_t bytes, int write) {
    for (size_t line = 0; line < bytes; line += 64) {
        if (write) __builtin_prefetch((const char *)row + line, 1, 3);
        else __builtin_prefetch((const char *)row + line, 0, 3);
    }
}

#define EFF_ROW_BYTES (TM_L1 * sizeof(TrainEff))
#define GRAD_ROW_BYTES (TM_L1 * sizeof(float))

/* acc += one effective row */
static inline void add_eff_row(float *restrict a, const TrainEff *restrict row) {
#ifdef TM_EFF_HALF
    for (int i = 0; i < TM_L1; i += 8) {
        __m256 r = _mm256_cvtph_ps(_mm_load_si128((const __m128i *)(row + i)));
        _mm256_store_ps(a + i, _mm256_add_ps(_mm256_load_ps(a + i), r));
    }
#else
    for (int i = 0; i < TM_L1; i++) a[i] += row[i];
#endif
}

/* Accumulators of both perspectives, their clipped activations and the PSQT sums. */
static void accumulate(const TrainModel *m, const TrainSample *s, float acc[2][TM_L1], float *x0, float psqt[2]) {
    const float *bias = m->p + TM_FT_B;
    int n = s->count;
    for (int h = 0; h < 2; h++) {
        float *restrict a = acc[h];
        const uint16_t *feat = s->feat[h];
        for (int k = 0; k < PREFETCH_AHEAD && k < n; k++) prefetch_row(m->eff + (size_t)feat[k] * TM_L1, EFF_ROW_BYTES, 0);
        memcpy(a, bias, TM_L1 * sizeof *a);
        float ps = 0.0f;
        for (int k = 0; k < n; k++) {
            if (k + PREFETCH_AHEAD < n)
                prefetch_row(m->eff + (size_t)feat[k + PREFETCH_AHEAD] * TM_L1, EFF_ROW_BYTES, 0);
            add_eff_row(a, m->eff + (size_t)feat[k] * TM_L1);
            ps += m->eff_psqt[feat[k]];
        }
        psqt[h] = ps;
        float *restrict x = x0 + h * TM_L1;
        if (m->screlu)
            for (int i = 0; i < TM_L1; i++) {
                float c = clip01(a[i]);
                x[i] = c * c * TRAIN_SCRELU_SCALE;
            }
        else
            for (int i = 0; i < TM_L1; i++) x[i] = clip01(a[i]);
    }
}

/* z1 = b1 + L1 x0, as a sum of transposed rows (vectorizes without reassociation). */
static void l1_forward(const TrainModel *m, const float *x0, float *restrict z1) {
    memcpy(z1, m->p + TM_L1_B, TM_L2 * sizeof *z1);
    for (int i = 0; i < 2 * TM_L1; i++) {
        float x = x0[i];
        const float *restrict w = m->l1_t + (size_t)i * TM_L2;
        for (int o = 0; o < TM_L2; o++) z1[o] += x * w[o];
    }
}

/* Everything after L1 with the stack st: x1, z2, x2 and the output in model units (PSQT included). */
static float tail_forward(const TrainModel *m, TrainStack st, const float *z1, float *x1, float *z2, float *x2,
                          const float psqt[2]) {
    const float *P = m->p;
    for (int o = 0; o < TM_L2; o++) x1[o] = clip01(z1[o]);
    for (int o = 0; o < TM_L3; o++) {
        const float *restrict w = P + st.l2_w + (size_t)o * TM_L2;
        float sum = 0.0f;
        for (int i = 0; i < TM_L2; i++) sum += w[i] * x1[i];
        z2[o] = P[st.l2_b + o] + sum;
    }
    float y = P[st.out_b];
    for (int o = 0; o < TM_L3; o++) {
        x2[o] = clip01(z2[o]);
        y += P[st.out_w + o] * x2[o];
    }
    return y + 0.5f * (psqt[0] - psqt[1]);
}

float train_model_forward_cp(const TrainModel *m, const TrainSample *s) {
    _Alignas(64) float acc[2][TM_L1], x0[2 * TM_L1], z1[TM_L2], x1[TM_L2], z2[TM_L3], x2[TM_L3];
    float psqt[2];
    accumulate(m, s, acc, x0, psqt);
    l1_forward(m, x0, z1);
    return tail_forward(m, tm_stack(train_sample_bucket(m, s)), z1, x1, z2, x2, psqt) * TRAIN_OUTPUT_SCALE;
}

float train_target(const TrainSample *s, const TrainTarget *t) {
    return t->lambda * train_sigmoid(s->score / t->k) + (1.0f - t->lambda) * s->result;
}

/* Per-thread work space of one group. */
struct TrainScratch {
    _Alignas(64) float acc[TM_GROUP][2][TM_L1];
    _Alignas(64) float x0[TM_GROUP][2 * TM_L1];
    _Alignas(64) float dx0[TM_GROUP][2 * TM_L1];
    _Alignas(64) float z1[TM_GROUP][TM_L2];
    _Alignas(64) float dz1[TM_GROUP][TM_L2];
    float gy[TM_GROUP];
};

static TrainScratch *train_scratch_alloc(void) {
    TrainScratch *s = aligned_alloc(64, (sizeof(TrainScratch) + 63) & ~(size_t)63);
    if (s) memset(s, 0, sizeof *s);
    return s;
}

/* Loss, output gradient and the backward pass through the output and L2 layers for one
 * sample; leaves dLoss/dz1 in dz1 and dLoss/dy in *gy_out. */
static void tail_backward(const TrainModel *m, const TrainSample *s, const TrainTarget *t, float grad_scale,
                          const float *z1, const float psqt[2], float *dz1, float *gy_out, TrainGrad *g) {
    const float *P = m->p;
    float *G = g->small - TM_SMALL; /* index the gradient like P */
    _Alignas(64) float x1[TM_L2], z2[TM_L3], x2[TM_L3], dz2[TM_L3], dx1[TM_L2];
    const TrainStack st = tm_stack(train_sample_bucket(m, s));
    float y = tail_forward(m, st, z1, x1, z2, x2, psqt);
    float pred = train_sigmoid(y * TRAIN_OUTPUT_SCALE / t->k);
    float diff = pred - train_target(s, t);
    g->loss += (double)diff * diff;
    /* MSE through the sigmoid, then cp = OUTPUT_SCALE * y */
    float gy = grad_scale * 2.0f * diff * pred * (1.0f - pred) * TRAIN_OUTPUT_SCALE / t->k;
    *gy_out = gy;
    G[st.out_b] += gy;
    for (int o = 0; o < TM_L3; o++) {
        G[st.out_w + o] += gy * x2[o];
        dz2[o] = inside01(z2[o]) ? gy * P[st.out_w + o] : 0.0f;
    }
    memset(dx1, 0, sizeof dx1);
    for (int o = 0; o < TM_L3; o++) {
        float d = dz2[o];
        if (d == 0.0f) continue;
        G[st.l2_b + o] += d;
        float *restrict gw = G + st.l2_w + (size_t)o * TM_L2;
        const float *restrict w = P + st.l2_w + (size_t)o * TM_L2;
        for (int i = 0; i < TM_L2; i++) {
            gw[i] += d * x1[i];
            dx1[i] += d * w[i];
        }
    }
    for (int i = 0; i < TM_L2; i++) dz1[i] = inside01(z1[i]) ? dx1[i] : 0.0f;
}

/* l1_forward for a whole group: each transposed row is read once for all samples (the
 * per-sample sums run in the same order as in l1_forward). */
static void l1_forward_group(const TrainModel *m, TrainScratch *w, int n) {
    for (int s = 0; s < n; s++) memcpy(w->z1[s], m->p + TM_L1_B, TM_L2 * sizeof(float));
    for (int i = 0; i < 2 * TM_L1; i++) {
        const float *restrict wt = m->l1_t + (size_t)i * TM_L2;
        for (int s = 0; s < n; s++) { /* no test for x == 0: mispredicted branches cost more */
            float x = w->x0[s][i];
            float *restrict z = w->z1[s];
            for (int o = 0; o < TM_L2; o++) z[o] += x * wt[o];
        }
    }
}

/* L1 for a group: bias and weight gradients, and dLoss/dx0 of every sample. */
static void l1_backward_group(const TrainModel *m, TrainScratch *w, int n, TrainGrad *g) {
    const float *P = m->p;
    float *G = g->small - TM_SMALL;
    enum { BLOCK = 64 };
    for (int s = 0; s < n; s++) memset(w->dx0[s], 0, sizeof w->dx0[s]);
    for (int o = 0; o < TM_L2; o++) {
        bool any = false;
        for (int s = 0; s < n; s++) {
            G[TM_L1_B + o] += w->dz1[s][o];
            any |= w->dz1[s][o] != 0.0f;
        }
        if (!any) continue;
        float *gw = G + TM_L1_W + (size_t)o * 2 * TM_L1;
        const float *wr = P + TM_L1_W + (size_t)o * 2 * TM_L1;
        for (int i0 = 0; i0 < 2 * TM_L1; i0 += BLOCK) {
            _Alignas(64) float r[BLOCK];
            memcpy(r, gw + i0, sizeof r);
            for (int s = 0; s < n; s++) {
                float d = w->dz1[s][o];
                if (d == 0.0f) continue;
                const float *restrict x = w->x0[s] + i0;
                float *restrict dx = w->dx0[s] + i0;
                const float *restrict wt = wr + i0;
                for (int j = 0; j < BLOCK; j++) {
                    r[j] += d * x[j];
                    dx[j] += d * wt[j];
                }
            }
            memcpy(gw + i0, r, sizeof r);
        }
    }
}

/* Feature-layer gradient of one sample: bias, the active rows and their PSQT entries. */
static void scatter_features(const TrainModel *m, const TrainSample *s, const float acc[2][TM_L1], const float *dx0,
                             float gy, TrainGrad *g) {
    _Alignas(64) float dacc[2][TM_L1];
    if (m->screlu) /* d(c^2 * scale)/da = 2 c scale inside (0, 1) */
        for (int h = 0; h < 2; h++)
            for (int i = 0; i < TM_L1; i++) {
                float a = acc[h][i];
                dacc[h][i] = inside01(a) ? dx0[h * TM_L1 + i] * 2.0f * a * TRAIN_SCRELU_SCALE : 0.0f;
            }
    else
        for (int h = 0; h < 2; h++)
            for (int i = 0; i < TM_L1; i++) dacc[h][i] = inside01(acc[h][i]) ? dx0[h * TM_L1 + i] : 0.0f;
    float *restrict gb = g->small + (TM_FT_B - TM_SMALL);
    for (int i = 0; i < TM_L1; i++) gb[i] += dacc[0][i] + dacc[1][i];
    int n = s->count;
    for (int h = 0; h < 2; h++) {
        float gps = h == 0 ? 0.5f * gy : -0.5f * gy; /* y holds (psqt_stm - psqt_other) / 2 */
        const float *restrict d = dacc[h];
        const uint16_t *feat = s->feat[h];
        for (int k = 0; k < PREFETCH_AHEAD && k < n; k++) prefetch_row(g->ft + (size_t)feat[k] * TM_L1, GRAD_ROW_BYTES, 1);
        for (int k = 0; k < n; k++) {
            if (k + PREFETCH_AHEAD < n) prefetch_row(g->ft + (size_t)feat[k + PREFETCH_AHEAD] * TM_L1, GRAD_ROW_BYTES, 1);
            uint32_t f = feat[k];
            float *restrict row = g->ft + (size_t)f * TM_L1;
            for (int i = 0; i < TM_L1; i++) row[i] += d[i];
            g->psqt[f] += gps;
            g->touched[f] = 1;
        }
    }
}

/* --sparsity: the loss gains weight x mean(x0) per sample, pushing activations to zero, where a
 * whole 4-input group of zeros lets the engine's forward pass skip that group's weights. */
static void add_sparsity_gradient(TrainScratch *w, int n, float scaled_weight) {
    const float d = scaled_weight / (float)(2 * TM_L1);
    for (int s = 0; s < n; s++)
        for (int i = 0; i < 2 * TM_L1; i++) w->dx0[s][i] += d;
}

void train_model_backward(const TrainModel *m, const TrainSample *samples, size_t count, const TrainTarget *t,
                          float grad_scale, TrainGrad *g) {
    TrainScratch *w = g->scratch;
    for (size_t base = 0; base < count; base += TM_GROUP) {
        int n = count - base < TM_GROUP ? (int)(count - base) : TM_GROUP;
        float psqt[TM_GROUP][2];
        for (int s = 0; s < n; s++) accumulate(m, &samples[base + s], w->acc[s], w->x0[s], psqt[s]);
        l1_forward_group(m, w, n);
        for (int s = 0; s < n; s++)
            tail_backward(m, &samples[base + s], t, grad_scale, w->z1[s], psqt[s], w->dz1[s], &w->gy[s], g);
        l1_backward_group(m, w, n, g);
        if (t->sparsity > 0.0f) add_sparsity_gradient(w, n, t->sparsity * grad_scale);
        for (int s = 0; s < n; s++) scatter_features(m, &samples[base + s], w->acc[s], w->dx0[s], w->gy[s], g);
    }
}
