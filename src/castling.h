/* Castling for standard chess and Chess960 alike: which rook each right castles with, the
 * squares that must be empty and unattacked, and the FEN castling field (KQkq, X-FEN,
 * Shredder-FEN). A castling move is stored as the king's move to its destination (g- or
 * c-file), so standard chess keeps its usual moves; only the text of the move differs in 960. */
#ifndef SQUALL_CASTLING_H
#define SQUALL_CASTLING_H

#include <stddef.h>

#include "bitboard.h"

/* Right index: 0 white short, 1 white long, 2 black short, 3 black long; the right's bit in a
 * castling mask (WHITE_OO ...) is 1 << index. */
static inline int castling_index(int color, bool long_side) { return 2 * color + long_side; }
/* A castling move's right is told by where the king lands (the king may not move at all). */
static inline int castling_index_of_move(int color, int king_to) { return castling_index(color, square_file(king_to) == 2); }
static inline int castling_king_to(int index) { return make_square(index & 1 ? 2 : 6, index >= 2 ? 7 : 0); }
static inline int castling_rook_to(int index) { return make_square(index & 1 ? 3 : 5, index >= 2 ? 7 : 0); }

/* Set from a game's first position and only read afterwards: rights are lost, never moved. */
typedef struct {
    Bitboard must_be_empty[4]; /* the king's and the rook's paths, ends included, less the two castlers */
    Bitboard king_path[4];     /* squares the king crosses or lands on, its start excluded: none may be attacked */
    uint8_t rook_square[4];    /* the rook each right castles with */
    uint8_t keep[SQUARE_NB];   /* rights that survive a move from or to that square */
} CastlingSetup;

struct Position;

/* Reads a FEN castling field ("-", KQkq for the outermost rooks, or rook files A-H/a-h) into
 * the position's castling mask and setup. The pieces and kings must already be placed.
 * On error returns false and writes a one-line reason to err. */
bool castling_parse_field(struct Position *pos, const char *field, char *err, size_t err_size);
/* Writes the castling field as X-FEN: K/Q/k/q when the castling rook is the outermost one on
 * its side (always so in standard chess), its file letter otherwise. out needs 5 bytes. */
void castling_write_field(const struct Position *pos, char *out);

#endif
