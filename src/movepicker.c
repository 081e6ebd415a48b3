/* Move ordering. The generator is fully legal, so moves from other sources (TT, killers,
 * countermove) are checked with pos_is_pseudo_legal and never returned twice. */
#include "movepicker.h"

#include "search_params.h"
#include "see.h"

enum {
    STAGE_TT, STAGE_GEN_NOISY, STAGE_GOOD_NOISY, STAGE_KILLER1, STAGE_KILLER2, STAGE_COUNTER,
    STAGE_GEN_QUIET, STAGE_QUIET, STAGE_BAD_NOISY, STAGE_DONE,
    STAGE_EVASION_TT, STAGE_GEN_EVASIONS, STAGE_EVASIONS,
    STAGE_QS_TT, STAGE_QS_GEN, STAGE_QS_NOISY
};

static void setup(MovePicker *mp, const Position *pos, const History *history, Move tt_move, const Move killers[2],
                  Move counter, const int16_t (*cont0)[SQUARE_NB], const int16_t (*cont1)[SQUARE_NB],
                  const int16_t (*cont3)[SQUARE_NB]) {
    mp->pos = pos;
    mp->history = history;
    mp->cont[0] = cont0;
    mp->cont[1] = cont1;
    mp->cont[2] = cont3;
    mp->tt_move = tt_move && pos_is_pseudo_legal(pos, tt_move) ? tt_move : MOVE_NONE;
    mp->killers[0] = killers[0];
    mp->killers[1] = killers[1];
    mp->counter = counter;
    mp->bad_count = mp->bad_index = 0;
    mp->threats = 0;
    mp->stage = pos_in_check(pos) ? STAGE_EVASION_TT : STAGE_TT;
}

void movepicker_init(MovePicker *mp, const Position *pos, const History *history, Move tt_move,
                     const Move killers[2], Move counter, const int16_t (*cont0)[SQUARE_NB],
                     const int16_t (*cont1)[SQUARE_NB], const int16_t (*cont3)[SQUARE_NB], Bitboard threats) {
    setup(mp, pos, history, tt_move, killers, counter, cont0, cont1, cont3);
    mp->threats = threats;
    pos_check_info(pos, &mp->checks);
}

void movepicker_init_qsearch(MovePicker *mp, const Position *pos, const History *history, Move tt_move) {
    static const Move no_killers[2] = {MOVE_NONE, MOVE_NONE};
    setup(mp, pos, history, MOVE_NONE, no_killers, MOVE_NONE, NULL, NULL, NULL);
    bool in_check = pos_in_check(pos);
    if (tt_move && pos_is_pseudo_legal(pos, tt_move) && (in_check || pos_is_capture(pos, tt_move) || move_is_queen_promotion(tt_move)))
        mp->tt_move = tt_move;
    mp->stage = in_check ? STAGE_EVASION_TT : STAGE_QS_TT;
}

static int captured_type(const Position *pos, Move m) {
    if (move_kind(m) == MOVE_ENPASSANT) return PAWN;
    int pc = pos->board[move_to(m)];
    return pc == NO_PIECE ? PAWN /* quiet queen promotion */ : piece_type(pc);
}

static void score_noisy(MovePicker *mp) {
    for (int i = 0; i < mp->list.count; i++) {
        Move m = mp->list.moves[i];
        int victim = captured_type(mp->pos, m);
        int mover = mp->pos->board[move_from(m)];
        mp->scores[i] = ORDER_VICTIM_WEIGHT * see_piece_value[victim] + mp->history->capture[mover][move_to(m)][victim]
                      + (move_kind(m) == MOVE_PROMOTION ? ORDER_PROMOTION_WEIGHT * see_piece_value[move_promo_type(m)] : 0);
    }
}

static int quiet_score(const MovePicker *mp, Move m) {
    int pc = mp->pos->board[move_from(m)], to = move_to(m);
    int s = mp->history->butterfly[mp->pos->side][butterfly_index(mp->threats, m)];
    if (mp->cont[0]) s += mp->cont[0][pc][to];
    if (mp->cont[1]) s += mp->cont[1][pc][to];
    if (CONT_HISTORY_PLY4 && mp->cont[2]) s += mp->cont[2][pc][to]; /* a candidate: compiled out when off */
    return s;
}

static void score_quiets(MovePicker *mp) {
    for (int i = 0; i < mp->list.count; i++) mp->scores[i] = quiet_score(mp, mp->list.moves[i]);
}

static void score_evasions(MovePicker *mp) {
    for (int i = 0; i < mp->list.count; i++) {
        Move m = mp->list.moves[i];
        if (pos_is_capture(mp->pos, m))
            mp->scores[i] = EVASION_CAPTURE_BONUS + ORDER_VICTIM_WEIGHT * see_piece_value[captured_type(mp->pos, m)]
                          - piece_type(mp->pos->board[move_from(m)]);
        else mp->scores[i] = quiet_score(mp, m);
    }
}

/* Moves the best remaining entry to the front of the unvisited part and returns it. */
static Move pick_best(MovePicker *mp) {
    int best = mp->index;
    for (int i = mp->index + 1; i < mp->list.count; i++)
        if (mp->scores[i] > mp->scores[best]) best = i;
    Move m = mp->list.moves[best];
    int s = mp->scores[best];
    mp->list.moves[best] = mp->list.moves[mp->index];
    mp->scores[best] = mp->scores[mp->index];
    mp->list.moves[mp->index] = m;
    mp->scores[mp->index] = s;
    mp->index++;
    return m;
}

static bool is_special_quiet(const MovePicker *mp, Move m) {
    return m == mp->killers[0] || m == mp->killers[1] || m == mp->counter;
}

static bool usable_quiet(const MovePicker *mp, Move m) {
    return m != MOVE_NONE && m != mp->tt_move && !pos_is_capture(mp->pos, m) && pos_is_pseudo_legal(mp->pos, m)
        && !move_is_queen_promotion(m);
}

/* A killer or countermove to return now: usable, and a check when the other quiets are skipped. */
static bool wanted_quiet(const MovePicker *mp, Move m, bool skip_quiets) {
    return usable_quiet(mp, m) && (!skip_quiets || pos_gives_check_with(mp->pos, &mp->checks, m));
}

Move movepicker_next(MovePicker *mp, bool skip_quiets) {
    for (;;) {
        switch (mp->stage) {
        case STAGE_TT:
        case STAGE_EVASION_TT:
        case STAGE_QS_TT:
            mp->stage++;
            if (mp->tt_move) return mp->tt_move;
            break;
        case STAGE_GEN_NOISY:
        case STAGE_QS_GEN:
            generate_moves(mp->pos, &mp->list, GEN_NOISY);
            score_noisy(mp);
            mp->index = 0;
            mp->stage++;
            break;
        case STAGE_GOOD_NOISY:
            while (mp->index < mp->list.count) {
                Move m = pick_best(mp);
                if (m == mp->tt_move) continue;
                if (!see_at_least(mp->pos, m, GOOD_CAPTURE_SEE_THRESHOLD)) { /* losing: try after the quiets */
                    mp->bad[mp->bad_count++] = m;
                    continue;
                }
                return m;
            }
            mp->stage++;
            break;
        case STAGE_KILLER1:
            mp->stage++;
            if (wanted_quiet(mp, mp->killers[0], skip_quiets)) return mp->killers[0];
            break;
        case STAGE_KILLER2:
            mp->stage++;
            if (mp->killers[1] != mp->killers[0] && wanted_quiet(mp, mp->killers[1], skip_quiets)) return mp->killers[1];
            break;
        case STAGE_COUNTER:
            mp->stage++;
            if (mp->counter != mp->killers[0] && mp->counter != mp->killers[1] && wanted_quiet(mp, mp->counter, skip_quiets))
                return mp->counter;
            break;
        case STAGE_GEN_QUIET:
            mp->stage++;
            mp->index = 0;
            generate_moves(mp->pos, &mp->list, GEN_QUIET);
            score_quiets(mp);
            break;
        case STAGE_QUIET:
            while (mp->index < mp->list.count) {
                /* skipping: only checks are left to find, in generation order */
                Move m = skip_quiets ? mp->list.moves[mp->index++] : pick_best(mp);
                if (m == mp->tt_move || is_special_quiet(mp, m) || (skip_quiets && !pos_gives_check_with(mp->pos, &mp->checks, m))) continue;
                return m;
            }
            mp->stage++;
            break;
        case STAGE_BAD_NOISY:
            if (mp->bad_index < mp->bad_count) return mp->bad[mp->bad_index++];
            mp->stage = STAGE_DONE;
            break;
        case STAGE_GEN_EVASIONS:
            generate_moves(mp->pos, &mp->list, GEN_ALL);
            score_evasions(mp);
            mp->index = 0;
            mp->stage++;
            break;
        case STAGE_EVASIONS:
        case STAGE_QS_NOISY:
            while (mp->index < mp->list.count) {
                Move m = pick_best(mp);
                if (m != mp->tt_move) return m;
            }
            mp->stage = STAGE_DONE;
            break;
        default:
            return MOVE_NONE;
        }
    }
}
