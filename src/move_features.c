/* Move features for the move guesser: cheap board facts about one legal move, from the side to
 * move's point of view, computed from bitboards without making the move. */
#include "move_features.h"

#include <stdlib.h>
#include <string.h>

#include "game_record.h"
#include "movegen.h"
#include "notation.h"
#include "see.h"

const char *const move_feature_names[MOVE_FEATURE_COUNT] = {
    [MF_CAPTURE] = "capture",
    [MF_VICTIM_VALUE] = "victim_value",
    [MF_MOVER_PAWN] = "mover_pawn",
    [MF_MOVER_KNIGHT] = "mover_knight",
    [MF_MOVER_BISHOP] = "mover_bishop",
    [MF_MOVER_ROOK] = "mover_rook",
    [MF_MOVER_QUEEN] = "mover_queen",
    [MF_MOVER_KING] = "mover_king",
    [MF_SEE] = "see",
    [MF_CHECK] = "check",
    [MF_QUEEN_PROMOTION] = "queen_promotion",
    [MF_UNDER_PROMOTION] = "under_promotion",
    [MF_CASTLING] = "castling",
    [MF_RECAPTURE] = "recapture",
    [MF_ESCAPES_PAWN] = "escapes_pawn",
    [MF_INTO_PAWN] = "into_pawn",
    [MF_ESCAPES_HANGING] = "escapes_hanging",
    [MF_TO_ATTACKERS] = "to_attackers",
    [MF_TO_DEFENDERS] = "to_defenders",
    [MF_CENTRALITY_GAIN] = "centrality_gain",
    [MF_PAWN_RANK] = "pawn_rank",
    [MF_PASSED_PAWN_PUSH] = "passed_pawn_push",
    [MF_KING_ZONE_ATTACKS] = "king_zone_attacks",
};

/* The exchange value of m: the largest threshold see_at_least accepts, by bisection. */
static int see_value(const Position *pos, Move m) {
    int lo = -MOVE_FEATURE_SEE_LIMIT, hi = MOVE_FEATURE_SEE_LIMIT;
    if (!see_at_least(pos, m, lo)) return lo;
    while (lo < hi) { /* see_at_least(lo) holds; find the last threshold that does */
        int mid = lo + (hi - lo + 1) / 2;
        if (see_at_least(pos, m, mid)) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/* Twice the distance from the centre, in king steps along the longer axis: 1 (centre) .. 7. */
static int centre_distance(int sq) {
    int f = abs(2 * square_file(sq) - 7), r = abs(2 * square_rank(sq) - 7);
    return f > r ? f : r;
}

/* The squares ahead of a pawn of colour c on sq, on its file and the two beside it. */
static Bitboard front_span(int c, int sq) {
    Bitboard files = file_bb(sq) | shift_east(file_bb(sq)) | shift_west(file_bb(sq)), ahead = 0;
    for (int r = square_rank(sq) + (c == WHITE ? 1 : -1); r >= 0 && r < 8; r += c == WHITE ? 1 : -1) ahead |= RANK_1_BB << (8 * r);
    return files & ahead;
}

void move_features(const Position *pos, Move m, int features[MOVE_FEATURE_COUNT]) {
    memset(features, 0, MOVE_FEATURE_COUNT * sizeof *features);
    int us = pos->side, them = !us, from = move_from(m), to = move_to(m), kind = move_kind(m);
    int type = piece_type(pos->board[from]), lands_as = kind == MOVE_PROMOTION ? move_promo_type(m) : type;
    Bitboard own = pos->color_bb[us], enemy = pos->color_bb[them];
    Bitboard enemy_pawn_attacks = pawn_attacks_bb(them, pos_pieces(pos, them, PAWN));
    bool capture = pos_is_capture(pos, m);
    int victim_square = kind == MOVE_ENPASSANT ? to + (us == WHITE ? -8 : 8) : to;
    Bitboard occupied_after = (pos->occupied & ~square_bb(from) & ~square_bb(victim_square)) | square_bb(to);

    features[MF_CAPTURE] = capture;
    features[MF_VICTIM_VALUE] = capture ? see_piece_value[piece_type(pos->board[victim_square])] : 0;
    features[MF_MOVER_PAWN + type] = 1;
    features[MF_SEE] = see_value(pos, m);
    features[MF_CHECK] = pos_gives_check(pos, m);
    features[MF_QUEEN_PROMOTION] = kind == MOVE_PROMOTION && lands_as == QUEEN;
    features[MF_UNDER_PROMOTION] = kind == MOVE_PROMOTION && lands_as != QUEEN;
    features[MF_CASTLING] = kind == MOVE_CASTLING;
    const StateInfo *last = pos_state(pos);
    features[MF_RECAPTURE] = capture && last->captured != NO_PIECE && move_to(last->move) == victim_square;
    if (type != PAWN) {
        features[MF_ESCAPES_PAWN] = (enemy_pawn_attacks & square_bb(from)) != 0;
        features[MF_INTO_PAWN] = (enemy_pawn_attacks & square_bb(to)) != 0;
    }
    features[MF_ESCAPES_HANGING] = pos_square_attacked(pos, from, them, pos->occupied) && !(pos_attackers_to(pos, from, pos->occupied) & own);
    if (kind != MOVE_CASTLING) {
        /* who attacks the destination once the mover stands there (the victim gone, x-rays through the from square) */
        Bitboard attackers = pos_attackers_to(pos, to, occupied_after) & ~square_bb(from) & ~square_bb(victim_square);
        features[MF_TO_ATTACKERS] = popcount(attackers & enemy);
        features[MF_TO_DEFENDERS] = popcount(attackers & own);
        Bitboard reach = lands_as == PAWN ? pawn_attacks(us, to) : piece_attacks(lands_as, to, occupied_after);
        features[MF_KING_ZONE_ATTACKS] = popcount(reach & king_attacks(pos->king_square[them]));
    }
    features[MF_CENTRALITY_GAIN] = (centre_distance(from) - centre_distance(to)) / 2;
    if (type == PAWN) {
        features[MF_PAWN_RANK] = relative_rank(us, to) + 1;
        features[MF_PASSED_PAWN_PUSH] = !(front_span(us, to) & pos_pieces(pos, them, PAWN) & ~square_bb(victim_square));
    }
}

void move_features_print(const Position *pos, FILE *out) {
    fprintf(out, "MOVE_FEATURES_NAMES");
    for (int i = 0; i < MOVE_FEATURE_COUNT; i++) fprintf(out, " %s", move_feature_names[i]);
    fprintf(out, "\n");
    MoveList list;
    generate_legal(pos, &list);
    for (int i = 0; i < list.count; i++) {
        int f[MOVE_FEATURE_COUNT];
        char uci[8];
        move_features(pos, list.moves[i], f);
        move_to_uci(pos, list.moves[i], uci);
        fprintf(out, "MOVE_FEATURES %s", uci);
        for (int k = 0; k < MOVE_FEATURE_COUNT; k++) fprintf(out, " %d", f[k]);
        fprintf(out, "\n");
    }
}

void move_features_usage(FILE *out) { fprintf(out, "usage: squall movefeatures [FEN|startpos] [moves M1 M2 ...]\n"); }

int move_features_main(int argc, char **argv) {
    /* the words after the subcommand: a FEN (in one argument or several), then "moves ..." */
    char fen[256] = "";
    int first_move = argc;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "moves")) {
            first_move = i + 1;
            break;
        }
        size_t n = strlen(fen);
        snprintf(fen + n, sizeof fen - n, "%s%s", n ? " " : "", argv[i]);
    }
    GameRecord game;
    game_init(&game);
    char err[256];
    bool ok = game_set(&game, fen[0] && strcmp(fen, "startpos") ? fen : START_FEN, argv + first_move, argc - first_move, err,
                       sizeof err);
    if (ok) move_features_print(&game.pos, stdout);
    else {
        fprintf(stderr, "movefeatures: %s\n", err);
        move_features_usage(stderr);
    }
    game_free(&game);
    return ok ? 0 : 2;
}
