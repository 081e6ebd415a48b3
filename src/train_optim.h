/* AdamW and the learning-rate schedule of the trainer. */
#ifndef SQUALL_TRAIN_OPTIM_H
#define SQUALL_TRAIN_OPTIM_H

#include <stddef.h>
#include <stdint.h>

#define ADAM_BETA1 0.9f
#define ADAM_BETA2 0.999f
#define ADAM_EPS 1e-8f

/* What one optimizer step needs besides the arrays: the scheduled rate and the bias
 * corrections of step t (1 - beta^t). */
typedef struct {
    float lr;
    float weight_decay; /* decoupled: p -= lr * weight_decay * p */
    float bias1, bias2;
} AdamStep;

/* Learning-rate schedule: linear warm-up over warmup_steps, then either
 *   cosine: decay from lr to lr * final_ratio at total_steps, or
 *   stable-then-decay (decay_steps > 0): lr until decay_start, then a linear decay to
 *   lr * final_ratio over decay_steps (the trainer moves decay_start earlier when the
 *   validation loss stops improving, so the rate comes down where the loss bottoms out). */
typedef struct {
    float lr, final_ratio;
    int64_t warmup_steps, total_steps;
    int64_t decay_start, decay_steps;
} LrSchedule;

float lr_schedule_at(const LrSchedule *s, int64_t step);
/* The AdamStep of step t (t >= 1). */
AdamStep adam_step_for(float lr, float weight_decay, int64_t t);
/* One AdamW update of n parameters from gradient g, then clamps p to +-limit. */
void adam_update(float *p, float *m, float *v, const float *g, size_t n, const AdamStep *s, float limit);

#endif
