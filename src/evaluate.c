/* Classical evaluation: tapered material and piece-square tables built from a few simple
 * shapes (centralisation, advancement, king shelter), plus mobility, pawn structure,
 * passed pawns, rook files, bishop pair and king-zone pressure. It bootstraps the first
 * net's data and stays as the fallback, so it is kept small and fast. */
#include "evaluate.h"

#include <stdlib.h>

#include "nnue.h"

typedef struct { int mg, eg; } Score2;

#define S(m, e) ((Score2){(m), (e)})

static const Score2 material[PIECE_TYPE_NB] = {S(85, 110), S(330, 300), S(345, 320), S(470, 540), S(990, 980), S(0, 0)};
static const int phase_weight[PIECE_TYPE_NB] = {0, 1, 1, 2, 4, 0};
#define PHASE_MAX 24

/* piece-square values for white pieces, index [type][square]; black uses the rank mirror */
static Score2 psq[PIECE_TYPE_NB][SQUARE_NB];

static const int passed_mg[8] = {0, 5, 8, 14, 28, 50, 85, 0};
static const int passed_eg[8] = {0, 10, 16, 30, 55, 95, 150, 0};
static const int mobility_base[PIECE_TYPE_NB] = {0, 4, 6, 7, 13, 0};
static const Score2 mobility_step[PIECE_TYPE_NB] = {S(0, 0), S(4, 4), S(5, 5), S(2, 4), S(1, 2), S(0, 0)};
static const int king_attack_weight[PIECE_TYPE_NB] = {0, 2, 2, 3, 5, 0};
static const Score2 doubled_pawn = S(-10, -20);
static const Score2 isolated_pawn = S(-10, -14);
static const Score2 rook_open_file = S(25, 10);
static const Score2 rook_semi_open_file = S(12, 6);
static const Score2 bishop_pair = S(30, 50);
static const Score2 pawn_shield = S(12, 0);
static const int tempo = 15;

static int center_distance(int sq) { /* 0 in the centre, 6 in a corner */
    int f = square_file(sq), r = square_rank(sq);
    return (abs(2 * f - 7) + abs(2 * r - 7)) / 2 - 1;
}

void evaluate_init(void) {
    static const int pawn_mg_rank[8] = {0, 0, 2, 6, 14, 26, 45, 0};
    static const int pawn_eg_rank[8] = {0, 0, 4, 10, 18, 30, 45, 0};
    for (int sq = 0; sq < 64; sq++) {
        int f = square_file(sq), r = square_rank(sq), cd = center_distance(sq);
        bool central_file = f == 3 || f == 4;
        psq[PAWN][sq] = S(pawn_mg_rank[r] + (central_file && r >= 2 && r <= 4 ? 12 : 0) - (f == 0 || f == 7 ? 4 : 0), pawn_eg_rank[r]);
        psq[KNIGHT][sq] = S(18 - 7 * cd, 14 - 5 * cd);
        psq[BISHOP][sq] = S(8 - 3 * cd + (r == 0 ? -6 : 0), 8 - 3 * cd);
        psq[ROOK][sq] = S((r == 6 ? 18 : 0) + (central_file ? 4 : 0), r == 6 ? 10 : 0);
        psq[QUEEN][sq] = S(2 - cd, 12 - 4 * cd);
        int shelter = r == 0 ? (f <= 2 || f >= 6 ? 25 : f == 5 ? 8 : -5) : r == 1 ? (f <= 2 || f >= 6 ? 8 : -10) : -25 - 10 * r;
        psq[KING][sq] = S(shelter, 24 - 8 * cd);
    }
}

static inline void add(Score2 *s, Score2 v, int sign) {
    s->mg += sign * v.mg;
    s->eg += sign * v.eg;
}

static Bitboard forward_files(int c, int sq) {
    Bitboard files = file_bb(sq) | (square_file(sq) > 0 ? file_bb(sq - 1) : 0) | (square_file(sq) < 7 ? file_bb(sq + 1) : 0);
    Bitboard ahead = c == WHITE ? ~0ULL << 8 << (sq & 56) : ~0ULL >> 8 >> (56 - (sq & 56));
    return files & ahead;
}

static void evaluate_side(const Position *pos, int us, Score2 *score, int *phase) {
    int them = !us, sign = us == WHITE ? 1 : -1;
    Bitboard own_pawns = pos_pieces(pos, us, PAWN), their_pawns = pos_pieces(pos, them, PAWN);
    Bitboard their_pawn_attacks = pawn_attacks_bb(them, their_pawns);
    Bitboard mobility_area = ~(pos->color_bb[us] | their_pawn_attacks);
    int their_king = pos->king_square[them];
    Bitboard king_zone = king_attacks(their_king) | square_bb(their_king);
    int attack_units = 0, attackers = 0;

    for (int type = PAWN; type <= KING; type++) {
        Bitboard b = pos_pieces(pos, us, type);
        *phase += phase_weight[type] * popcount(b);
        while (b) {
            int sq = pop_lsb(&b);
            int rel = us == WHITE ? sq : sq ^ 56;
            add(score, material[type], sign);
            add(score, psq[type][rel], sign);
            if (type == PAWN) {
                if (!(forward_files(us, sq) & their_pawns)) {
                    int rr = relative_rank(us, sq);
                    add(score, S(passed_mg[rr], passed_eg[rr]), sign);
                }
                Bitboard adjacent = (square_file(sq) > 0 ? file_bb(sq - 1) : 0) | (square_file(sq) < 7 ? file_bb(sq + 1) : 0);
                if (!(adjacent & own_pawns)) add(score, isolated_pawn, sign);
                continue;
            }
            if (type == KING) continue;
            Bitboard att = piece_attacks(type, sq, pos->occupied);
            int mob = popcount(att & mobility_area) - mobility_base[type];
            add(score, S(mobility_step[type].mg * mob, mobility_step[type].eg * mob), sign);
            if (att & king_zone) {
                attackers++;
                attack_units += king_attack_weight[type] * popcount(att & king_zone);
            }
            if (type == ROOK && !(file_bb(sq) & own_pawns))
                add(score, (file_bb(sq) & their_pawns) ? rook_semi_open_file : rook_open_file, sign);
        }
    }
    for (int f = 0; f < 8; f++) {
        int n = popcount(own_pawns & (FILE_A_BB << f));
        if (n > 1) add(score, doubled_pawn, sign * (n - 1));
    }
    if (popcount(pos_pieces(pos, us, BISHOP)) >= 2) add(score, bishop_pair, sign);
    /* pawns in front of our own king */
    int ksq = pos->king_square[us];
    Bitboard shield = forward_files(us, ksq) & (us == WHITE ? (rank_bb(ksq) << 8 | rank_bb(ksq) << 16) : (rank_bb(ksq) >> 8 | rank_bb(ksq) >> 16));
    add(score, pawn_shield, sign * popcount(shield & own_pawns));
    /* pressure on the enemy king grows faster than linearly with the attackers */
    if (attackers >= 2 && pos_pieces(pos, us, QUEEN)) {
        int penalty = attack_units * attack_units / 2;
        add(score, S(penalty > 500 ? 500 : penalty, 0), sign);
    }
}

int classical_evaluate(const Position *pos) {
    Score2 score = S(0, 0);
    int phase = 0;
    evaluate_side(pos, WHITE, &score, &phase);
    evaluate_side(pos, BLACK, &score, &phase);
    if (phase > PHASE_MAX) phase = PHASE_MAX;
    int value = (score.mg * phase + score.eg * (PHASE_MAX - phase)) / PHASE_MAX;
    /* without pawns, a small material edge rarely wins */
    int strong = value > 0 ? WHITE : BLACK;
    if (!pos_pieces(pos, strong, PAWN)) {
        int npm_diff = 0;
        for (int t = KNIGHT; t <= QUEEN; t++)
            npm_diff += material[t].eg * (popcount(pos_pieces(pos, strong, t)) - popcount(pos_pieces(pos, !strong, t)));
        if (npm_diff <= material[BISHOP].eg) value /= 4;
    }
    return (pos->side == WHITE ? value : -value) + tempo;
}

static bool nnue_active(const EngineSettings *settings) {
    return settings->eval_mode == EVAL_MODE_NNUE && nnue_is_loaded();
}

int evaluate(const Position *pos, struct Accumulator *acc, int alpha, int beta, const EngineSettings *settings,
             EvalStats *stats) {
    if (acc && nnue_active(settings)) {
        /* lazy tier: the PSQT sum alone decides nodes far outside the window */
        if (settings->lazy_eval) {
            int psqt = nnue_psqt_only(pos, acc);
            if (psqt > beta + settings->lazy_margin || psqt < alpha - settings->lazy_margin) {
                if (stats) stats->lazy++;
                return psqt;
            }
        }
        if (stats) stats->full++;
        return nnue_evaluate(pos, acc);
    }
    if (stats) stats->full++;
    return classical_evaluate(pos);
}

bool evaluate_uses_nnue(const EngineSettings *settings) { return nnue_active(settings); }

const char *evaluate_name(const EngineSettings *settings) { return nnue_active(settings) ? "nnue" : "classical"; }

void evaluate_print(const Position *pos, const EngineSettings *settings, FILE *out) {
    /* the full value search would use (no lazy exit), from a temporary accumulator */
    int v = nnue_active(settings) ? nnue_evaluate(pos, NULL) : classical_evaluate(pos);
    fprintf(out, "Evaluation: %+.2f (%s, side to move)\n", v / 100.0, evaluate_name(settings));
    if (nnue_active(settings)) fprintf(out, "Classical: %+.2f\n", classical_evaluate(pos) / 100.0);
}
