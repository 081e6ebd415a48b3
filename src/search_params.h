/* Every search constant, named in one place: pruning, extensions, reductions, move ordering,
 * history, the transposition table's replacement, time allocation and the lazy evaluation.
 *
 * SEARCH_TUNABLES lists each tunable as TUNABLE(name, default, min, max, step). Release builds
 * compile the defaults as constants; min, max and step give the range and the perturbation
 * step a tuner may use, and are checked here so a default can never sit outside its range.
 * Tuning builds (make TUNE=1, SQUALL_TUNE) make each name a per-thread variable instead: see
 * below the table. Depths are in plies, margins and values in centipawns, *_PERCENT values in
 * hundredths. At the end: sizes and intervals that are not tuned. */
#ifndef SQUALL_SEARCH_PARAMS_H
#define SQUALL_SEARCH_PARAMS_H

#define SEARCH_TUNABLES(TUNABLE)                                                                        \
    /* aspiration windows: +-delta around the previous score, widened by a percentage per fail */     \
    TUNABLE(ASPIRATION_MIN_DEPTH, 4, 2, 8, 1)                                                           \
    TUNABLE(ASPIRATION_DELTA, 16, 5, 60, 3)                                                             \
    TUNABLE(ASPIRATION_GROWTH_PERCENT, 50, 20, 150, 8)                                                  \
    /* after a fail high the root searches one ply shallower per fail high since the last fail low */\
    TUNABLE(ASPIRATION_FAIL_HIGH_REDUCTION, 0, 0, 1, 1)                                                 \
    /* reverse futility: prune when eval - margin * (depth - improving) >= beta */                    \
    TUNABLE(RFP_MAX_DEPTH, 8, 4, 12, 1)                                                                 \
    TUNABLE(RFP_MARGIN, 75, 30, 150, 6)                                                                 \
    TUNABLE(RFP_RETURN_MIDPOINT, 0, 0, 1, 1) /* the cutoff returns (eval + beta) / 2, not eval */     \
    /* razoring: drop into quiescence when eval + margin * depth < alpha */                           \
    TUNABLE(RAZOR_MAX_DEPTH, 3, 1, 6, 1)                                                                \
    TUNABLE(RAZOR_MARGIN, 219, 100, 400, 15)                                                            \
    /* null move: R = base + depth / divisor + min((eval - beta) / eval divisor, eval cap) */         \
    TUNABLE(NMP_MIN_DEPTH, 3, 1, 6, 1)                                                                  \
    TUNABLE(NMP_BASE_REDUCTION, 3, 1, 5, 1)                                                             \
    TUNABLE(NMP_DEPTH_DIVISOR, 3, 2, 6, 1)                                                              \
    TUNABLE(NMP_EVAL_DIVISOR, 202, 80, 400, 20)                                                         \
    TUNABLE(NMP_EVAL_REDUCTION_MAX, 3, 1, 6, 1)                                                         \
    /* from this depth a null-move cutoff is verified without null moves for the next plies */        \
    TUNABLE(NMP_VERIFY_DEPTH, 12, 6, 20, 1)                                                             \
    TUNABLE(NMP_VERIFY_PLY_PERCENT, 75, 25, 100, 5) /* of the reduced depth */                        \
    /* internal iterative reduction of PV and cut nodes without a TT move */                          \
    TUNABLE(IIR_MIN_DEPTH, 4, 2, 8, 1)                                                                  \
    /* futility pruning of quiets: static eval + base + per_depth * depth <= alpha */                 \
    TUNABLE(FUTILITY_MAX_DEPTH, 8, 4, 12, 1)                                                            \
    TUNABLE(FUTILITY_BASE, 90, 20, 200, 10)                                                             \
    TUNABLE(FUTILITY_PER_DEPTH, 90, 40, 180, 8)                                                         \
    /* late-move pruning: quiets stop after (base + depth^2) / (improving ? 1 : divisor) moves */     \
    TUNABLE(LMP_MAX_DEPTH, 8, 4, 12, 1)                                                                 \
    TUNABLE(LMP_BASE, 3, 1, 8, 1)                                                                       \
    TUNABLE(LMP_NOT_IMPROVING_DIVISOR, 2, 1, 3, 1)                                                      \
    TUNABLE(PRUNE_AT_REDUCED_DEPTH, 0, 0, 1, 1) /* futility, quiet SEE: at the quiet's LMR depth */   \
    /* SEE pruning: quiets below -margin * depth, captures below -margin * depth^2 */                 \
    TUNABLE(SEE_MAX_DEPTH, 8, 4, 12, 1)                                                                 \
    TUNABLE(SEE_QUIET_MARGIN, 59, 20, 120, 6)                                                           \
    TUNABLE(SEE_NOISY_MARGIN, 21, 5, 60, 3)                                                             \
    /* singular extension: the TT move is verified against singular beta = tt score - margin * depth  \
     * by a search to depth / divisor; gated by depth, TT depth and a ply limit */                    \
    TUNABLE(SINGULAR_MIN_DEPTH, 8, 5, 12, 1)                                                            \
    TUNABLE(SINGULAR_TT_DEPTH_MARGIN, 3, 1, 5, 1) /* TT entry at least depth - margin deep */         \
    TUNABLE(SINGULAR_MARGIN, 2, 1, 4, 1)                                                                \
    TUNABLE(SINGULAR_DEPTH_DIVISOR, 2, 2, 3, 1)                                                         \
    TUNABLE(SINGULAR_MAX_PLY_PER_DEPTH, 2, 1, 4, 1) /* only while ply < this * depth + base */        \
    TUNABLE(SINGULAR_MAX_PLY_BASE, 20, 0, 40, 4)                                                        \
    TUNABLE(DOUBLE_EXTENSION_MARGIN, 20, 5, 60, 4)                                                      \
    /* not singular: plies taken off the TT move when its TT score alone beats beta, else at an         \
     * expected cut node (0: no reduction there) */                                                     \
    TUNABLE(SINGULAR_TT_BETA_REDUCTION, 1, 0, 3, 1)                                                     \
    TUNABLE(SINGULAR_CUT_NODE_REDUCTION, 0, 0, 3, 1)                                                    \
    /* check extension: only while ply < this * root depth (0: no check extension) */                \
    TUNABLE(CHECK_EXTENSION_PLY_PER_DEPTH, 2, 0, 4, 1)                                                  \
    /* late-move reductions: table base + ln(depth) ln(moves) / divisor, then adjustments */          \
    TUNABLE(LMR_MIN_DEPTH, 2, 2, 4, 1)                                                                  \
    /* moves of a node searched before any is reduced (at the root one more) */                        \
    TUNABLE(LMR_MIN_MOVES, 1, 1, 8, 1)                                                                  \
    TUNABLE(LMR_BASE_PERCENT, 78, 0, 150, 8)                                                            \
    TUNABLE(LMR_DIVISOR_PERCENT, 172, 100, 350, 10)                                                     \
    TUNABLE(LMR_NOISY_DIVISOR, 2, 1, 4, 1) /* captures take the table value over this */              \
    TUNABLE(LMR_NON_PV, 1, 0, 2, 1)                                                                     \
    TUNABLE(LMR_CUT_NODE, 1, 0, 2, 1)                                                                   \
    TUNABLE(LMR_IMPROVING, 1, 0, 2, 1)                                                                  \
    TUNABLE(LMR_GIVES_CHECK, 1, 0, 2, 1)                                                                \
    TUNABLE(LMR_TT_PV, 1, 0, 2, 1)                                                                      \
    TUNABLE(LMR_KILLER, 1, 0, 2, 1)                                                                     \
    TUNABLE(LMR_HISTORY_DIVISOR, 8268, 2048, 16384, 512)                                                \
    /* captures: less reduction by capture history * percent / (100 * LMR_HISTORY_DIVISOR) (0: off) */\
    TUNABLE(LMR_CAPTURE_HISTORY_PERCENT, 0, 0, 400, 20)                                                 \
    /* quiets: more reduction when the TT move is a capture (0: off) */                                \
    TUNABLE(LMR_TT_CAPTURE, 0, 0, 2, 1)                                                                 \
    /* a reduced search that beat alpha is searched again one ply deeper when it beat the best score \
     * by margin + 2 * depth, one ply shallower when by less than depth (margin 0: off) */            \
    TUNABLE(LMR_DEEPER_MARGIN, 0, 0, 120, 6)                                                            \
    /* the continuation history of the move four plies back also orders, reduces and learns (0: off) */\
    TUNABLE(CONT_HISTORY_PLY4, 0, 0, 1, 1)                                                              \
    /* butterfly history apart by whether the opponent attacks the move's from and to squares (0: off) */\
    TUNABLE(THREAT_HISTORY, 1, 0, 1, 1)                                                                 \
    /* a node that fails low rewards the opponent's quiet move that led to it: its history gets    \
     * percent of the depth's bonus (0: off) */                                                       \
    TUNABLE(PRIOR_QUIET_BONUS_PERCENT, 0, 0, 300, 15)                                                   \
    /* the quiet move that led here gets -scale * (its mover's static evaluation + ours) as butterfly \
     * history, within +-max: how much it improved its side's evaluation (scale 0: off) */            \
    TUNABLE(EVAL_DIFF_HISTORY_SCALE, 0, 0, 20, 1)                                                       \
    TUNABLE(EVAL_DIFF_HISTORY_MAX, 1000, 200, 3000, 100)                                                \
    /* history pruning: a late quiet with history below -margin * depth is skipped at depth <= max   \
     * (max 0: off) */                                                                                 \
    TUNABLE(HISTORY_PRUNE_MAX_DEPTH, 0, 0, 6, 1)                                                        \
    TUNABLE(HISTORY_PRUNE_MARGIN, 2500, 500, 6000, 250)                                                 \
    /* ProbCut (min depth 0: off): from this depth, a capture that SEE says gains beta + margin - eval \
     * and whose search, reduced by the reduction, beats beta + margin cuts the node */              \
    TUNABLE(PROBCUT_MIN_DEPTH, 0, 0, 8, 1)                                                              \
    TUNABLE(PROBCUT_MARGIN, 200, 80, 400, 15)                                                           \
    TUNABLE(PROBCUT_REDUCTION, 4, 2, 6, 1)                                                              \
    /* correction history (correction.h, 0: off): the evaluation plus a blend of the pawn- and      \
     * material-keyed errors (pawn share in percent); entries move towards a search result's error  \
     * with weight min((depth + 1) * per_depth, cap) / 256 and stay within +-limit centipawns */      \
    TUNABLE(CORRECTION_HISTORY, 0, 0, 1, 1)                                                             \
    TUNABLE(CORRECTION_PAWN_PERCENT, 60, 0, 100, 10)                                                    \
    TUNABLE(CORRECTION_WEIGHT_PER_DEPTH, 4, 1, 16, 1)                                                   \
    TUNABLE(CORRECTION_WEIGHT_CAP, 64, 16, 128, 8)                                                      \
    TUNABLE(CORRECTION_LIMIT_CP, 100, 30, 300, 15)                                                      \
    /* quiescence: skip captures that cannot reach alpha by this margin, and SEE-losing ones */       \
    TUNABLE(QS_FUTILITY_MARGIN, 149, 50, 300, 12)                                                       \
    TUNABLE(QS_SEE_THRESHOLD, 0, -100, 100, 10)                                                         \
    /* history: gravity limit, bonus = min(quadratic * depth^2 + linear * depth, max) */             \
    TUNABLE(HISTORY_MAX, 16384, 4096, 30000, 1000)                                                      \
    TUNABLE(HISTORY_BONUS_QUADRATIC, 16, 4, 32, 2)                                                      \
    TUNABLE(HISTORY_BONUS_LINEAR, 32, 0, 96, 6)                                                         \
    TUNABLE(HISTORY_BONUS_MAX, 1600, 400, 4000, 150)                                                    \
    /* piece values for static exchange and for ordering captures (victim value * weight + capture \
     * history; promotions add the new piece's value * weight); captures that lose more than the    \
     * good-capture threshold go after the quiets */                                                 \
    TUNABLE(SEE_VALUE_PAWN, 100, 60, 150, 8)                                                            \
    TUNABLE(SEE_VALUE_KNIGHT, 320, 220, 450, 15)                                                        \
    TUNABLE(SEE_VALUE_BISHOP, 330, 220, 450, 15)                                                        \
    TUNABLE(SEE_VALUE_ROOK, 500, 380, 700, 20)                                                          \
    TUNABLE(SEE_VALUE_QUEEN, 950, 750, 1300, 40)                                                        \
    TUNABLE(ORDER_VICTIM_WEIGHT, 16, 4, 64, 4)                                                          \
    TUNABLE(ORDER_PROMOTION_WEIGHT, 8, 0, 32, 2)                                                        \
    TUNABLE(GOOD_CAPTURE_SEE_THRESHOLD, 0, -200, 200, 15)                                               \
    /* transposition table replacement: a same-key non-exact store of this generation is dropped */  \
    /* when the entry is more than KEEP_DEPTH deeper; victims by depth - AGE_WEIGHT * age */          \
    TUNABLE(TT_KEEP_DEPTH_MARGIN, 3, 0, 8, 1)                                                           \
    TUNABLE(TT_AGE_WEIGHT, 8, 1, 32, 2)                                                                 \
    /* time allocation: the clock less a safety margin (1/divisor of it, at most max ms), spread */   \
    /* over movestogo (capped) or an estimate that shrinks by one per PLIES_PER_STEP plies */         \
    TUNABLE(TM_SAFETY_DIVISOR, 20, 10, 50, 3)                                                           \
    TUNABLE(TM_SAFETY_MAX_MS, 1000, 200, 3000, 100)                                                     \
    TUNABLE(TM_MOVESTOGO_MAX, 40, 20, 60, 3)                                                            \
    TUNABLE(TM_MOVESTOGO_ESTIMATE, 30, 15, 50, 2)                                                       \
    TUNABLE(TM_MOVESTOGO_PLIES_PER_STEP, 12, 4, 30, 2)                                                  \
    TUNABLE(TM_MOVESTOGO_STEPS_MAX, 5, 0, 15, 1)                                                        \
    TUNABLE(TM_INCREMENT_PERCENT, 75, 40, 100, 5)                                                       \
    TUNABLE(TM_SOFT_MAX_DIVISOR, 2, 2, 6, 1)   /* soft target at most usable / this */               \
    TUNABLE(TM_HARD_DIVISOR, 4, 2, 8, 1)       /* hard cap usable / this (all of it at movestogo 1) */ \
    /* after each iteration the soft target is scaled by best-move stability and a falling score */   \
    TUNABLE(TM_STABLE_LONG_ITERATIONS, 4, 3, 8, 1)                                                      \
    TUNABLE(TM_STABLE_LONG_PERCENT, 55, 25, 90, 5)                                                      \
    TUNABLE(TM_STABLE_SHORT_ITERATIONS, 2, 1, 4, 1)                                                     \
    TUNABLE(TM_STABLE_SHORT_PERCENT, 80, 50, 100, 5)                                                    \
    TUNABLE(TM_UNSTABLE_PERCENT, 150, 100, 250, 10) /* the best move just changed */                  \
    TUNABLE(TM_SCALE_MIN_DEPTH, 5, 2, 10, 1)        /* instability and score drops count above it */  \
    TUNABLE(TM_SCORE_DROP, 30, 10, 80, 5)                                                               \
    TUNABLE(TM_SCORE_DROP_PERCENT, 130, 100, 200, 8)                                                    \
    TUNABLE(TM_SINGLE_REPLY_PERCENT, 10, 1, 50, 3)                                                      \
    /* node effort: the share of the root's nodes spent under the best move (permille) scales the */  \
    /* target by (BASE - share x WEIGHT / 1000) percent; WEIGHT 0 turns it off (a candidate, off) */  \
    TUNABLE(TM_EFFORT_BASE_PERCENT, 140, 100, 200, 5)                                                  \
    TUNABLE(TM_EFFORT_WEIGHT_PERCENT, 0, 0, 150, 8)                                                    \
    /* NNUE lazy tier: the PSQT sum alone answers nodes this far outside (alpha, beta); it is the */  \
    /* default of the LazyMargin option */                                                             \
    TUNABLE(LAZY_EVAL_MARGIN, 300, 100, 1000, 40)

/* NAME_DEFAULT: each default as a constant, in every build (static initializers use them). */
#define SEARCH_PARAM_DEFAULT(name, value, min, max, step) name##_DEFAULT = (value),
enum { SEARCH_TUNABLES(SEARCH_PARAM_DEFAULT) };
#undef SEARCH_PARAM_DEFAULT

#ifdef SQUALL_TUNE
/* Tuning build: each name is a thread-local variable holding the constants of the search that
 * runs on that thread. A search carries its own (EngineSettings.params) and installs them on
 * every thread it runs on (settings_install_search_params), so searches with different
 * constants run side by side; every tunable is also a UCI spin option. tunables.c defines them. */
#define SEARCH_PARAM_INDEX(name, value, min, max, step) name##_INDEX,
enum { SEARCH_TUNABLES(SEARCH_PARAM_INDEX) SEARCH_TUNABLE_COUNT };
#undef SEARCH_PARAM_INDEX

#define SEARCH_PARAM_DECLARE(name, value, min, max, step) extern _Thread_local int name;
SEARCH_TUNABLES(SEARCH_PARAM_DECLARE)
#undef SEARCH_PARAM_DECLARE

typedef struct {
    int values[SEARCH_TUNABLE_COUNT]; /* by NAME_INDEX */
} SearchParams;

typedef struct {
    const char *name;
    int default_value, min, max, step;
} TunableInfo;

extern const TunableInfo search_tunables[SEARCH_TUNABLE_COUNT]; /* the table, in its order */

void search_params_install(const SearchParams *params);         /* the calling thread's values */

/* Tables computed from the constants: per thread, like the constants. */
#define SEARCH_PARAM_PER_THREAD _Thread_local
#define SEARCH_PARAM_TABLE _Thread_local
#else
#define SEARCH_PARAM_CONSTANT(name, value, min, max, step) name = (value),
enum { SEARCH_TUNABLES(SEARCH_PARAM_CONSTANT) };
#undef SEARCH_PARAM_CONSTANT

/* Tables computed from the constants: global, and constant where they can be. */
#define SEARCH_PARAM_PER_THREAD
#define SEARCH_PARAM_TABLE const
#endif

#define SEARCH_PARAM_RANGE_CHECK(name, value, min, max, step) \
    _Static_assert((min) <= (value) && (value) <= (max) && (step) > 0, #name ": default outside its range");
SEARCH_TUNABLES(SEARCH_PARAM_RANGE_CHECK)
#undef SEARCH_PARAM_RANGE_CHECK

/* Not tuned: array sizes, a king's exchange value, polling and reporting intervals. */
#define CORRECTION_WEIGHT_MAX 256 /* correction weights are in 1/256 */
#define QUIETS_TRACKED_MAX 64     /* quiets tried before a cutoff that get the malus */
#define CAPTURES_TRACKED_MAX 32
#define SEE_VALUE_KING 20000  /* more than everything else on the board */
#define EVASION_CAPTURE_BONUS 1000000 /* evasions: captures before any quiet */
#define LIMIT_CHECK_NODES 1024 /* power of two: clock and node limits are polled this often */
/* The least safety margin a clock keeps (timeman.c): room for a loaded machine or a slow GUI.
 * Not tuned: games at a fast time control would trade it for thinking time. */
#define TM_SAFETY_MIN_MS 150
#define BOUND_LINES_AFTER_MS 3000 /* fail-high/low lines are reported after this */
#define CURRMOVE_AFTER_MS 3000    /* and the root move being searched after this */

#endif
