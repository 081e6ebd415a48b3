/* Move text: UCI coordinate notation and SAN, both directions. */
#ifndef SQUALL_NOTATION_H
#define SQUALL_NOTATION_H

#include <stddef.h>

#include "board.h"

/* "e2e4", "e7e8q", "0000" for no move. Castling is the king's two-square move (e1g1), or in
 * Chess960 mode (pos->chess960) the king taking its own rook (e1h1). pos is any position of
 * the game (the castling rooks never change); out needs 6 bytes. */
void move_to_uci(const Position *pos, Move m, char *out);
/* A move for xboard: coordinates, but castling in Chess960 is O-O / O-O-O as the protocol asks
 * for fischerandom. out needs 6 bytes. */
void move_to_xboard(const Position *pos, Move m, char *out);
/* Parses a UCI move and returns it if legal in pos, else MOVE_NONE. Castling is also accepted
 * in the other mode's form when no other move reads the same. */
Move move_from_uci(const Position *pos, const char *text);
/* SAN of a legal move, with +/# suffix. out needs 10 bytes. The move is made and unmade on pos
 * to find the suffix, so pos is left as it was. */
void move_to_san(Position *pos, Move m, char *out);
/* Parses SAN (tolerant: O-O/0-0, optional x, =, +, #, !?), returns MOVE_NONE if not one legal move. */
Move move_from_san(const Position *pos, const char *text);
/* Either notation: tries UCI first, then SAN. */
Move move_from_text(const Position *pos, const char *text);
void square_to_text(int sq, char *out);

#endif
