/* The plain terminal prompt (no protocol chosen yet). */
#ifndef SQUALL_TERMINAL_H
#define SQUALL_TERMINAL_H

#include "commands.h"

/* One input line as its blank-separated words (count >= 1). */
CommandResult terminal_command(char **words, int count);

#endif
