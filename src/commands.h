/* The services the protocol front ends (uci.c, xboard.c, terminal.c) share: the session (game
 * and the sd/sn/st limits), word parsing, search start/stop, and the engine commands every
 * prompt offers (perft, d, eval, bench, setboard, epd, ...). Nothing here knows the protocols;
 * command_loop.c sits above them all. */
#ifndef SQUALL_COMMANDS_H
#define SQUALL_COMMANDS_H

#include <stdbool.h>
#include <stdint.h>

#include "game_record.h"
#include "search.h"

typedef struct {
    GameRecord game;
    int depth_limit;      /* sd: 0 = none */
    uint64_t node_limit;  /* sn: 0 = none */
    int64_t movetime_ms;  /* st: 0 = none */
    int script_depth;     /* > 0 while running script files or --command lists */
    bool open_ended;      /* the running search waits for stop/ponderhit */
    bool infinite;        /* ... and it is a go infinite, which ponderhit does not end */
    /* Why the game cannot be played on ("" when it can): the last position or setboard was
     * refused, so no move of the previous position may be played either. */
    char unplayable[300];
} Session;

extern Session session;

typedef enum { CMD_UNKNOWN, CMD_DONE, CMD_QUIT } CommandResult;

void session_init(void);

/* All the words of line, split in place, in a new array the caller frees (NULL when out of memory). */
char **split_all_words(char *line, int *count);
/* Splits line in place on blanks; returns the word count (at most max). */
int split_words(char *line, char **words, int max);
/* Whole-string decimal integer in [min, max]. */
bool parse_long(const char *text, long min, long max, long *out);
/* Whole-string non-negative decimal number (fractions allowed), e.g. seconds. */
bool parse_seconds(const char *text, double max, double *out);
/* Joins words[from..to) with single spaces into out. */
void join_words(char *const *words, int from, int to, char *out, size_t out_size);

/* Sets the game to fen plus moves (coordinates or SAN). Castling rights and an en-passant
 * square the position cannot have are dropped, as one info line says. A refusal leaves the
 * game as it was but marks it unplayable (session.unplayable, also in err) until a position
 * is accepted; success clears the mark. */
bool commands_set_game(const char *fen, char *const *moves, int move_count, char *err, size_t err_size);

/* A word that reads like a move in either notation (so "illegal move" is the right complaint). */
bool commands_looks_like_move(const char *word);

/* With OwnBook on: a move from the book for pos, announced in an info line; false when the
 * book has none (or is off). */
bool commands_book_move(const Position *pos, Move *move);
/* A number from a clock-seeded sequence (book draws, seeds of the weakened move choice). */
uint64_t commands_random(void);
/* Starts an asynchronous search of root with the options' settings and Move Overhead,
 * remembering whether it only ends on stop. */
void commands_start_search(const Position *root, const SearchLimits *limits, const SearchOutput *output);
/* Stops any running search and waits for its result. */
void commands_stop_search(void);
/* ucinewgame / new: stops any search, clears the hash and histories, start position. */
void commands_new_game(void);
/* Stops any search, then prints perft of the game position (move: count lines, Nodes searched). */
void commands_perft(int depth);

/* Engine commands available at every prompt (words[0] is the command); CMD_UNKNOWN when
 * it is not one. */
CommandResult commands_shared(char **words, int count);

#endif
