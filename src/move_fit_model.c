/* Softmax regression for the move guesser (contract in move_fit_model.h). */
#include "move_fit_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "move_guesser.h"
#include "movegen.h"

enum { F = MOVE_FEATURE_COUNT };

void move_fit_set_init(MoveFitSet *set) { memset(set, 0, sizeof *set); }

void move_fit_set_free(MoveFitSet *set) {
    free(set->first);
    free(set->label);
    free(set->features);
    move_fit_set_init(set);
}

static bool reserve(MoveFitSet *set, int moves) {
    if (set->positions + 2 > set->position_capacity) {
        int cap = set->position_capacity ? 2 * set->position_capacity : 1024;
        int *first = realloc(set->first, (size_t)cap * sizeof *first);
        if (!first) return false;
        set->first = first;
        int *label = realloc(set->label, (size_t)cap * sizeof *label);
        if (!label) return false;
        set->label = label;
        set->position_capacity = cap;
    }
    if (set->rows + (size_t)moves > set->row_capacity) {
        size_t cap = set->row_capacity ? 2 * set->row_capacity : 16384;
        while (cap < set->rows + (size_t)moves) cap *= 2;
        int *features = realloc(set->features, cap * F * sizeof *features);
        if (!features) return false;
        set->features = features;
        set->row_capacity = cap;
    }
    return true;
}

bool move_fit_set_add(MoveFitSet *set, const Position *pos, Move chosen) {
    MoveList list;
    generate_legal(pos, &list);
    int label = -1;
    for (int i = 0; i < list.count; i++)
        if (list.moves[i] == chosen) label = i;
    if (label < 0 || !reserve(set, list.count)) return false;
    if (set->positions == 0) set->first[0] = 0;
    for (int i = 0; i < list.count; i++) move_features(pos, list.moves[i], set->features + (set->rows + (size_t)i) * F);
    set->rows += (size_t)list.count;
    set->label[set->positions] = label;
    set->first[++set->positions] = (int)set->rows;
    return true;
}

/* Softmax of n logits into prob (shifted by the largest, so exp cannot overflow); returns
 * log of the sum of exponentials of the shifted logits and the shift, i.e. log-sum-exp. */
static double softmax(const double *logit, int n, double *prob) {
    double top = logit[0];
    for (int i = 1; i < n; i++) top = logit[i] > top ? logit[i] : top;
    double sum = 0;
    for (int i = 0; i < n; i++) sum += prob[i] = exp(logit[i] - top);
    for (int i = 0; i < n; i++) prob[i] /= sum;
    return top + log(sum);
}

void move_fit_train(const MoveFitSet *set, const int *use, int count, const MoveFitParams *params, double weight[F],
                    FILE *log) {
    memset(weight, 0, F * sizeof *weight);
    if (count <= 0) return;
    /* mean and spread of each feature over the moves fitted */
    double mean[F] = {0}, spread[F] = {0};
    size_t rows = 0;
    for (int u = 0; u < count; u++) {
        int p = use[u];
        for (int r = set->first[p]; r < set->first[p + 1]; r++, rows++)
            for (int k = 0; k < F; k++) mean[k] += set->features[(size_t)r * F + k];
    }
    for (int k = 0; k < F; k++) mean[k] /= (double)rows;
    for (int u = 0; u < count; u++)
        for (int r = set->first[use[u]]; r < set->first[use[u] + 1]; r++)
            for (int k = 0; k < F; k++) {
                double d = set->features[(size_t)r * F + k] - mean[k];
                spread[k] += d * d;
            }
    for (int k = 0; k < F; k++) spread[k] = sqrt(spread[k] / (double)rows);

    /* the standardized rows, in the order of use; constant features stay 0 */
    float *z = malloc(rows * F * sizeof *z);
    if (!z) {
        if (log) fprintf(log, "movefit: out of memory for %zu rows\n", rows);
        return;
    }
    size_t row = 0;
    for (int u = 0; u < count; u++)
        for (int r = set->first[use[u]]; r < set->first[use[u] + 1]; r++, row++)
            for (int k = 0; k < F; k++)
                z[row * F + k] = spread[k] > 1e-9 ? (float)((set->features[(size_t)r * F + k] - mean[k]) / spread[k]) : 0.0f;

    double v[F] = {0}, m1[F] = {0}, m2[F] = {0};
    const double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
    double logit[MAX_MOVES], prob[MAX_MOVES];
    for (int step = 1; step <= params->iterations; step++) {
        double grad[F] = {0}, loss = 0;
        row = 0;
        for (int u = 0; u < count; u++) {
            int p = use[u], n = set->first[p + 1] - set->first[p];
            const float *zp = z + row * F;
            for (int i = 0; i < n; i++) {
                double s = 0;
                for (int k = 0; k < F; k++) s += v[k] * zp[i * F + k];
                logit[i] = s;
            }
            loss += softmax(logit, n, prob) - logit[set->label[p]];
            prob[set->label[p]] -= 1; /* d loss / d logit = prob - onehot(label) */
            for (int i = 0; i < n; i++)
                for (int k = 0; k < F; k++) grad[k] += prob[i] * zp[i * F + k];
            row += (size_t)n;
        }
        double l2_loss = 0;
        for (int k = 0; k < F; k++) {
            double g = grad[k] / count + params->l2 * v[k];
            l2_loss += 0.5 * params->l2 * v[k] * v[k];
            m1[k] = beta1 * m1[k] + (1 - beta1) * g;
            m2[k] = beta2 * m2[k] + (1 - beta2) * g * g;
            double m1_hat = m1[k] / (1 - pow(beta1, step)), m2_hat = m2[k] / (1 - pow(beta2, step));
            v[k] -= params->learning_rate * m1_hat / (sqrt(m2_hat) + eps);
        }
        if (log && (step == 1 || step % 100 == 0 || step == params->iterations))
            fprintf(log, "movefit: step %d, training loss %.4f (L2 %.5f)\n", step, loss / count, l2_loss);
    }
    free(z);
    /* back to raw feature units; the mean's share is the same for every move of a position */
    for (int k = 0; k < F; k++) weight[k] = spread[k] > 1e-9 ? v[k] / spread[k] : 0;
}

void move_fit_quantize(const double weight[F], int out[F]) {
    for (int k = 0; k < F; k++) out[k] = (int)lround(weight[k] * MOVE_GUESSER_SCALE);
}

int move_fit_top_row(const MoveFitSet *set, int p, const int weight[F]) {
    int best = 0;
    long long best_score = 0;
    for (int r = set->first[p]; r < set->first[p + 1]; r++) {
        long long s = 0;
        for (int k = 0; k < F; k++) s += (long long)weight[k] * set->features[(size_t)r * F + k];
        if (r == set->first[p] || s > best_score) best = r - set->first[p], best_score = s;
    }
    return best;
}

double move_fit_loss(const MoveFitSet *set, const int *use, int count, const double weight[F]) {
    double logit[MAX_MOVES], prob[MAX_MOVES], loss = 0;
    for (int u = 0; u < count; u++) {
        int p = use[u], n = set->first[p + 1] - set->first[p];
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int k = 0; k < F; k++) s += weight[k] * set->features[(size_t)(set->first[p] + i) * F + k];
            logit[i] = s;
        }
        loss += softmax(logit, n, prob) - logit[set->label[p]];
    }
    return count ? loss / count : 0;
}
