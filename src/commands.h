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
} Session;

extern Session session;

typedef enum { CMD_UNKNOWN, CMD_DONE, CMD_QUIT } CommandResult;

#define COMMAND_MAX_WORDS 4096 /* words of one input line (a position command's move list) */

void session_init(void);

/* Splits line in place on blanks; returns the word count (at most max). */
int split_words(char *line, char **words, int max);
/* Whole-string decimal integer in [min, max]. */
bool parse_long(const char *text, long min, long max, long *out);
/* Whole-string non-negative decimal number (fractions allowed), e.g. seconds. */
bool parse_seconds(const char *text, double max, double *out);
/* Joins words[from..to) with single spaces into out. */
void join_words(char *const *words, int from, int to, char *out, size_t out_size);

/* A word that reads like a move in either notation (so "illegal move" is the right complaint). */
bool commands_looks_like_move(const char *word);

/* Starts an asynchronous search of root with the options' settings and Move Overhead,
 * remembering whether it only ends on stop. */
void commands_start_search(const Position *root, const SearchLimits *limits, const SearchOutput *output);
/* Stops any running search and waits for its result. */
void commands_stop_search(void);
/* Stops any search, then prints perft of the game position (move: count lines, Nodes searched). */
void commands_perft(int depth);

/* Engine commands available at every prompt; CMD_UNKNOWN when line is not one. */
CommandResult commands_shared(char *line);

#endif
