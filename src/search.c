/* Alpha-beta search: iterative deepening with aspiration windows, PVS, a shared TT,
 * quiescence, extensions and pruning steps as small helpers. Each Lazy SMP thread runs
 * this search on its own SearchThread; threads.c starts them. */
#include "search.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "accumulator.h"
#include "evaluate.h"
#include "history.h"
#include "movepicker.h"
#include "options.h"
#include "search_params.h"
#include "search_thread.h"
#include "see.h"

typedef struct {
    int static_eval;
    Move move;                      /* move made from this ply (MOVE_NULL for a null move) */
    int moved_piece;
    Move killers[2];
    Move excluded;                  /* singular-extension verification skips this move */
    const int16_t (*cont)[SQUARE_NB]; /* continuation table selected by this ply's move */
    int pv_length;
    Move pv[MAX_PLY + 1];
} Stack;

typedef struct {
    Move move;
    int score, prev_score;
    int bound;
    int seldepth;
    int pv_length;
    Move pv[MAX_PLY];
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
    int completed_depth;
    int root_depth;                 /* depth of the iteration in progress */
    EvalStats eval_stats;
};

static int lmr_table[MAX_PLY][MAX_MOVES];

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

static inline int score_to_tt(int score, int ply) {
    if (score >= SCORE_MATE_IN_MAX) return score + ply;
    if (score <= -SCORE_MATE_IN_MAX) return score - ply;
    return score;
}

static inline int score_from_tt(int score, int ply) {
    if (score == SCORE_NONE) return SCORE_NONE; /* entry that holds only a static evaluation */
    if (score >= SCORE_MATE_IN_MAX) return score - ply;
    if (score <= -SCORE_MATE_IN_MAX) return score + ply;
    return score;
}

static inline int history_bonus(int depth) {
    int b = HISTORY_BONUS_QUADRATIC * depth * depth + HISTORY_BONUS_LINEAR * depth;
    return b > HISTORY_BONUS_MAX ? HISTORY_BONUS_MAX : b;
}

static inline bool is_quiet(const Position *pos, Move m) {
    return !pos_is_capture(pos, m) && !(move_kind(m) == MOVE_PROMOTION && move_promo_type(m) == QUEEN);
}

static const int16_t (*sentinel_cont(const SearchThread *t))[SQUARE_NB] {
    return (const int16_t (*)[SQUARE_NB])t->history->continuation[NO_PIECE][0];
}

/* Time and node limits, checked by the main thread every LIMIT_CHECK_NODES nodes. */
static void check_limits(SearchThread *t) {
    SearchShared *s = t->shared;
    if (t->id != 0 || (thread_nodes(t) & (LIMIT_CHECK_NODES - 1)) || t->completed_depth < 1) return;
    if (s->limits.nodes && total_nodes(s) >= s->limits.nodes) atomic_store(&s->stop, true);
    if (s->tm.timed && !atomic_load_explicit(&s->pondering, memory_order_relaxed) && timeman_elapsed(&s->tm) >= s->tm.hard_ms)
        atomic_store(&s->stop, true);
}

static inline int evaluate_node(SearchThread *t, int alpha, int beta) {
    return evaluate(&t->pos, t->nnue ? t->accumulator : NULL, alpha, beta, &t->eval_stats);
}

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

static void update_quiet_history(SearchThread *t, Stack *ss, Move m, int bonus) {
    History *h = t->history;
    int pc = t->pos.board[move_from(m)], to = move_to(m);
    history_update(&h->butterfly[t->pos.side][move_from(m) * 64 + to], bonus, HISTORY_MAX);
    for (int back = 1; back <= 2; back++) {
        Stack *prev = ss - back;
        if (prev->move && prev->move != MOVE_NULL)
            history_update((int16_t *)&prev->cont[pc][to], bonus, HISTORY_MAX);
    }
}

static void update_capture_history(SearchThread *t, Move m, int bonus) {
    int pc = t->pos.board[move_from(m)];
    int victim = move_kind(m) == MOVE_ENPASSANT ? PAWN : t->pos.board[move_to(m)] == NO_PIECE ? PAWN : piece_type(t->pos.board[move_to(m)]);
    history_update(&t->history->capture[pc][move_to(m)][victim], bonus, HISTORY_MAX);
}

static void update_on_cutoff(SearchThread *t, Stack *ss, Move best, int depth, const Move *quiets, int quiet_count,
                             const Move *captures, int capture_count) {
    int bonus = history_bonus(depth);
    if (is_quiet(&t->pos, best)) {
        if (ss->killers[0] != best) ss->killers[1] = ss->killers[0], ss->killers[0] = best;
        Stack *prev = ss - 1;
        if (prev->move && prev->move != MOVE_NULL) t->history->countermove[prev->moved_piece][move_to(prev->move)] = best;
        update_quiet_history(t, ss, best, bonus);
        for (int i = 0; i < quiet_count; i++)
            if (quiets[i] != best) update_quiet_history(t, ss, quiets[i], -bonus);
    } else {
        update_capture_history(t, best, bonus);
    }
    for (int i = 0; i < capture_count; i++)
        if (captures[i] != best) update_capture_history(t, captures[i], -bonus);
}

/* ---------- quiescence ---------- */

static int qsearch(SearchThread *t, Stack *ss, int alpha, int beta, int ply) {
    Position *pos = &t->pos;
    bool pv_node = beta - alpha > 1;
    count_node(t);
    check_limits(t);
    if (ply > t->seldepth) t->seldepth = ply;
    if (stopped(t->shared)) return 0;
    if (pos_is_draw_by_rule(pos, ply) || pos_insufficient_material(pos)) return 0;
    bool in_check = pos_in_check(pos);
    if (ply >= MAX_PLY - 1) return in_check ? 0 : evaluate_node(t, alpha, beta);

    TTHit tt;
    bool tt_hit = tt_probe(t->shared->tt, pos_key(pos), &tt);
    int tt_score = tt_hit ? score_from_tt(tt.score, ply) : SCORE_NONE;
    if (tt_hit && !pv_node && tt_score != SCORE_NONE &&
        (tt.bound == BOUND_EXACT || (tt.bound == BOUND_LOWER && tt_score >= beta) || (tt.bound == BOUND_UPPER && tt_score <= alpha)))
        return tt_score;

    int best = -SCORE_INFINITE, stand_pat = -SCORE_INFINITE;
    if (!in_check) {
        stand_pat = tt_hit && tt.eval != SCORE_NONE ? tt.eval : evaluate_node(t, alpha, beta);
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
                int victim = move_kind(m) == MOVE_ENPASSANT ? PAWN : piece_type(pos->board[move_to(m)]);
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
    tt_store(t->shared->tt, pos_key(pos), best_move, score_to_tt(best, ply), in_check ? SCORE_NONE : stand_pat, 0, bound, pv_node);
    return best;
}

/* ---------- pruning steps before the move loop ---------- */

static bool reverse_futility_prunes(int depth, int eval, int beta, bool improving) {
    return depth <= RFP_MAX_DEPTH && eval < SCORE_MATE_IN_MAX && eval - RFP_MARGIN * (depth - improving) >= beta;
}

static bool razoring_applies(int depth, int eval, int alpha) {
    return depth <= RAZOR_MAX_DEPTH && eval + RAZOR_MARGIN * depth < alpha;
}

static bool null_move_allowed(const SearchThread *t, const Stack *ss, int depth, int eval, int beta, int ply) {
    return depth >= NMP_MIN_DEPTH && eval >= beta && ss->static_eval >= beta && (ss - 1)->move != MOVE_NULL
        && ply >= t->nmp_min_ply && pos_non_pawn_material(&t->pos, t->pos.side) && beta > -SCORE_MATE_IN_MAX;
}

static int search(SearchThread *t, Stack *ss, int alpha, int beta, int depth, bool cut_node, int ply);

/* Returns a score >= beta when the null move (verified at high depth) fails high, else SCORE_NONE. */
static int try_null_move(SearchThread *t, Stack *ss, int depth, int eval, int beta, bool cut_node, int ply) {
    int eval_margin = (eval - beta) / NMP_EVAL_DIVISOR;
    int r = NMP_BASE_REDUCTION + depth / NMP_DEPTH_DIVISOR + (eval_margin < NMP_EVAL_REDUCTION_MAX ? eval_margin : NMP_EVAL_REDUCTION_MAX);
    ss->move = MOVE_NULL;
    ss->moved_piece = NO_PIECE;
    ss->cont = sentinel_cont(t);
    pos_make_null(&t->pos);
    int score = -search(t, ss + 1, -beta, -beta + 1, depth - r, !cut_node, ply + 1);
    pos_unmake_null(&t->pos);
    if (stopped(t->shared) || score < beta) return SCORE_NONE;
    if (score >= SCORE_MATE_IN_MAX) score = beta;
    if (depth < NMP_VERIFY_DEPTH || t->nmp_min_ply) return score;
    /* zugzwang guard: search again without null moves for the next plies */
    t->nmp_min_ply = ply + NMP_VERIFY_PLY_PERCENT * (depth - r) / 100;
    int verify = search(t, ss, beta - 1, beta, depth - r, false, ply);
    t->nmp_min_ply = 0;
    return verify >= beta ? score : SCORE_NONE;
}

/* ---------- pruning steps inside the move loop ---------- */

static int lmp_limit(int depth, bool improving) { return (LMP_BASE + depth * depth) / (improving ? 1 : LMP_NOT_IMPROVING_DIVISOR); }

static bool futility_prunes_quiets(int depth, int eval, int alpha) {
    return depth <= FUTILITY_MAX_DEPTH && eval + FUTILITY_BASE + FUTILITY_PER_DEPTH * depth <= alpha;
}

static bool see_prunes(const Position *pos, Move m, int depth, bool quiet) {
    if (depth > SEE_MAX_DEPTH) return false;
    int threshold = quiet ? -SEE_QUIET_MARGIN * depth : -SEE_NOISY_MARGIN * depth * depth;
    return !see_at_least(pos, m, threshold);
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

/* Singular extension: is the TT move much better than every alternative? Returns the
 * extension, or sets *multicut when even the alternatives beat beta. */
static int singular_extension(SearchThread *t, Stack *ss, Move m, const TTHit *tt, int tt_score, int depth, int beta,
                              bool cut_node, int ply, bool pv_node, int *multicut) {
    int singular_beta = tt_score - SINGULAR_MARGIN * depth;
    ss->excluded = m;
    int score = search(t, ss, singular_beta - 1, singular_beta, (depth - 1) / SINGULAR_DEPTH_DIVISOR, cut_node, ply);
    ss->excluded = MOVE_NONE;
    (void)tt;
    if (score < singular_beta) return !pv_node && score < singular_beta - DOUBLE_EXTENSION_MARGIN ? 2 : 1;
    if (singular_beta >= beta) {
        *multicut = singular_beta;
        return 0;
    }
    if (tt_score >= beta) return -1;
    return 0;
}

static int late_move_reduction(const SearchThread *t, const Stack *ss, Move m, int depth, int move_count, bool pv_node,
                               bool cut_node, bool improving, bool quiet, int hist, bool gives_check, bool tt_pv) {
    (void)t;
    int r = lmr_table[depth < MAX_PLY ? depth : MAX_PLY - 1][move_count < MAX_MOVES ? move_count : MAX_MOVES - 1];
    if (!quiet) r /= LMR_NOISY_DIVISOR;
    r += LMR_NON_PV * !pv_node + LMR_CUT_NODE * cut_node - LMR_IMPROVING * improving - LMR_GIVES_CHECK * gives_check
       - LMR_TT_PV * tt_pv;
    if (quiet) {
        r -= hist / LMR_HISTORY_DIVISOR;
        if (m == ss->killers[0] || m == ss->killers[1]) r -= LMR_KILLER;
    }
    return r;
}

/* ---------- main search ---------- */

static int search(SearchThread *t, Stack *ss, int alpha, int beta, int depth, bool cut_node, int ply) {
    Position *pos = &t->pos;
    SearchShared *shared = t->shared;
    bool pv_node = beta - alpha > 1, root = ply == 0;
    if (depth <= 0) return qsearch(t, ss, alpha, beta, ply);

    count_node(t);
    check_limits(t);
    if (ply > t->seldepth) t->seldepth = ply;
    ss->pv_length = 0;
    if (!root) {
        if (stopped(shared)) return 0;
        if (pos_is_draw_by_rule(pos, ply) || pos_insufficient_material(pos)) {
            /* a checkmate on the 100th ply still counts as mate */
            if (pos_rule50(pos) >= 100 && pos_in_check(pos) && count_legal_moves(pos) == 0) return -SCORE_MATE + ply;
            return 0;
        }
        if (ply >= MAX_PLY - 1) return pos_in_check(pos) ? 0 : evaluate_node(t, alpha, beta);
        /* mate distance pruning: no line can beat a mate already found closer to the root */
        int mated = -SCORE_MATE + ply, mating = SCORE_MATE - ply - 1;
        if (alpha < mated) alpha = mated;
        if (beta > mating) beta = mating;
        if (alpha >= beta) return alpha;
    }
    (ss + 1)->killers[0] = (ss + 1)->killers[1] = MOVE_NONE;
    (ss + 1)->excluded = MOVE_NONE;
    Move excluded = ss->excluded;

    TTHit tt = {0};
    bool tt_hit = !excluded && tt_probe(shared->tt, pos_key(pos), &tt);
    int tt_score = tt_hit ? score_from_tt(tt.score, ply) : SCORE_NONE;
    Move tt_move = root ? t->root_moves[t->pv_index].move : tt_hit ? tt.move : MOVE_NONE;
    bool tt_pv = pv_node || (tt_hit && tt.pv);
    if (!pv_node && tt_hit && tt.depth >= depth && tt_score != SCORE_NONE &&
        (tt.bound == BOUND_EXACT || (tt.bound == BOUND_LOWER && tt_score >= beta) || (tt.bound == BOUND_UPPER && tt_score <= alpha))) {
        if (tt_move && tt_score >= beta && is_quiet(pos, tt_move) && pos_is_pseudo_legal(pos, tt_move))
            update_quiet_history(t, ss, tt_move, history_bonus(depth));
        return tt_score;
    }

    bool in_check = pos_in_check(pos);
    int eval;
    bool improving = false;
    if (in_check) {
        eval = ss->static_eval = SCORE_NONE;
    } else if (excluded) {
        eval = ss->static_eval; /* same node, already evaluated */
    } else {
        ss->static_eval = eval = tt_hit && tt.eval != SCORE_NONE ? tt.eval : evaluate_node(t, alpha, beta);
        if (tt_hit && tt_score != SCORE_NONE && (tt.bound & (tt_score > eval ? BOUND_LOWER : BOUND_UPPER))) eval = tt_score;
        if (!tt_hit) tt_store(shared->tt, pos_key(pos), MOVE_NONE, SCORE_NONE, ss->static_eval, -1, BOUND_NONE, tt_pv);
    }
    if (!in_check) {
        int past = (ss - 2)->static_eval != SCORE_NONE ? (ss - 2)->static_eval : (ss - 4)->static_eval;
        improving = past == SCORE_NONE || ss->static_eval > past;
    }

    if (!pv_node && !in_check && !excluded) {
        if (reverse_futility_prunes(depth, eval, beta, improving)) return eval;
        if (razoring_applies(depth, eval, alpha)) {
            int score = qsearch(t, ss, alpha, alpha + 1, ply);
            if (score <= alpha) return score;
        }
        if (null_move_allowed(t, ss, depth, eval, beta, ply)) {
            int score = try_null_move(t, ss, depth, eval, beta, cut_node, ply);
            if (score != SCORE_NONE) return score;
        }
    }

    /* internal iterative reduction: without a TT move this node is probably less important */
    if (!tt_move && depth >= IIR_MIN_DEPTH && (pv_node || cut_node)) depth--;

    Stack *prev = ss - 1;
    Move counter = prev->move && prev->move != MOVE_NULL ? t->history->countermove[prev->moved_piece][move_to(prev->move)] : MOVE_NONE;
    MovePicker mp;
    movepicker_init(&mp, pos, t->history, tt_move, ss->killers, counter, (ss - 1)->cont, (ss - 2)->cont);

    int best = -SCORE_INFINITE, move_count = 0, quiet_count = 0, capture_count = 0;
    Move best_move = MOVE_NONE, m;
    Move quiets[QUIETS_TRACKED_MAX], captures[CAPTURES_TRACKED_MAX];
    bool skip_quiets = false;
    while ((m = movepicker_next(&mp, skip_quiets)) != MOVE_NONE) {
        if (m == excluded) continue;
        if (root && !root_move_allowed(t, m)) continue;
        move_count++;
        uint64_t key_guess = pos_key_after_approx(pos, m);
        tt_prefetch(shared->tt, key_guess); /* the pruning checks hide the latency */
        bool quiet = is_quiet(pos, m);
        bool gives_check = pos_gives_check(pos, m);
        int pc = pos->board[move_from(m)];
        int hist = quiet ? t->history->butterfly[pos->side][move_from(m) * 64 + move_to(m)]
                             + (ss - 1)->cont[pc][move_to(m)] + (ss - 2)->cont[pc][move_to(m)]
                         : 0;

        if (!root && best > -SCORE_MATE_IN_MAX && pos_non_pawn_material(pos, pos->side)) {
            if (quiet && !in_check) {
                if (depth <= LMP_MAX_DEPTH && move_count >= lmp_limit(depth, improving)) {
                    skip_quiets = true;
                    continue;
                }
                if (!gives_check && futility_prunes_quiets(depth, ss->static_eval, alpha)) {
                    skip_quiets = true;
                    continue;
                }
            }
            if (see_prunes(pos, m, depth, quiet)) continue;
        }

        int extension = 0;
        if (!root && m == tt_move && depth >= SINGULAR_MIN_DEPTH && !excluded && tt.depth >= depth - SINGULAR_TT_DEPTH_MARGIN &&
            (tt.bound & BOUND_LOWER) && tt_score != SCORE_NONE && abs(tt_score) < SCORE_MATE_IN_MAX
            && ply < SINGULAR_MAX_PLY_PER_DEPTH * depth + SINGULAR_MAX_PLY_BASE) {
            int multicut = SCORE_NONE;
            extension = singular_extension(t, ss, m, &tt, tt_score, depth, beta, cut_node, ply, pv_node, &multicut);
            if (multicut != SCORE_NONE) return multicut;
        } else if (gives_check && ply < CHECK_EXTENSION_PLY_PER_DEPTH * t->root_depth) {
            extension = 1; /* check extension */
        }

        uint64_t nodes_before = thread_nodes(t);
        make_move(t, ss, m);
        if (pos_key(pos) != key_guess) tt_prefetch(shared->tt, pos_key(pos)); /* castling rights, new ep square */
        int new_depth = depth - 1 + extension;
        int score;
        if (depth >= LMR_MIN_DEPTH && move_count > 1 + root && (quiet || !tt_pv)) {
            int r = late_move_reduction(t, ss, m, depth, move_count, pv_node, cut_node, improving, quiet, hist, gives_check, tt_pv);
            int reduced = new_depth - r;
            if (reduced > new_depth) reduced = new_depth;
            if (reduced < 1) reduced = 1;
            score = -search(t, ss + 1, -alpha - 1, -alpha, reduced, true, ply + 1);
            if (score > alpha && reduced < new_depth) score = -search(t, ss + 1, -alpha - 1, -alpha, new_depth, !cut_node, ply + 1);
        } else if (!pv_node || move_count > 1) {
            score = -search(t, ss + 1, -alpha - 1, -alpha, new_depth, !cut_node, ply + 1);
        } else {
            score = alpha + 1; /* first move of a PV node: full window below */
        }
        if (pv_node && (move_count == 1 || (score > alpha && (root || score < beta))))
            score = -search(t, ss + 1, -beta, -alpha, new_depth, false, ply + 1);
        unmake_move(t);
        (void)nodes_before;
        if (stopped(shared)) return 0;

        if (root) {
            RootMove *rm = find_root_move(t, m);
            if (move_count == 1 || score > alpha) {
                rm->score = score;
                rm->bound = score >= beta ? BOUND_LOWER : BOUND_EXACT;
                rm->seldepth = t->seldepth;
                rm->pv[0] = m;
                rm->pv_length = 1;
                for (int i = 0; i < (ss + 1)->pv_length && rm->pv_length < MAX_PLY; i++) rm->pv[rm->pv_length++] = (ss + 1)->pv[i];
            } else {
                rm->score = -SCORE_INFINITE;
            }
        }
        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                if (pv_node && !root) {
                    ss->pv[0] = m;
                    ss->pv_length = 1;
                    for (int i = 0; i < (ss + 1)->pv_length && ss->pv_length < MAX_PLY; i++) ss->pv[ss->pv_length++] = (ss + 1)->pv[i];
                }
                if (score >= beta) break;
                alpha = score;
            }
        }
        if (m != best_move) {
            if (quiet && quiet_count < QUIETS_TRACKED_MAX) quiets[quiet_count++] = m;
            else if (!quiet && capture_count < CAPTURES_TRACKED_MAX) captures[capture_count++] = m;
        }
    }

    if (move_count == 0) return excluded ? alpha : in_check ? -SCORE_MATE + ply : 0;
    if (best >= beta && best_move) update_on_cutoff(t, ss, best_move, depth, quiets, quiet_count, captures, capture_count);
    if (!excluded && !(root && t->pv_index > 0)) {
        int bound = best >= beta ? BOUND_LOWER : (pv_node && best_move) ? BOUND_EXACT : BOUND_UPPER;
        tt_store(shared->tt, pos_key(pos), best_move, score_to_tt(best, ply), ss->static_eval, depth, bound, tt_pv);
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
    r.time_ms = timeman_elapsed(&s->tm);
    r.nps = r.time_ms > 0 ? r.nodes * 1000 / (uint64_t)r.time_ms : r.nodes * 1000;
    r.hashfull = tt_hashfull(s->tt);
    r.pv_length = rm->pv_length;
    memcpy(r.pv, rm->pv, sizeof(Move) * (size_t)rm->pv_length);
    s->output.report(&r, s->output.ctx);
}

void search_setup_root(SearchThread *t, const Position *root, const SearchLimits *limits) {
    MoveList list;
    memcpy(&t->pos, root, sizeof t->pos);
    /* the accumulator is kept only when the NNUE evaluates */
    t->nnue = evaluate_uses_nnue();
    t->accumulator->eager = engine_options.nnue_eager;
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
    int multipv = limits->multipv > 0 ? limits->multipv : engine_options.multipv;
    t->multipv = multipv < t->root_count ? multipv : t->root_count;
    if (t->multipv < 1) t->multipv = 1;
    t->nodes = 0;
    t->seldepth = 0;
    t->nmp_min_ply = 0;
    t->completed_depth = 0;
    t->eval_stats = (EvalStats){0, 0};
    memset(t->stack_storage, 0, sizeof t->stack_storage);
    for (int i = 0; i < MAX_PLY + 10; i++) {
        t->stack_storage[i].static_eval = SCORE_NONE;
        t->stack_storage[i].moved_piece = NO_PIECE;
        t->stack_storage[i].cont = sentinel_cont(t);
    }
}

static bool mate_limit_reached(const SearchShared *s, int score) {
    return s->limits.mate > 0 && score >= SCORE_MATE_IN_MAX && score_mate_moves(score) <= s->limits.mate;
}

void search_iterative_deepening(SearchThread *t) {
    SearchShared *s = t->shared;
    Stack *ss = t->stack_storage + 4;
    int max_depth = s->limits.depth > 0 && s->limits.depth < MAX_PLY - 1 ? s->limits.depth : MAX_PLY - 2;
    Move last_best = MOVE_NONE;
    int stable_iterations = 0, last_score = 0;
    if (t->root_count == 0) return;

    for (int depth = 1; depth <= max_depth; depth++) {
        t->root_depth = depth;
        for (int i = 0; i < t->root_count; i++) t->root_moves[i].prev_score = t->root_moves[i].score;
        for (t->pv_index = 0; t->pv_index < t->multipv; t->pv_index++) {
            t->seldepth = 0;
            int delta = ASPIRATION_DELTA, alpha = -SCORE_INFINITE, beta = SCORE_INFINITE;
            int prev = t->root_moves[t->pv_index].prev_score;
            if (depth >= ASPIRATION_MIN_DEPTH && prev != -SCORE_INFINITE) {
                alpha = prev - delta > -SCORE_INFINITE ? prev - delta : -SCORE_INFINITE;
                beta = prev + delta < SCORE_INFINITE ? prev + delta : SCORE_INFINITE;
            }
            for (;;) {
                int score = search(t, ss, alpha, beta, depth, false, 0);
                sort_root_moves(t->root_moves, t->pv_index, t->root_count);
                if (stopped(s)) break;
                if (score <= alpha) {
                    beta = (alpha + beta) / 2;
                    alpha = score - delta > -SCORE_INFINITE ? score - delta : -SCORE_INFINITE;
                    if (t->id == 0 && timeman_elapsed(&s->tm) > BOUND_LINES_AFTER_MS) report_line(t, depth, t->pv_index, BOUND_UPPER);
                } else if (score >= beta) {
                    beta = score + delta < SCORE_INFINITE ? score + delta : SCORE_INFINITE;
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

        for (int i = 0; i < t->multipv; i++) report_line(t, depth, i, BOUND_NONE);
        int score = t->root_moves[0].score;
        if (mate_limit_reached(s, score)) break;
        if (s->limits.nodes && total_nodes(s) >= s->limits.nodes) break;
        if (!s->tm.timed || atomic_load(&s->pondering)) continue;

        Move best = t->root_moves[0].move;
        stable_iterations = best == last_best ? stable_iterations + 1 : 0;
        last_best = best;
        IterationProgress progress = {depth, stable_iterations, last_score - score, t->root_count};
        last_score = score;
        if (timeman_elapsed(&s->tm) >= timeman_iteration_limit(s->tm.soft_ms, &progress)) break;
    }
}


/* ---------- one thread's searcher, as the thread pool drives it ---------- */

void search_tables_init(void) {
    for (int d = 1; d < MAX_PLY; d++)
        for (int m = 1; m < MAX_MOVES; m++) lmr_table[d][m] = (int)(LMR_BASE_PERCENT / 100.0 + log(d) * log(m) / (LMR_DIVISOR_PERCENT / 100.0));
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
    for (int i = 0; i < s->thread_count; i++) {
        res->eval_full += s->threads[i]->eval_stats.full;
        res->eval_lazy += s->threads[i]->eval_stats.lazy;
    }
}

void search_limits_clear(SearchLimits *l) {
    memset(l, 0, sizeof *l);
    l->time[WHITE] = l->time[BLACK] = -1;
    l->inc[WHITE] = l->inc[BLACK] = 0;
}
