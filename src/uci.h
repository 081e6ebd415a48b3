/* UCI protocol: command handling and UCI-style thinking output (also used by the terminal prompt). */
#ifndef SQUALL_UCI_H
#define SQUALL_UCI_H

#include "commands.h"

/* One input line: line as typed, words its blank-separated words (count >= 1). */
CommandResult uci_command(char *line, char **words, int count);

/* Prints "info ..." lines and "bestmove X [ponder Y]". */
SearchOutput uci_search_output(void);

/* Parses the words after "go". perft_depth is set (> 0) for "go perft N"; has_limit tells
 * whether any depth/nodes/time/mate/infinite limit was given. Errors print one line. */
bool uci_parse_go(char **words, int count, const Position *pos, SearchLimits *limits, int *perft_depth, bool *has_limit);

/* "position [startpos | fen F] [moves ...]" (words after "position"); atomic on error. */
bool uci_position(char **words, int count);

/* "setoption name N [value V]" (words after "setoption"); stops a search first when the option needs it. */
void uci_setoption(char **words, int count);

#endif
