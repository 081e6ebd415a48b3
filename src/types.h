/* Basic types shared by every part of the engine. */
#ifndef SQUALL_TYPES_H
#define SQUALL_TYPES_H

#include <stdbool.h>
#include <stdint.h>

typedef uint64_t Bitboard;
typedef uint16_t Move;

enum { WHITE, BLACK, COLOR_NB };
enum { PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, PIECE_TYPE_NB };

/* Pieces are type + 6 * colour: 0..5 white, 6..11 black. */
enum {
    W_PAWN, W_KNIGHT, W_BISHOP, W_ROOK, W_QUEEN, W_KING,
    B_PAWN, B_KNIGHT, B_BISHOP, B_ROOK, B_QUEEN, B_KING,
    PIECE_NB, NO_PIECE = PIECE_NB
};

/* Squares a1 = 0 ... h8 = 63 (rank * 8 + file). */
enum {
    A1, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
    SQUARE_NB, SQ_NONE = SQUARE_NB
};

enum { WHITE_OO = 1, WHITE_OOO = 2, BLACK_OO = 4, BLACK_OOO = 8, ALL_CASTLING = 15 };

/* Move: bits 0-5 from, 6-11 to, 12-13 promotion piece (knight..queen), 14-15 kind. */
enum { MOVE_NORMAL = 0, MOVE_PROMOTION = 1, MOVE_ENPASSANT = 2, MOVE_CASTLING = 3 };
#define MOVE_NONE ((Move)0)
#define MOVE_NULL ((Move)(65)) /* b1b1: never a real move */

static inline Move move_make(int from, int to) { return (Move)(from | (to << 6)); }
static inline Move move_make_kind(int from, int to, int kind, int promo_type) {
    return (Move)(from | (to << 6) | ((promo_type - KNIGHT) << 12) | (kind << 14));
}
static inline int move_from(Move m) { return m & 63; }
static inline int move_to(Move m) { return (m >> 6) & 63; }
static inline int move_kind(Move m) { return m >> 14; }
static inline int move_promo_type(Move m) { return ((m >> 12) & 3) + KNIGHT; }
/* Ordering and pruning treat a queen promotion like a capture (under-promotions stay quiet). */
static inline bool move_is_queen_promotion(Move m) { return move_kind(m) == MOVE_PROMOTION && move_promo_type(m) == QUEEN; }

static inline int make_piece(int color, int type) { return type + 6 * color; }
static inline int piece_type(int piece) { return piece % 6; }
static inline int piece_color(int piece) { return piece / 6; }

static inline int square_file(int sq) { return sq & 7; }
static inline int square_rank(int sq) { return sq >> 3; }
static inline int make_square(int file, int rank) { return rank * 8 + file; }
/* Rank as seen from colour c (rank 1 = 0 for own back rank). */
static inline int relative_rank(int c, int sq) { return c == WHITE ? sq >> 3 : 7 - (sq >> 3); }

/* Score bounds, as stored in the TT and reported in thinking lines. */
enum { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

#define MAX_PLY 128
#define MAX_MOVES 256

#endif
