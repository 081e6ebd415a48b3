/* Training records: the fixed 32-byte position format that datagen writes and the trainer reads.
 *
 * Layout (all multi-byte fields little-endian, docs/datagen.md has the full description):
 *   0..7   occupancy bitboard (a1 = bit 0)
 *   8..23  piece codes, one nibble per occupied square in ascending square order, low nibble
 *          first; codes are the engine's pieces (type + 6 * colour, 0..11)
 *   24..25 int16 search score in centipawns, side-to-move relative
 *   26..27 uint16 game ply of the position (0 = the initial position)
 *   28..30 game id, low 24 bits of the run's game index (positions of one game are consecutive)
 *   31     flags: bit 0 black to move; bits 1-2 game result from white's view
 *          (0 black won, 1 draw, 2 white won); bits 3-7 zero
 * Castling rights, en passant and the fifty-move counter are not stored: the net does not see
 * them, and a position decoded without them is still legal. */
#ifndef SQUALL_TRAIN_RECORD_H
#define SQUALL_TRAIN_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"

#define RECORD_SIZE 32
#define RECORD_GAME_MASK 0xFFFFFFu
enum { RESULT_BLACK_WIN = 0, RESULT_DRAW = 1, RESULT_WHITE_WIN = 2 };

typedef struct {
    uint8_t bytes[RECORD_SIZE];
} Record;

/* A record unpacked into a piece list, the form the trainer builds features from. */
typedef struct {
    uint8_t count;          /* pieces on the board */
    uint8_t side;           /* WHITE or BLACK to move */
    uint8_t result;         /* RESULT_*, white's view */
    uint8_t king_square[COLOR_NB];
    int16_t score;          /* side-to-move relative centipawns */
    uint16_t ply;
    uint32_t game;
    uint8_t square[32];
    uint8_t piece[32];
} RecordPosition;

/* Packs pos with its score (side-to-move relative), ply, game id and result. */
void record_encode(Record *rec, const Position *pos, int score, int ply, uint32_t game, int result);
/* Overwrites the result bits (datagen fills results in once a game ends). */
void record_set_result(Record *rec, int result);
/* Unpacks; false when the bytes cannot be a position (bad piece code, not one king each,
 * more than 32 pieces, reserved bits set). */
bool record_decode(const Record *rec, RecordPosition *out);
/* FEN of a decoded record (no castling, no en passant, fifty-move counter 0). */
void record_fen(const RecordPosition *rp, char *out, size_t out_size);
/* Game id and ply straight from the bytes, without a full decode. */
uint32_t record_game(const Record *rec);
unsigned record_ply(const Record *rec);
/* Result from the side to move's view: 1 win, 0.5 draw, 0 loss. */
float record_stm_result(const RecordPosition *rp);

#endif
