/* Polyglot opening books (.bin): the polyglot key of a position, and the moves and weights a
 * book file holds for it. One book is open at a time (option BookFile); it is read from the
 * file at each lookup, so a book of any size costs no memory. */
#ifndef SQUALL_BOOK_H
#define SQUALL_BOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"

#define POLYGLOT_RANDOM_COUNT 781
extern const uint64_t polyglot_random64[POLYGLOT_RANDOM_COUNT];

#define BOOK_MAX_MOVES 64

typedef struct {
    Move move;
    int weight;   /* the book's count or score; 0 = listed but never played */
} BookMove;

/* The position's key in the polyglot format (not the engine's Zobrist key). */
uint64_t book_key(const Position *pos);

/* Opens a book file, closing the one open before; a refused file (missing, unreadable, not
 * a whole number of 16-byte entries) keeps the old book and err says why. */
bool book_open(const char *path, char *err, size_t err_size);
void book_close(void);
bool book_is_open(void);

/* The legal moves the open book gives for pos, in file order; returns how many. */
int book_moves(const Position *pos, BookMove *moves, int max);
/* A move to play from the book, or MOVE_NONE: the heaviest, or one drawn with probability
 * proportional to its weight (random picks the draw). */
Move book_choose(const Position *pos, bool weighted, uint64_t random);

#endif
