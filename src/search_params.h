/* Search tunables, named in one place. Depths are in plies, margins in centipawns. */
#ifndef SQUALL_SEARCH_PARAMS_H
#define SQUALL_SEARCH_PARAMS_H

#define ASPIRATION_MIN_DEPTH 4
#define ASPIRATION_DELTA 16

#define RFP_MAX_DEPTH 8
#define RFP_MARGIN 75            /* per ply of depth, one ply less when improving */

#define RAZOR_MAX_DEPTH 3
#define RAZOR_MARGIN 220         /* per ply of depth */

#define NMP_MIN_DEPTH 3
#define NMP_BASE_REDUCTION 3
#define NMP_DEPTH_DIVISOR 3
#define NMP_EVAL_DIVISOR 200
#define NMP_VERIFY_DEPTH 12      /* from here on a null-move cutoff is verified by a reduced search */

#define IIR_MIN_DEPTH 4

#define FUTILITY_MAX_DEPTH 8
#define FUTILITY_BASE 90
#define FUTILITY_PER_DEPTH 90

#define LMP_MAX_DEPTH 8

#define SEE_QUIET_MARGIN 60      /* quiets: prune below -margin * depth */
#define SEE_NOISY_MARGIN 20      /* captures: prune below -margin * depth^2 */
#define SEE_MAX_DEPTH 8

#define SINGULAR_MIN_DEPTH 8
#define SINGULAR_MARGIN 2        /* per ply of depth */
#define DOUBLE_EXTENSION_MARGIN 20

#define LMR_BASE 0.75
#define LMR_DIVISOR 2.25
#define LMR_HISTORY_DIVISOR 8192

#define QS_FUTILITY_MARGIN 150

#define HISTORY_MAX 16384
#define HISTORY_BONUS_MAX 1600

#endif
