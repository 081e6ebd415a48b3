/* UCI protocol: command handling and UCI-style thinking output (also used by the terminal prompt). */
#ifndef SQUALL_UCI_H
#define SQUALL_UCI_H

#include "commands.h"

/* One input line as its blank-separated words (count >= 1). */
CommandResult uci_command(char **words, int count);

/* "go ..." (words after "go"): always starts a search that ends in bestmove, or runs
 * `go perft N`. Words that cannot be read get one error line each and are skipped; numbers
 * are clamped into their ranges; in batch mode and scripts `infinite`/`ponder` are refused. */
void uci_go(char **words, int count);

/* "position [startpos | fen F] [moves ...]" (words after "position"); atomic on error. */
bool uci_position(char **words, int count);

/* "setoption name N [value V]" (words after "setoption"); stops a search first when the option needs it. */
void uci_setoption(char **words, int count);

#endif
