/* Alpha-beta search: iterative deepening with aspiration windows, PVS, a shared TT,
 * quiescence, extensions and pruning steps as small helpers. Each Lazy SMP thread runs
 * this search on its own SearchThread; threads.c starts them. */
#include "search.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "accumulator.h"
#include "correction.h"
#include "evaluate.h"
#include "history.h"
#include "move_guesser.h"
#include "movepicker.h"
#include "search_params.h"
#include "search_thread.h"
#include "see.h"
#include "strength.h"

typedef struct {
    int static_eval;                /* SCORE_NONE in check */
    int raw_eval;                   /* static_eval before correction history; SCORE_NONE in check or lazy */
    bool static_eval_lazy;          /* static_eval is the lazy tier's PSQT value: it only says that this
                                     * node lies far outside its window, so neither the TT nor
                                     * later plies (improving) may take it for an evaluation */
    Move move;                      /* move made from this ply (MOVE_NULL for a null move) */
    int moved_piece;
    Move killers[2];
    Move excluded;                  /* singular-extension verification skips this move */
    const int16_t (*cont)[SQUARE_NB]; /* continuation table selected by this ply's move */
    Bitboard threats;               /* squares the opponent attacks here (THREAT_HISTORY only, else 0) */
    int pv_length;
    Move pv[MAX_PLY + 1];
} Stack;

typedef struct {
    Move move;
    int score, prev_score;
    int seldepth;
    int pv_length;
    Move pv[MAX_PLY];
    uint64_t nodes; /* searched under this move in all iterations: the time manager's effort share */
} RootMove;

struct SearchThread {
    int id;
    SearchShared *shared;
    Position pos;
    Accumulator *accumulator;
    bool nnue;                      /* the NNUE evaluates: make/unmake keep the accumulator in step */
    History *history;
    Stack stack_storage[MAX_PLY + 10];
    _Atomic uint64_t nodes;
    int seldepth;
    int nmp_min_ply;                /* null move is off below this ply while verifying */
    RootMove root_moves[MAX_MOVES];
    int root_count, pv_index, multipv;
    int reported_lines;             /* lines shown per iteration: the settings' MultiPV */
    int completed_depth;
    int root_depth;                 /* depth of the iteration in progress */
    EvalStats eval_stats;
    ReductionStats reductions;
    Move reported_pv[MAX_PLY];      /* the last first line shown, so the final answer can match it */
    int reported_length;
    /* Weakened play: the candidate lines of the last completed iteration, best first. */
    RootMove settled[STRENGTH_CANDIDATES];
    int settled_count, settled_depth;
};

/* What the pruning, extension and reduction helpers know about the node being searched.
 * alpha rises as moves fail high and depth drops by internal iterative reduction, so the
 * helpers see the node as it stands when they are asked. */
typedef struct {
    Stack *ss;
    int alpha, beta, depth, ply;
    bool pv_node, cut_node, root, in_check;
    int eval;           /* static evaluation, refined by the TT score when its bound allows */
    bool improving;     /* static evaluation above the one two plies earlier */
    bool tt_hit;
    TTHit tt;           /* all zero without a hit */
    int tt_score;       /* ply-adjusted; SCORE_NONE without a hit or a stored score */
    Move tt_move;       /* at the root, the best move of the previous iteration */
    bool tt_capture;    /* the TT move is a capture or a queen promotion (set only when LMR_TT_CAPTURE reads it) */
    bool tt_pv;         /* a PV node now, or when the TT entry was stored */
    Move excluded;      /* singular verification: the move left out of this search */
} SearchNode;

/* One move of the move loop, as the pruning and reduction helpers see it. */
typedef struct {
    Move move;
    int number;         /* 1 for the first move searched at the node */
    bool quiet, gives_check;
    int history;        /* butterfly + continuation history of a quiet; capture history of a
                         * capture when capture LMR reads it; else 0 */
} MoveInfo;

/* Moves searched at the node that did not become its best: they get the malus on a cutoff. */
typedef struct {
    Move quiets[QUIETS_TRACKED_MAX], captures[CAPTURES_TRACKED_MAX];
    int quiet_count, capture_count;
} TriedMoves;

/* Late-move reductions by depth and move number, and the LMR constants they were computed for:
 * computed at start-up, and in tuning builds again on a thread whose search has other ones. */
static SEARCH_PARAM_PER_THREAD int lmr_table[MAX_PLY][MAX_MOVES];
static SEARCH_PARAM_PER_THREAD int lmr_table_base = -1, lmr_table_divisor = -1;

static void lmr_table_update(void) {
    if (lmr_table_base == LMR_BASE_PERCENT && lmr_table_divisor == LMR_DIVISOR_PERCENT) return;
    _Static_assert(MAX_PLY <= MAX_MOVES, "log_of covers the depths too");
    double log_of[MAX_MOVES]; /* 256 logarithms instead of 32,000 (start-up time) */
    for (int i = 1; i < MAX_MOVES; i++) log_of[i] = log(i);
    for (int d = 1; d < MAX_PLY; d++)
        for (int m = 1; m < MAX_MOVES; m++)
            lmr_table[d][m] = (int)(LMR_BASE_PERCENT / 100.0 + log_of[d] * log_of[m] / (LMR_DIVISOR_PERCENT / 100.0));
    lmr_table_base = LMR_BASE_PERCENT, lmr_table_divisor = LMR_DIVISOR_PERCENT;
}

/* ---------- small helpers ---------- */

static inline uint64_t thread_nodes(const SearchThread *t) { return atomic_load_explicit(&t->nodes, memory_order_relaxed); }
static inline void count_node(SearchThread *t) {
    atomic_store_explicit(&t->nodes, thread_nodes(t) + 1, memory_order_relaxed);
}
static inline bool stopped(const SearchShared *s) { return atomic_load_explicit(&s->stop, memory_order_relaxed); }

static uint64_t total_nodes(const SearchShared *s) {
    uint64_t n = 0;
    for (int i = 0; i < s->thread_count; i++) n += thread_nodes(s->threads[i]);
    return n;
}

static inline int history_bonus(int depth) {
    int b = HISTORY_BONUS_QUADRATIC * depth * depth + HISTORY_BONUS_LINEAR * depth;
    return b > HISTORY_BONUS_MAX ? HISTORY_BONUS_MAX : b;
}

/* The butterfly buckets' threat squares: what the opponent attacks, with THREAT_HISTORY. */
static inline Bitboard opponent_threats(const Position *pos) { return THREAT_HISTORY ? pos_attacks_by(pos, !pos->side) : 0; }

static inline bool is_quiet(const Position *pos, Move m) {
    return !pos_is_capture(pos, m) && !move_is_queen_promotion(m);
}

static const int16_t (*sentinel_cont(const SearchThread *t))[SQUARE_NB] {
    return (const int16_t (*)[SQUARE_NB])t->history->continuation[NO_PIECE][0];
}

/* pause: every thread waits here until resume or stop. */
static void wait_while_paused(const SearchShared *s) {
    while (atomic_load_explicit(&s->paused, memory_order_relaxed) && !stopped(s)) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
}

/* Every LIMIT_CHECK_NODES nodes: each thread honours a pause; the main thread checks the time
 * and node limits. The budget is read only once pondering has ended (acquire: ponderhit sets
 * it before it ends pondering). */
static void check_limits(SearchThread *t) {
    SearchShared *s = t->shared;
    if (thread_nodes(t) & (LIMIT_CHECK_NODES - 1)) return;
    wait_while_paused(s);
    if (t->id != 0 || t->completed_depth < 1) return;
    if (s->limits.nodes && total_nodes(s) >= s->limits.nodes) atomic_store(&s->stop, true);
    if (!atomic_load_explicit(&s->pondering, memory_order_acquire) && s->tm.timed && timeman_elapsed(&s->tm) >= s->tm.hard_ms)
        atomic_store(&s->stop, true);
}

/* The evaluator's value; *lazy (when given) tells that the lazy tier answered with the PSQT sum
 * alone, which the evaluator counts in eval_stats. */
static inline int evaluate_node(SearchThread *t, int alpha, int beta, bool *lazy) {
    uint64_t lazy_before = t->eval_stats.lazy;
    int value = evaluate(&t->pos, t->nnue ? t->accumulator : NULL, alpha, beta, &t->shared->settings, &t->eval_stats);
    if (lazy) *lazy = t->eval_stats.lazy != lazy_before;
    return value;
}

/* The static evaluation the TT and other plies may rely on: none when the lazy tier gave it. */
static inline int exact_static_eval(const Stack *ss) { return ss->static_eval_lazy ? SCORE_NONE : ss->static_eval; }

static void make_move(SearchThread *t, Stack *ss, Move m) {
    int pc = t->pos.board[move_from(m)];
    ss->move = m;
    ss->moved_piece = pc;
    ss->cont = (const int16_t (*)[SQUARE_NB])t->history->continuation[pc][move_to(m)];
    pos_make_move(&t->pos, m);
    if (t->nnue) accumulator_after_make(t->accumulator, &t->pos);
}

static void unmake_move(SearchThread *t) {
    pos_unmake_move(&t->pos);
    if (t->nnue) accumulator_after_unmake(t->accumulator, &t->pos);
}

/* ---------- history updates ---------- */

/* Butterfly and continuation histories of the quiet move m that side plays with piece pc from
 * the ply of ss (the moves 1, 2 and, with CONT_HISTORY_PLY4, 4 plies before it select the
 * continuation tables). */
static void update_quiet_history_of(History *h, const Stack *ss, int side, int pc, Move m, int bonus) {
    static const int plies_back[] = {1, 2, 4};
    int to = move_to(m);
    history_update(&h->butterfly[side][butterfly_index(ss->threats, m)], bonus, HISTORY_MAX);
    for (int i = 0; i < (CONT_HISTORY_PLY4 ? 3 : 2); i++) {
        const Stack *prev = ss - plies_back[i];
        if (prev->move && prev->move != MOVE_NULL)
            history_update((int16_t *)&prev->cont[pc][to], bonus, HISTORY_MAX);
    }
}

static void update_quiet_history(SearchThread *t, Stack *ss, Move m, int bonus) {
    update_quiet_history_of(t->history, ss, t->pos.side, t->pos.board[move_from(m)], m, bonus);
}

/* The ply entry of the move that led to this node when it was quiet (no capture, no queen
 * promotion), else NULL. */
static const Stack *prior_quiet(const SearchThread *t, const Stack *ss) {
    const Stack *prev = ss - 1;
    bool quiet = prev->move && prev->move != MOVE_NULL && pos_state(&t->pos)->captured == NO_PIECE && !move_is_queen_promotion(prev->move);
    return quiet ? prev : NULL;
}

/* A fail low here is a cutoff for the opponent: their quiet move that led here was good. */
static void reward_prior_quiet(SearchThread *t, const SearchNode *n) {
    const Stack *prev = prior_quiet(t, n->ss);
    if (!PRIOR_QUIET_BONUS_PERCENT || n->root || !prev) return;
    int bonus = history_bonus(n->depth) * PRIOR_QUIET_BONUS_PERCENT / 100;
    update_quiet_history_of(t->history, prev, !t->pos.side, prev->moved_piece, prev->move, bonus);
}

/* How far the quiet move that led here moved its side's static evaluation, as its butterfly
 * history: the two evaluations are from each mover's view, so their sum is what the move lost. */
static void reward_eval_change(SearchThread *t, const SearchNode *n) {
    const Stack *prev = prior_quiet(t, n->ss);
    if (!EVAL_DIFF_HISTORY_SCALE || n->root || !prev) return;
    int ours = exact_static_eval(n->ss), theirs = exact_static_eval(prev);
    if (ours == SCORE_NONE || theirs == SCORE_NONE) return;
    int bonus = -EVAL_DIFF_HISTORY_SCALE * (ours + theirs);
    bonus = bonus > EVAL_DIFF_HISTORY_MAX ? EVAL_DIFF_HISTORY_MAX : bonus < -EVAL_DIFF_HISTORY_MAX ? -EVAL_DIFF_HISTORY_MAX : bonus;
    history_update(&t->history->butterfly[!t->pos.side][butterfly_index(prev->threats, prev->move)], bonus, HISTORY_MAX);
}

/* The piece type a capture takes (a pawn for en passant and for a promotion that takes nothing). */
static inline int capture_victim(const Position *pos, Move m) {
    int on_to = pos->board[move_to(m)];
    return move_kind(m) == MOVE_ENPASSANT || on_to == NO_PIECE ? PAWN : piece_type(on_to);
}

static inline int16_t *capture_history_entry(SearchThread *t, Move m) {
    return &t->history->capture[t->pos.board[move_from(m)]][move_to(m)][capture_victim(&t->pos, m)];
}

static void update_capture_history(SearchThread *t, Move m, int bonus) {
    history_update(capture_history_entry(t, m), bonus, HISTORY_MAX);
}

/* The evaluation the search works with: the evaluator's, corrected by what searches of similar
 * positions found (kept clear of mate scores). */
static inline int corrected_eval(const SearchThread *t, int raw) {
    if (!CORRECTION_HISTORY) return raw;
    int v = raw + correction_value(&t->history->correction, &t->pos);
    return v >= SCORE_MATE_IN_MAX ? SCORE_MATE_IN_MAX - 1 : v <= -SCORE_MATE_IN_MAX ? -SCORE_MATE_IN_MAX + 1 : v;
}

static void update_on_cutoff(SearchThread *t, Stack *ss, Move best, int depth, const TriedMoves *tried) {
    int bonus = history_bonus(depth);
    if (is_quiet(&t->pos, best)) {
        if (ss->killers[0] != best) ss->killers[1] = ss->killers[0], ss->killers[0] = best;
        Stack *prev = ss - 1;
        if (prev->move && prev->move != MOVE_NULL) t->history->countermove[prev->moved_piece][move_to(prev->move)] = best;
        update_quiet_history(t, ss, best, bonus);
        for (int i = 0; i < tried->quiet_count; i++)
            if (tried->quiets[i] != best) update_quiet_history(t, ss, tried->quiets[i], -bonus);
    } else {
        update_capture_history(t, best, bonus);
    }
    for (int i = 0; i < tried->capture_count; i++)
        if (tried->captures[i] != best) update_capture_history(t, tried->captures[i], -bonus);
}

/* ---------- quiescence ---------- */

static int qsearch(SearchThread *t, Stack *ss, int alpha, int beta, int ply) {
    Position *pos = &t->pos;
    bool pv_node = beta - alpha > 1;
    count_node(t);
    check_limits(t);
    if (ply > t->seldepth) t->seldepth = ply;
    ss->pv_length = 0; /* the PV ends here: a parent must not append a sibling's stale line */
    if (stopped(t->shared)) return 0;
    if (pos_is_draw_by_rule(pos, ply) || pos_insufficient_material(pos)) return 0;
    bool in_check = pos_in_check(pos);
    if (ply >= MAX_PLY - 1) return in_check ? 0 : evaluate_node(t, alpha, beta, NULL);

    TTHit tt;
    bool tt_hit = tt_probe(t->shared->tt, pos_key(pos), &tt);
    int tt_score = tt_hit ? score_from_tt(tt.score, ply) : SCORE_NONE;
    if (tt_hit && !pv_node && tt_score != SCORE_NONE &&
        (tt.bound == BOUND_EXACT || (tt.bound == BOUND_LOWER && tt_score >= beta) || (tt.bound == BOUND_UPPER && tt_score <= alpha)))
        return tt_score;

    /* the static evaluation goes to the TT only when it is the evaluator's full value: not a lazy
     * PSQT value and not the stand-pat score the TT bound refines it to */
    int best = -SCORE_INFINITE, stand_pat = -SCORE_INFINITE, static_eval = SCORE_NONE;
    bool lazy = false;
    if (!in_check) {
        stand_pat = tt_hit && tt.eval != SCORE_NONE ? tt.eval : evaluate_node(t, alpha, beta, &lazy);
        static_eval = lazy ? SCORE_NONE : stand_pat;
        if (!lazy) stand_pat = corrected_eval(t, stand_pat);
        if (tt_hit && tt_score != SCORE_NONE && (tt.bound & (tt_score > stand_pat ? BOUND_LOWER : BOUND_UPPER))) stand_pat = tt_score;
        if (stand_pat >= beta) return stand_pat;
        if (stand_pat > alpha) alpha = stand_pat;
        best = stand_pat;
    }

    MovePicker mp;
    movepicker_init_qsearch(&mp, pos, t->history, tt_hit ? tt.move : MOVE_NONE);
    Move m, best_move = MOVE_NONE;
    int searched = 0;
    while ((m = movepicker_next(&mp, false)) != MOVE_NONE) {
        tt_prefetch(t->shared->tt, pos_key_after_approx(pos, m)); /* the pruning checks hide the latency */
        if (!in_check) {
            /* a capture that cannot lift us to alpha even with a margin is not worth a look */
            if (move_kind(m) != MOVE_PROMOTION) {
                int victim = capture_victim(pos, m);
                if (stand_pat + QS_FUTILITY_MARGIN + see_piece_value[victim] <= alpha && !pos_gives_check(pos, m)) {
                    if (stand_pat + QS_FUTILITY_MARGIN + see_piece_value[victim] > best)
                        best = stand_pat + QS_FUTILITY_MARGIN + see_piece_value[victim];
                    continue;
                }
            }
            if (!see_at_least(pos, m, QS_SEE_THRESHOLD)) continue;
        }
        searched++;
        make_move(t, ss, m);
        int score = -qsearch(t, ss + 1, -beta, -alpha, ply + 1);
        unmake_move(t);
        if (stopped(t->shared)) return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                alpha = score;
                if (score >= beta) break;
            }
        }
    }
    if (in_check && searched == 0) return -SCORE_MATE + ply;
    int bound = best >= beta ? BOUND_LOWER : BOUND_UPPER;
    tt_store(t->shared->tt, pos_key(pos), best_move, score_to_tt(best, ply), static_eval, 0, bound, pv_node);
    return best;
}

/* ---------- pruning steps before the move loop ---------- */

static bool reverse_futility_prunes(const SearchNode *n) {
    return n->depth <= RFP_MAX_DEPTH && n->eval < SCORE_MATE_IN_MAX && n->eval - RFP_MARGIN * (n->depth - n->improving) >= n->beta;
}

static bool razoring_applies(const SearchNode *n) {
    return n->depth <= RAZOR_MAX_DEPTH && n->eval + RAZOR_MARGIN * n->depth < n->alpha;
}

static bool null_move_allowed(const SearchThread *t, const SearchNode *n) {
    return n->depth >= NMP_MIN_DEPTH && n->eval >= n->beta && n->ss->static_eval >= n->beta && (n->ss - 1)->move != MOVE_NULL
        && n->ply >= t->nmp_min_ply && pos_non_pawn_material(&t->pos, t->pos.side) && n->beta > -SCORE_MATE_IN_MAX;
}

static int search(SearchThread *t, Stack *ss, int alpha, int beta, int depth, bool cut_node, int ply);

/* Returns a score >= beta when the null move (verified at high depth) fails high, else SCORE_NONE. */
static int try_null_move(SearchThread *t, const SearchNode *n) {
    Stack *ss = n->ss;
    int eval_margin = (n->eval - n->beta) / NMP_EVAL_DIVISOR;
    int r = NMP_BASE_REDUCTION + n->depth / NMP_DEPTH_DIVISOR + (eval_margin < NMP_EVAL_REDUCTION_MAX ? eval_margin : NMP_EVAL_REDUCTION_MAX);
    ss->move = MOVE_NULL;
    ss->moved_piece = NO_PIECE;
    ss->cont = sentinel_cont(t);
    pos_make_null(&t->pos);
    int score = -search(t, ss + 1, -n->beta, -n->beta + 1, n->depth - r, !n->cut_node, n->ply + 1);
    pos_unmake_null(&t->pos);
    if (stopped(t->shared) || score < n->beta) return SCORE_NONE;
    if (score >= SCORE_MATE_IN_MAX) score = n->beta;
    if (n->depth < NMP_VERIFY_DEPTH || t->nmp_min_ply) return score;
    /* zugzwang guard: search again without null moves for the next plies */
    t->nmp_min_ply = n->ply + NMP_VERIFY_PLY_PERCENT * (n->depth - r) / 100;
    int verify = search(t, ss, n->beta - 1, n->beta, n->depth - r, false, n->ply);
    t->nmp_min_ply = 0;
    return verify >= n->beta ? score : SCORE_NONE;
}

/* ProbCut: a capture whose search to depth - PROBCUT_REDUCTION beats beta by PROBCUT_MARGIN
 * would very probably beat beta at full depth. Tried only on captures SEE says win at least
 * that margin over the static evaluation, each verified first by quiescence. Returns the
 * score that cuts the node, else SCORE_NONE. */
static int try_probcut(SearchThread *t, const SearchNode *n) {
    const int probcut_beta = n->beta + PROBCUT_MARGIN, depth = n->depth - PROBCUT_REDUCTION;
    /* the TT already holds a search about as deep that stays below probcut_beta */
    if (n->tt_score != SCORE_NONE && n->tt.depth > depth && n->tt_score < probcut_beta) return SCORE_NONE;
    Position *pos = &t->pos;
    MovePicker mp;
    movepicker_init_qsearch(&mp, pos, t->history, n->tt_move && !is_quiet(pos, n->tt_move) ? n->tt_move : MOVE_NONE);
    Move m;
    while ((m = movepicker_next(&mp, false)) != MOVE_NONE) {
        if (!see_at_least(pos, m, probcut_beta - n->eval)) continue;
        make_move(t, n->ss, m);
        int score = -qsearch(t, n->ss + 1, -probcut_beta, -probcut_beta + 1, n->ply + 1);
        if (score >= probcut_beta)
            score = -search(t, n->ss + 1, -probcut_beta, -probcut_beta + 1, depth, !n->cut_node, n->ply + 1);
        unmake_move(t);
        if (stopped(t->shared)) return SCORE_NONE;
        if (score >= probcut_beta) {
            tt_store(t->shared->tt, pos_key(pos), m, score_to_tt(score, n->ply), n->ss->raw_eval, depth + 1, BOUND_LOWER, n->tt_pv);
            return score;
        }
    }
    return SCORE_NONE;
}

static bool probcut_allowed(const SearchNode *n) {
    return PROBCUT_MIN_DEPTH && n->depth >= PROBCUT_MIN_DEPTH && abs(n->beta) < SCORE_MATE_IN_MAX;
}

/* ---------- pruning steps inside the move loop ---------- */

static bool late_move_prunes(const SearchNode *n, const MoveInfo *mi) {
    int limit = (LMP_BASE + n->depth * n->depth) / (n->improving ? 1 : LMP_NOT_IMPROVING_DIVISOR);
    return n->depth <= LMP_MAX_DEPTH && mi->number >= limit;
}

static bool futility_prunes_quiets(const SearchNode *n, int depth) {
    return depth <= FUTILITY_MAX_DEPTH && n->ss->static_eval + FUTILITY_BASE + FUTILITY_PER_DEPTH * depth <= n->alpha;
}

/* A quiet whose history says it has failed again and again is not worth a look at low depth. */
static bool history_prunes(const SearchNode *n, const MoveInfo *mi) {
    return n->depth <= HISTORY_PRUNE_MAX_DEPTH && mi->history < -HISTORY_PRUNE_MARGIN * n->depth;
}

static bool see_prunes(const Position *pos, const SearchNode *n, const MoveInfo *mi, int quiet_depth) {
    if (n->depth > SEE_MAX_DEPTH) return false;
    int threshold = mi->quiet ? -SEE_QUIET_MARGIN * quiet_depth : -SEE_NOISY_MARGIN * n->depth * n->depth;
    return !see_at_least(pos, mi->move, threshold);
}

static bool root_move_allowed(const SearchThread *t, Move m) {
    for (int i = t->pv_index; i < t->root_count; i++)
        if (t->root_moves[i].move == m) return true;
    return false;
}

static RootMove *find_root_move(SearchThread *t, Move m) {
    for (int i = 0; i < t->root_count; i++)
        if (t->root_moves[i].move == m) return &t->root_moves[i];
    return NULL;
}

/* The TT move is a singular-extension candidate when its entry is a deep enough lower bound
 * that is not a mate score. */
static bool singular_candidate(const SearchNode *n, Move m) {
    return !n->root && m == n->tt_move && n->depth >= SINGULAR_MIN_DEPTH && !n->excluded
        && n->tt.depth >= n->depth - SINGULAR_TT_DEPTH_MARGIN && (n->tt.bound & BOUND_LOWER) && n->tt_score != SCORE_NONE
        && abs(n->tt_score) < SCORE_MATE_IN_MAX && n->ply < SINGULAR_MAX_PLY_PER_DEPTH * n->depth + SINGULAR_MAX_PLY_BASE;
}

/* Singular extension: is the TT move much better than every alternative? Returns the
 * extension, or sets *multicut when even the alternatives beat beta. */
static int singular_extension(SearchThread *t, const SearchNode *n, Move m, int *multicut) {
    int singular_beta = n->tt_score - SINGULAR_MARGIN * n->depth;
    n->ss->excluded = m;
    int score = search(t, n->ss, singular_beta - 1, singular_beta, (n->depth - 1) / SINGULAR_DEPTH_DIVISOR, n->cut_node, n->ply);
    n->ss->excluded = MOVE_NONE;
    if (score < singular_beta) return !n->pv_node && score < singular_beta - DOUBLE_EXTENSION_MARGIN ? 2 : 1;
    if (singular_beta >= n->beta) {
        *multicut = singular_beta;
        return 0;
    }
    if (n->tt_score >= n->beta) return -SINGULAR_TT_BETA_REDUCTION;
    return n->cut_node ? -SINGULAR_CUT_NODE_REDUCTION : 0;
}

/* Plies to add to the move's depth: singular extension of the TT move, else one for a check
 * while the line is not yet much longer than the iteration's depth. */
static int extension(SearchThread *t, const SearchNode *n, const MoveInfo *mi, int *multicut) {
    if (singular_candidate(n, mi->move)) return singular_extension(t, n, mi->move, multicut);
    return mi->gives_check && n->ply < CHECK_EXTENSION_PLY_PER_DEPTH * t->root_depth;
}

static int late_move_reduction(const SearchNode *n, const MoveInfo *mi) {
    int r = lmr_table[n->depth < MAX_PLY ? n->depth : MAX_PLY - 1][mi->number < MAX_MOVES ? mi->number : MAX_MOVES - 1];
    if (!mi->quiet) r /= LMR_NOISY_DIVISOR;
    r += LMR_NON_PV * !n->pv_node + LMR_CUT_NODE * n->cut_node - LMR_IMPROVING * n->improving
       - LMR_GIVES_CHECK * mi->gives_check - LMR_TT_PV * n->tt_pv;
    if (mi->quiet) {
        r += LMR_TT_CAPTURE * n->tt_capture - mi->history / LMR_HISTORY_DIVISOR;
        if (mi->move == n->ss->killers[0] || mi->move == n->ss->killers[1]) r -= LMR_KILLER;
    } else if (LMR_CAPTURE_HISTORY_PERCENT) {
        r -= mi->history * LMR_CAPTURE_HISTORY_PERCENT / (100 * LMR_HISTORY_DIVISOR);
    }
    return r;
}

/* The depth a quiet's pruning judges it at: with PRUNE_AT_REDUCED_DEPTH the depth its reduced
 * search would have (a move LMR would cut short is not worth more effort to prune), else the node's. */
static int pruning_depth(const SearchNode *n, const MoveInfo *mi) {
    if (!PRUNE_AT_REDUCED_DEPTH) return n->depth;
    int d = n->depth - 1 - late_move_reduction(n, mi);
    return d < 0 ? 0 : d > n->depth ? n->depth : d;
}

/* A reduced search beat alpha: how much deeper (+1) or shallower (-1) than planned to search
 * the move again, by how far it beat the best score so far. */
static int research_depth_change(int score, int best, int new_depth) {
    if (!LMR_DEEPER_MARGIN) return 0;
    return (score > best + LMR_DEEPER_MARGIN + 2 * new_depth) - (score < best + new_depth);
}

/* ---------- main search ---------- */

/* Fills the node's TT fields; true when the stored bound already decides a non-PV node. */
static bool probe_tt(SearchThread *t, SearchNode *n) {
    const Position *pos = &t->pos;
    n->tt_hit = !n->excluded && tt_probe(t->shared->tt, pos_key(pos), &n->tt);
    n->tt_score = n->tt_hit ? score_from_tt(n->tt.score, n->ply) : SCORE_NONE;
    n->tt_move = n->root ? t->root_moves[t->pv_index].move : n->tt_hit ? n->tt.move : MOVE_NONE;
    n->tt_pv = n->pv_node || (n->tt_hit && n->tt.pv);
    n->tt_capture = LMR_TT_CAPTURE && n->tt_move && !is_quiet(pos, n->tt_move);
    return !n->pv_node && n->tt_hit && n->tt.depth >= n->depth && n->tt_score != SCORE_NONE
        && (n->tt.bound == BOUND_EXACT || (n->tt.bound == BOUND_LOWER && n->tt_score >= n->beta)
            || (n->tt.bound == BOUND_UPPER && n->tt_score <= n->alpha));
}

/* Static evaluation (from the TT when stored) and improving; eval is refined by the TT score.
 * A lazy value serves this node's own pruning, under the window it was asked with, but is not
 * stored and does not count for improving. */
static void evaluate_position(SearchThread *t, SearchNode *n) {
    Stack *ss = n->ss;
    if (n->in_check) {
        n->eval = ss->static_eval = ss->raw_eval = SCORE_NONE;
        ss->static_eval_lazy = false;
        return;
    }
    if (n->excluded) {
        n->eval = ss->static_eval; /* same node, already evaluated */
    } else {
        bool lazy = false;
        int raw = n->tt_hit && n->tt.eval != SCORE_NONE ? n->tt.eval : evaluate_node(t, n->alpha, n->beta, &lazy);
        ss->raw_eval = lazy ? SCORE_NONE : raw;
        ss->static_eval = n->eval = lazy ? raw : corrected_eval(t, raw);
        ss->static_eval_lazy = lazy;
        if (n->tt_hit && n->tt_score != SCORE_NONE && (n->tt.bound & (n->tt_score > n->eval ? BOUND_LOWER : BOUND_UPPER)))
            n->eval = n->tt_score;
        if (!n->tt_hit && !lazy)
            tt_store(t->shared->tt, pos_key(&t->pos), MOVE_NONE, SCORE_NONE, ss->raw_eval, -1, BOUND_NONE, n->tt_pv);
        reward_eval_change(t, n);
    }
    int past = exact_static_eval(ss - 2) != SCORE_NONE ? exact_static_eval(ss - 2) : exact_static_eval(ss - 4);
    n->improving = !ss->static_eval_lazy && (past == SCORE_NONE || ss->static_eval > past);
}

/* A search result teaches the correction history when it is an exact-enough verdict on a quiet
 * position: not in check, no capture or promotion as best move, no mate, and a bound that says
 * something about the evaluation (a fail-high above it or a fail-low below it). */
static bool corrects_evaluation(const SearchNode *n, Move best_move, int best, int bound, const Position *pos) {
    if (!CORRECTION_HISTORY || n->in_check || n->ss->raw_eval == SCORE_NONE || abs(best) >= SCORE_MATE_IN_MAX) return false;
    if (best_move && !is_quiet(pos, best_move)) return false;
    if (bound == BOUND_LOWER && best <= n->ss->static_eval) return false;
    if (bound == BOUND_UPPER && best >= n->ss->static_eval) return false;
    return true;
}

static void update_root_move(SearchThread *t, const SearchNode *n, Move m, int move_number, int score, uint64_t nodes) {
    RootMove *rm = find_root_move(t, m);
    rm->nodes += nodes;
    if (move_number == 1 || score > n->alpha) {
        rm->score = score;
        rm->seldepth = t->seldepth;
        rm->pv[0] = m;
        rm->pv_length = 1;
        for (int i = 0; i < (n->ss + 1)->pv_length && rm->pv_length < MAX_PLY; i++) rm->pv[rm->pv_length++] = (n->ss + 1)->pv[i];
    } else {
        rm->score = -SCORE_INFINITE;
    }
}

/* currmove output of the main thread once the search has run for a while. */
static void announce_root_move(const SearchThread *t, int depth, Move m, int number) {
    const SearchShared *s = t->shared;
    if (t->id == 0 && s->report && s->output.currmove && timeman_search_time(&s->tm) >= CURRMOVE_AFTER_MS)
        s->output.currmove(depth, m, number + t->pv_index, s->output.ctx);
}

static int search(SearchThread *t, Stack *ss, int alpha, int beta, int depth, bool cut_node, int ply) {
    Position *pos = &t->pos;
    SearchShared *shared = t->shared;
    if (depth <= 0) return qsearch(t, ss, alpha, beta, ply);
    SearchNode n = {.ss = ss, .alpha = alpha, .beta = beta, .depth = depth, .ply = ply,
                    .pv_node = beta - alpha > 1, .cut_node = cut_node, .root = ply == 0};

    count_node(t);
    check_limits(t);
    if (ply > t->seldepth) t->seldepth = ply;
    ss->pv_length = 0;
    if (!n.root) {
        if (stopped(shared)) return 0;
        if (pos_is_draw_by_rule(pos, ply) || pos_insufficient_material(pos)) {
            /* a checkmate on the 100th ply still counts as mate */
            if (pos_rule50(pos) >= 100 && pos_in_check(pos) && count_legal_moves(pos) == 0) return -SCORE_MATE + ply;
            return 0;
        }
        if (ply >= MAX_PLY - 1) return pos_in_check(pos) ? 0 : evaluate_node(t, n.alpha, n.beta, NULL);
        /* mate distance pruning: no line can beat a mate already found closer to the root */
        int mated = -SCORE_MATE + ply, mating = SCORE_MATE - ply - 1;
        if (n.alpha < mated) n.alpha = mated;
        if (n.beta > mating) n.beta = mating;
        if (n.alpha >= n.beta) return n.alpha;
    }
    (ss + 1)->killers[0] = (ss + 1)->killers[1] = MOVE_NONE;
    (ss + 1)->excluded = MOVE_NONE;
    n.excluded = ss->excluded;

    if (probe_tt(t, &n)) {
        if (n.tt_move && n.tt_score >= n.beta && is_quiet(pos, n.tt_move) && pos_is_pseudo_legal(pos, n.tt_move)) {
            ss->threats = opponent_threats(pos);
            update_quiet_history(t, ss, n.tt_move, history_bonus(n.depth));
        }
        return n.tt_score;
    }

    n.in_check = pos_in_check(pos);
    evaluate_position(t, &n);

    if (!n.pv_node && !n.in_check && !n.excluded) {
        if (reverse_futility_prunes(&n)) return RFP_RETURN_MIDPOINT ? (n.eval + n.beta) / 2 : n.eval;
        if (razoring_applies(&n)) {
            int score = qsearch(t, ss, n.alpha, n.alpha + 1, ply);
            if (score <= n.alpha) return score;
        }
        if (null_move_allowed(t, &n)) {
            int score = try_null_move(t, &n);
            if (score != SCORE_NONE) return score;
        }
        if (probcut_allowed(&n)) {
            int score = try_probcut(t, &n);
            if (score != SCORE_NONE) return score;
        }
    }

    /* internal iterative reduction: without a TT move this node is probably less important */
    if (!n.tt_move && n.depth >= IIR_MIN_DEPTH && (n.pv_node || n.cut_node)) n.depth--;

    Stack *prev = ss - 1;
    Move counter = prev->move && prev->move != MOVE_NULL ? t->history->countermove[prev->moved_piece][move_to(prev->move)] : MOVE_NONE;
    ss->threats = opponent_threats(pos);
    MovePicker mp;
    movepicker_init(&mp, pos, t->history, n.tt_move, ss->killers, counter, (ss - 1)->cont, (ss - 2)->cont,
                    CONT_HISTORY_PLY4 ? (ss - 4)->cont : NULL, ss->threats);

    int best = -SCORE_INFINITE, move_count = 0;
    Move best_move = MOVE_NONE, m;
    TriedMoves tried;
    tried.quiet_count = tried.capture_count = 0;
    bool skip_quiets = false;
    while ((m = movepicker_next(&mp, skip_quiets)) != MOVE_NONE) {
        if (m == n.excluded) continue;
        if (n.root && !root_move_allowed(t, m)) continue;
        if (n.root) announce_root_move(t, n.depth, m, move_count + 1);
        uint64_t key_guess = pos_key_after_approx(pos, m);
        tt_prefetch(shared->tt, key_guess); /* the pruning checks hide the latency */
        int pc = pos->board[move_from(m)];
        MoveInfo mi = {.move = m, .number = ++move_count, .quiet = is_quiet(pos, m), .gives_check = pos_gives_check_with(pos, &mp.checks, m)};
        if (mi.quiet)
            mi.history = t->history->butterfly[pos->side][butterfly_index(ss->threats, m)] + (ss - 1)->cont[pc][move_to(m)]
                       + (ss - 2)->cont[pc][move_to(m)] + (CONT_HISTORY_PLY4 ? (ss - 4)->cont[pc][move_to(m)] : 0);
        else if (LMR_CAPTURE_HISTORY_PERCENT)
            mi.history = *capture_history_entry(t, m);

        if (!n.root && best > -SCORE_MATE_IN_MAX && pos_non_pawn_material(pos, pos->side)) {
            int quiet_depth = mi.quiet ? pruning_depth(&n, &mi) : n.depth;
            if (mi.quiet && !n.in_check && !mi.gives_check) {
                if (late_move_prunes(&n, &mi) || (!PRUNE_AT_REDUCED_DEPTH && futility_prunes_quiets(&n, n.depth))) {
                    skip_quiets = true;
                    continue;
                }
                if (PRUNE_AT_REDUCED_DEPTH && futility_prunes_quiets(&n, quiet_depth)) continue;
                if (history_prunes(&n, &mi)) continue;
            }
            if (see_prunes(pos, &n, &mi, quiet_depth)) continue;
        }

        int multicut = SCORE_NONE;
        int new_depth = n.depth - 1 + extension(t, &n, &mi, &multicut);
        if (multicut != SCORE_NONE) return multicut;

        uint64_t nodes_before = n.root ? thread_nodes(t) : 0;
        make_move(t, ss, m);
        if (pos_key(pos) != key_guess) tt_prefetch(shared->tt, pos_key(pos)); /* castling rights, new ep square */
        int score;
        t->reductions.late_moves += move_count > 1;
        if (n.depth >= LMR_MIN_DEPTH && move_count > LMR_MIN_MOVES + n.root && (mi.quiet || !n.tt_pv)) {
            int reduced = new_depth - late_move_reduction(&n, &mi);
            if (reduced > new_depth) reduced = new_depth;
            if (reduced < 1) reduced = 1;
            if (reduced < new_depth) t->reductions.reduced++, t->reductions.plies += (uint64_t)(new_depth - reduced);
            score = -search(t, ss + 1, -n.alpha - 1, -n.alpha, reduced, true, ply + 1);
            if (score > n.alpha && reduced < new_depth) {
                new_depth += research_depth_change(score, best, new_depth);
                if (reduced < new_depth) score = -search(t, ss + 1, -n.alpha - 1, -n.alpha, new_depth, !cut_node, ply + 1);
            }
        } else if (!n.pv_node || move_count > 1) {
            score = -search(t, ss + 1, -n.alpha - 1, -n.alpha, new_depth, !cut_node, ply + 1);
        } else {
            score = n.alpha + 1; /* first move of a PV node: full window below */
        }
        if (n.pv_node && (move_count == 1 || (score > n.alpha && (n.root || score < n.beta))))
            score = -search(t, ss + 1, -n.beta, -n.alpha, new_depth, false, ply + 1);
        unmake_move(t);
        if (stopped(shared)) return 0;

        if (n.root) update_root_move(t, &n, m, move_count, score, thread_nodes(t) - nodes_before);
        if (score > best) {
            best = score;
            if (score > n.alpha) {
                best_move = m;
                if (n.pv_node && !n.root) {
                    ss->pv[0] = m;
                    ss->pv_length = 1;
                    for (int i = 0; i < (ss + 1)->pv_length && ss->pv_length < MAX_PLY; i++) ss->pv[ss->pv_length++] = (ss + 1)->pv[i];
                }
                if (score >= n.beta) break;
                n.alpha = score;
            }
        }
        if (m != best_move) {
            if (mi.quiet && tried.quiet_count < QUIETS_TRACKED_MAX) tried.quiets[tried.quiet_count++] = m;
            else if (!mi.quiet && tried.capture_count < CAPTURES_TRACKED_MAX) tried.captures[tried.capture_count++] = m;
        }
    }

    if (move_count == 0) return n.excluded ? n.alpha : n.in_check ? -SCORE_MATE + ply : 0;
    if (best >= n.beta && best_move) update_on_cutoff(t, ss, best_move, n.depth, &tried);
    if (!best_move && !n.excluded) reward_prior_quiet(t, &n);
    if (!n.excluded && !(n.root && t->pv_index > 0)) {
        int bound = best >= n.beta ? BOUND_LOWER : (n.pv_node && best_move) ? BOUND_EXACT : BOUND_UPPER;
        tt_store(shared->tt, pos_key(pos), best_move, score_to_tt(best, ply), ss->raw_eval, n.depth, bound, n.tt_pv);
        if (corrects_evaluation(&n, best_move, best, bound, pos))
            correction_update(&t->history->correction, pos, n.depth, best, ss->raw_eval);
    }
    return best;
}

/* ---------- iterative deepening ---------- */

static void sort_root_moves(RootMove *moves, int from, int to) {
    for (int i = from + 1; i < to; i++) { /* insertion sort: stable, lists are short */
        RootMove tmp = moves[i];
        int j = i - 1;
        while (j >= from && moves[j].score < tmp.score) moves[j + 1] = moves[j], j--;
        moves[j + 1] = tmp;
    }
}

static void report_line(SearchThread *t, int depth, int pv_index, int bound_override) {
    SearchShared *s = t->shared;
    if (!s->report || !s->output.report) return;
    const RootMove *rm = &t->root_moves[pv_index];
    SearchReport r;
    r.depth = depth;
    r.seldepth = rm->seldepth;
    r.multipv = pv_index + 1;
    bool updated = rm->score != -SCORE_INFINITE;
    r.score = updated ? rm->score : rm->prev_score;
    r.bound = bound_override != BOUND_NONE ? bound_override : BOUND_EXACT;
    r.nodes = total_nodes(s);
    r.time_ms = timeman_search_time(&s->tm); /* pondering included, so nps stays true after ponderhit */
    r.nps = r.time_ms > 0 ? r.nodes * 1000 / (uint64_t)r.time_ms : r.nodes * 1000;
    r.hashfull = tt_hashfull(s->tt);
    r.pv_length = rm->pv_length;
    memcpy(r.pv, rm->pv, sizeof(Move) * (size_t)rm->pv_length);
    if (pv_index == 0) {
        t->reported_length = rm->pv_length;
        memcpy(t->reported_pv, rm->pv, sizeof(Move) * (size_t)rm->pv_length);
    }
    s->output.report(&r, s->output.ctx);
}

/* MoveGuesser: the guesser's order, best first (ties keep the generation order). The first
 * iteration searches root_moves[0] first, as its TT move; the move picker orders the rest, and
 * later iterations start from the best move found, so only the first iteration's first move
 * changes. */
static void order_root_moves_by_guesser(SearchThread *t) {
    int score[MAX_MOVES];
    for (int i = 0; i < t->root_count; i++) score[i] = move_guesser_score(&t->pos, t->root_moves[i].move);
    for (int i = 1; i < t->root_count; i++) { /* insertion sort: stable */
        RootMove tmp = t->root_moves[i];
        int s = score[i], j = i - 1;
        while (j >= 0 && score[j] < s) t->root_moves[j + 1] = t->root_moves[j], score[j + 1] = score[j], j--;
        t->root_moves[j + 1] = tmp, score[j + 1] = s;
    }
}

int search_root_order(const SearchThread *t, Move *out, int max) {
    int n = t->root_count < max ? t->root_count : max;
    for (int i = 0; i < n; i++) out[i] = t->root_moves[i].move;
    return n;
}

void search_setup_root(SearchThread *t, const Position *root, const SearchLimits *limits) {
    MoveList list;
    memcpy(&t->pos, root, sizeof t->pos);
    /* the accumulator is kept only when the NNUE evaluates */
    t->nnue = evaluate_uses_nnue(&t->shared->settings);
    t->accumulator->eager = t->shared->settings.nnue_eager;
    if (t->nnue) accumulator_refresh(t->accumulator, &t->pos);
    generate_legal(&t->pos, &list);
    t->root_count = 0;
    for (int i = 0; i < list.count; i++) {
        if (limits->searchmoves_count) {
            bool wanted = false;
            for (int k = 0; k < limits->searchmoves_count; k++) wanted |= limits->searchmoves[k] == list.moves[i];
            if (!wanted) continue;
        }
        RootMove *rm = &t->root_moves[t->root_count++];
        memset(rm, 0, sizeof *rm);
        rm->move = list.moves[i];
        rm->score = rm->prev_score = -SCORE_INFINITE;
        rm->pv[0] = rm->move;
        rm->pv_length = 1;
    }
    if (t->shared->settings.move_guesser) order_root_moves_by_guesser(t);
    int multipv = t->shared->settings.multipv;
    t->reported_lines = multipv < t->root_count ? multipv : t->root_count;
    if (t->shared->settings.strength_elo && multipv < STRENGTH_CANDIDATES) multipv = STRENGTH_CANDIDATES;
    t->multipv = multipv < t->root_count ? multipv : t->root_count;
    if (t->multipv < 1) t->multipv = 1;
    t->reported_length = 0;
    t->settled_count = 0;
    t->nodes = 0;
    t->seldepth = 0;
    t->nmp_min_ply = 0;
    t->completed_depth = 0;
    t->eval_stats = (EvalStats){0, 0};
    t->reductions = (ReductionStats){0, 0, 0};
    memset(t->stack_storage, 0, sizeof t->stack_storage);
    for (int i = 0; i < MAX_PLY + 10; i++) {
        t->stack_storage[i].static_eval = SCORE_NONE;
        t->stack_storage[i].moved_piece = NO_PIECE;
        t->stack_storage[i].cont = sentinel_cont(t);
    }
}

/* Weakened play chooses among the lines of a completed iteration, never among the partly
 * searched ones of an interrupted iteration. */
static void settle_candidates(SearchThread *t) {
    t->settled_count = t->multipv < STRENGTH_CANDIDATES ? t->multipv : STRENGTH_CANDIDATES;
    memcpy(t->settled, t->root_moves, sizeof(RootMove) * (size_t)t->settled_count);
    t->settled_depth = t->completed_depth;
}

static bool mate_limit_reached(const SearchShared *s, int score) {
    return s->limits.mate > 0 && score >= SCORE_MATE_IN_MAX && score_mate_moves(score) <= s->limits.mate;
}

/* Permille of this thread's root nodes spent under the current best move. */
static int best_move_effort(const SearchThread *t) {
    uint64_t all = 0;
    for (int i = 0; i < t->root_count; i++) all += t->root_moves[i].nodes;
    return all ? (int)(t->root_moves[0].nodes * 1000 / all) : 0;
}

void search_iterative_deepening(SearchThread *t) {
    SearchShared *s = t->shared;
    Stack *ss = t->stack_storage + 4;
    int max_depth = s->limits.depth > 0 && s->limits.depth < MAX_PLY - 1 ? s->limits.depth : MAX_PLY - 2;
    Move last_best = MOVE_NONE;
    int stable_iterations = 0, last_score = 0;
    if (t->root_count == 0) return;
    settings_install_search_params(&s->settings); /* tuning builds: this search's constants */
    lmr_table_update();

    for (int depth = 1; depth <= max_depth; depth++) {
        t->root_depth = depth;
        for (int i = 0; i < t->root_count; i++) t->root_moves[i].prev_score = t->root_moves[i].score;
        for (t->pv_index = 0; t->pv_index < t->multipv; t->pv_index++) {
            t->seldepth = 0;
            int delta = ASPIRATION_DELTA, alpha = -SCORE_INFINITE, beta = SCORE_INFINITE, fail_highs = 0;
            int prev = t->root_moves[t->pv_index].prev_score;
            if (depth >= ASPIRATION_MIN_DEPTH && prev != -SCORE_INFINITE) {
                alpha = prev - delta > -SCORE_INFINITE ? prev - delta : -SCORE_INFINITE;
                beta = prev + delta < SCORE_INFINITE ? prev + delta : SCORE_INFINITE;
            }
            for (;;) {
                int search_depth = depth - fail_highs > 1 ? depth - fail_highs : 1;
                int score = search(t, ss, alpha, beta, search_depth, false, 0);
                sort_root_moves(t->root_moves, t->pv_index, t->root_count);
                if (stopped(s)) break;
                if (score <= alpha) {
                    beta = (alpha + beta) / 2;
                    alpha = score - delta > -SCORE_INFINITE ? score - delta : -SCORE_INFINITE;
                    fail_highs = 0;
                    if (t->id == 0 && timeman_elapsed(&s->tm) > BOUND_LINES_AFTER_MS) report_line(t, depth, t->pv_index, BOUND_UPPER);
                } else if (score >= beta) {
                    beta = score + delta < SCORE_INFINITE ? score + delta : SCORE_INFINITE;
                    fail_highs += ASPIRATION_FAIL_HIGH_REDUCTION;
                    if (t->id == 0 && timeman_elapsed(&s->tm) > BOUND_LINES_AFTER_MS) report_line(t, depth, t->pv_index, BOUND_LOWER);
                } else {
                    break;
                }
                delta += delta * ASPIRATION_GROWTH_PERCENT / 100;
            }
            sort_root_moves(t->root_moves, 0, t->pv_index + 1);
            if (stopped(s)) break;
        }
        if (stopped(s)) break;
        t->completed_depth = depth;
        if (t->id != 0) continue;

        for (int i = 0; i < t->reported_lines; i++) report_line(t, depth, i, BOUND_NONE);
        if (s->settings.strength_elo) settle_candidates(t);
        int score = t->root_moves[0].score;
        if (mate_limit_reached(s, score)) break;
        if (s->limits.nodes && total_nodes(s) >= s->limits.nodes) break;
        if (atomic_load(&s->pondering) || !s->tm.timed || s->tm.use_all) continue; /* pondering first: see check_limits */

        Move best = t->root_moves[0].move;
        stable_iterations = best == last_best ? stable_iterations + 1 : 0;
        last_best = best;
        IterationProgress progress = {depth, stable_iterations, last_score - score, t->root_count, best_move_effort(t)};
        last_score = score;
        if (timeman_elapsed(&s->tm) >= timeman_iteration_limit(s->tm.soft_ms, &progress)) break;
    }
}


/* ---------- one thread's searcher, as the thread pool drives it ---------- */

void search_tables_init(void) {
    lmr_table_update();
    evaluate_init();
}

SearchThread *search_thread_create(int id, SearchShared *shared) {
    SearchThread *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->history = calloc(1, sizeof *t->history);
    if (!t->history) {
        free(t);
        return NULL;
    }
    t->accumulator = accumulator_create();
    if (!t->accumulator) {
        free(t->history);
        free(t);
        return NULL;
    }
    t->id = id;
    t->shared = shared;
    return t;
}

void search_thread_destroy(SearchThread *t) {
    if (!t) return;
    accumulator_destroy(t->accumulator);
    free(t->history);
    free(t);
}

void search_thread_clear(SearchThread *t) { memset(t->history, 0, sizeof *t->history); }

/* Puts the line that is to be played first: the weakened choice when strength is limited.
 * Without it, an interrupted iteration may have put a line first that was never shown;
 * either way that line is shown now, so the last line a GUI sees starts with the move
 * played and goes on with the move to ponder. */
void search_finish(SearchShared *s) {
    SearchThread *t = s->threads[0];
    if (t->root_count == 0) return;
    int depth = t->root_depth;
    if (s->settings.strength_elo && t->settled_count > 0) {
        int scores[STRENGTH_CANDIDATES];
        for (int i = 0; i < t->settled_count; i++) scores[i] = t->settled[i].score;
        int pick = strength_pick(scores, t->settled_count, s->settings.strength_elo, s->settings.strength_seed ^ pos_key(&t->pos));
        RootMove *chosen = find_root_move(t, t->settled[pick].move);
        *chosen = t->root_moves[0];
        t->root_moves[0] = t->settled[pick];
        depth = t->settled_depth;
    }
    const RootMove *first = &t->root_moves[0];
    bool shown = first->pv_length == t->reported_length &&
                 !memcmp(first->pv, t->reported_pv, sizeof(Move) * (size_t)first->pv_length);
    if (!shown && first->score != -SCORE_INFINITE) report_line(t, depth > 1 ? depth : 1, 0, BOUND_NONE);
}

void search_collect_result(const SearchShared *s, SearchResult *res) {
    const SearchThread *main_thread = s->threads[0];
    memset(res, 0, sizeof *res);
    if (main_thread->root_count == 0) {
        res->best = MOVE_NONE;
        res->score = pos_in_check(&main_thread->pos) ? -SCORE_MATE : 0;
        return;
    }
    const RootMove *rm = &main_thread->root_moves[0];
    res->best = rm->move;
    res->ponder = rm->pv_length > 1 ? rm->pv[1] : MOVE_NONE;
    res->score = rm->score != -SCORE_INFINITE ? rm->score : rm->prev_score;
    res->depth = main_thread->completed_depth;
    res->nodes = total_nodes(s);
}

void search_collect_stats(const SearchShared *s, SearchResult *res) {
    res->eval_full = res->eval_lazy = 0;
    res->reductions = (ReductionStats){0, 0, 0};
    for (int i = 0; i < s->thread_count; i++) {
        const SearchThread *t = s->threads[i];
        res->eval_full += t->eval_stats.full;
        res->eval_lazy += t->eval_stats.lazy;
        reduction_stats_add(&res->reductions, &t->reductions);
    }
}

void search_limits_clear(SearchLimits *l) {
    memset(l, 0, sizeof *l);
    l->time[WHITE] = l->time[BLACK] = -1;
    l->inc[WHITE] = l->inc[BLACK] = 0;
}
