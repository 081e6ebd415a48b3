/* Bitboard helpers and precomputed attack tables. */
#ifndef SQUALL_BITBOARD_H
#define SQUALL_BITBOARD_H

#include "types.h"

#if defined(__BMI2__) && !defined(SQUALL_NO_PEXT)
#include <immintrin.h>
#define SQUALL_USE_PEXT 1
#endif

#define FILE_A_BB 0x0101010101010101ULL
#define FILE_H_BB (FILE_A_BB << 7)
#define RANK_1_BB 0xFFULL
#define RANK_8_BB (RANK_1_BB << 56)

static inline Bitboard square_bb(int sq) { return 1ULL << sq; }
static inline int popcount(Bitboard b) { return __builtin_popcountll(b); }
static inline int lsb(Bitboard b) { return __builtin_ctzll(b); }
static inline int msb(Bitboard b) { return 63 - __builtin_clzll(b); }
static inline int pop_lsb(Bitboard *b) { int s = lsb(*b); *b &= *b - 1; return s; }
static inline bool more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }
static inline Bitboard file_bb(int sq) { return FILE_A_BB << (sq & 7); }
static inline Bitboard rank_bb(int sq) { return RANK_1_BB << (sq & 56); }

/* Shift a whole board one step; files wrap-around is masked off. */
static inline Bitboard shift_north(Bitboard b) { return b << 8; }
static inline Bitboard shift_south(Bitboard b) { return b >> 8; }
static inline Bitboard shift_east(Bitboard b) { return (b & ~FILE_H_BB) << 1; }
static inline Bitboard shift_west(Bitboard b) { return (b & ~FILE_A_BB) >> 1; }

typedef struct {
    Bitboard mask;
#ifndef SQUALL_USE_PEXT
    Bitboard magic;
    int shift;
#endif
    Bitboard *attacks;
} SliderTable;

extern Bitboard pawn_attacks_table[COLOR_NB][SQUARE_NB];
extern Bitboard knight_attacks_table[SQUARE_NB];
extern Bitboard king_attacks_table[SQUARE_NB];
extern Bitboard between_table[SQUARE_NB][SQUARE_NB]; /* squares strictly between, plus the target */
extern Bitboard line_table[SQUARE_NB][SQUARE_NB];    /* full line through both, or 0 */
extern SliderTable bishop_table[SQUARE_NB];
extern SliderTable rook_table[SQUARE_NB];

void bitboard_init(void);

static inline unsigned slider_index(const SliderTable *t, Bitboard occ) {
#ifdef SQUALL_USE_PEXT
    return (unsigned)_pext_u64(occ, t->mask);
#else
    return (unsigned)(((occ & t->mask) * t->magic) >> t->shift);
#endif
}

static inline Bitboard bishop_attacks(int sq, Bitboard occ) {
    return bishop_table[sq].attacks[slider_index(&bishop_table[sq], occ)];
}
static inline Bitboard rook_attacks(int sq, Bitboard occ) {
    return rook_table[sq].attacks[slider_index(&rook_table[sq], occ)];
}
static inline Bitboard queen_attacks(int sq, Bitboard occ) {
    return bishop_attacks(sq, occ) | rook_attacks(sq, occ);
}
static inline Bitboard pawn_attacks(int c, int sq) { return pawn_attacks_table[c][sq]; }
static inline Bitboard knight_attacks(int sq) { return knight_attacks_table[sq]; }
static inline Bitboard king_attacks(int sq) { return king_attacks_table[sq]; }
static inline Bitboard between_bb(int a, int b) { return between_table[a][b]; }
static inline Bitboard line_bb(int a, int b) { return line_table[a][b]; }
static inline bool aligned(int a, int b, int c) { return (line_table[a][b] & square_bb(c)) != 0; }
/* Whether two distinct squares on one line share a diagonal rather than a rank or file. */
static inline bool line_is_diagonal(int a, int b) { return (a & 7) != (b & 7) && (a >> 3) != (b >> 3); }

/* Attacks of a non-pawn piece type from sq given occupancy. */
static inline Bitboard piece_attacks(int type, int sq, Bitboard occ) {
    switch (type) {
    case KNIGHT: return knight_attacks(sq);
    case BISHOP: return bishop_attacks(sq, occ);
    case ROOK: return rook_attacks(sq, occ);
    case QUEEN: return queen_attacks(sq, occ);
    case KING: return king_attacks(sq);
    default: return 0;
    }
}

static inline Bitboard pawn_attacks_bb(int c, Bitboard pawns) {
    return c == WHITE ? shift_north(shift_east(pawns) | shift_west(pawns))
                      : shift_south(shift_east(pawns) | shift_west(pawns));
}

#endif
