/* AdamW update and learning-rate schedule. */
#include "train_optim.h"

#include <math.h>

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#endif

float lr_schedule_at(const LrSchedule *s, int64_t step) {
    double warm = s->warmup_steps > 0 && step < s->warmup_steps ? (double)(step + 1) / (double)s->warmup_steps : 1.0;
    double lo = s->lr * s->final_ratio;
    if (s->decay_steps > 0) {
        double done = (double)(step - s->decay_start) / (double)s->decay_steps;
        done = done < 0 ? 0 : done > 1 ? 1 : done;
        return (float)((s->lr - (s->lr - lo) * done) * warm);
    }
    double span = (double)(s->total_steps - s->warmup_steps);
    double progress = span > 0 ? (double)(step - s->warmup_steps) / span : 1.0;
    if (progress < 0) progress = 0;
    if (progress > 1) progress = 1;
    double lr = lo + (s->lr - lo) * 0.5 * (1.0 + cos(3.14159265358979323846 * progress));
    return (float)(lr * warm);
}

AdamStep adam_step_for(float lr, float weight_decay, int64_t t) {
    AdamStep s;
    s.lr = lr;
    s.weight_decay = weight_decay;
    s.bias1 = (float)(1.0 - pow(ADAM_BETA1, (double)t));
    s.bias2 = (float)(1.0 - pow(ADAM_BETA2, (double)t));
    return s;
}

void adam_update(float *restrict p, float *restrict m, float *restrict v, const float *restrict g, size_t n,
                 const AdamStep *s, float limit) {
    const float b1 = ADAM_BETA1, b2 = ADAM_BETA2;
    const float step = s->lr / s->bias1, inv_b2 = 1.0f / s->bias2, decay = fmaxf(0.0f, 1.0f - s->lr * s->weight_decay);
    size_t i = 0;
#if defined(__AVX2__) && defined(__FMA__)
    /* the tail loop's arithmetic, eight lanes at a time */
    const __m256 vb1 = _mm256_set1_ps(b1), vb1c = _mm256_set1_ps(1.0f - b1);
    const __m256 vb2 = _mm256_set1_ps(b2), vb2c = _mm256_set1_ps(1.0f - b2);
    const __m256 vstep = _mm256_set1_ps(step), vinv = _mm256_set1_ps(inv_b2), veps = _mm256_set1_ps(ADAM_EPS);
    const __m256 vdecay = _mm256_set1_ps(decay), vhi = _mm256_set1_ps(limit), vlo = _mm256_set1_ps(-limit);
    for (; i + 8 <= n; i += 8) {
        __m256 gi = _mm256_loadu_ps(g + i);
        __m256 mi = _mm256_add_ps(_mm256_mul_ps(vb1, _mm256_loadu_ps(m + i)), _mm256_mul_ps(vb1c, gi));
        __m256 vi = _mm256_add_ps(_mm256_mul_ps(vb2, _mm256_loadu_ps(v + i)), _mm256_mul_ps(vb2c, _mm256_mul_ps(gi, gi)));
        __m256 den = _mm256_add_ps(_mm256_sqrt_ps(_mm256_mul_ps(vi, vinv)), veps);
        __m256 pi = _mm256_sub_ps(_mm256_mul_ps(_mm256_loadu_ps(p + i), vdecay),
                                  _mm256_div_ps(_mm256_mul_ps(vstep, mi), den));
        pi = _mm256_min_ps(_mm256_max_ps(pi, vlo), vhi);
        _mm256_storeu_ps(m + i, mi);
        _mm256_storeu_ps(v + i, vi);
        _mm256_storeu_ps(p + i, pi);
    }
#endif
    for (; i < n; i++) {
        float gi = g[i];
        float mi = b1 * m[i] + (1.0f - b1) * gi;
        float vi = b2 * v[i] + (1.0f - b2) * (gi * gi);
        float pi = p[i] * decay - (step * mi) / (sqrtf(vi * inv_b2) + ADAM_EPS);
        m[i] = mi, v[i] = vi;
        p[i] = pi > limit ? limit : pi < -limit ? -limit : pi;
    }
}
