/* The game as the protocols see it: a root FEN plus the moves played since, with the
 * current position derived from them (so undo and very long games need no board copies). */
#ifndef SQUALL_GAME_RECORD_H
#define SQUALL_GAME_RECORD_H

#include <stddef.h>

#include "board.h"

typedef struct {
    char root_fen[128];
    Move *moves;
    int move_count, move_cap;
    Position pos; /* root + moves, history trimmed to what repetition detection needs; its chess960
                   * notation flag is kept when the game is replaced */
} GameRecord;

/* How a game stands by the rules of chess (no clocks, no agreements). */
typedef enum {
    GAME_ONGOING,
    GAME_WHITE_MATES,
    GAME_BLACK_MATES,
    GAME_STALEMATE,
    GAME_FIFTY_MOVES,
    GAME_REPETITION,
    GAME_INSUFFICIENT,
} GameStatus;

void game_init(GameRecord *game);   /* start position, no moves, standard notation */
/* Switches the notation of castling moves (UCI_Chess960, xboard variant fischerandom). */
void game_set_chess960(GameRecord *game, bool on);
void game_free(GameRecord *game);
/* Replaces the game by fen with moves (UCI or SAN text) played from it. All or nothing:
 * on failure the game is unchanged and err says which part was wrong. */
bool game_set(GameRecord *game, const char *fen, char *const *moves, int move_count, char *err, size_t err_size);
bool game_set_fen(GameRecord *game, const char *fen, char *err, size_t err_size);
/* GUIs send castling rights whose king or rook is not in place, and en-passant squares no
 * pawn can have left; other engines drop them. When fen is refused only for such fields,
 * writes it without them to out, what was dropped to dropped ("K q e3"), and returns true. */
bool game_fen_without_unusable_rights(const char *fen, char *out, size_t out_size, char *dropped, size_t dropped_size);
/* Plays a move that is legal in game->pos. */
void game_push(GameRecord *game, Move m);
/* Takes back the last move; false when there is none. */
bool game_pop(GameRecord *game);
GameStatus game_status(const GameRecord *game);
/* PGN result ("1-0", "0-1", "1/2-1/2") and a reason for a finished game. */
const char *game_status_result(GameStatus status);
const char *game_status_reason(GameStatus status);

#endif
