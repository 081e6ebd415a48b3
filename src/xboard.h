/* xboard / CECP v2 protocol. */
#ifndef SQUALL_XBOARD_H
#define SQUALL_XBOARD_H

#include "commands.h"
#include "engine_io.h"

/* One input line: line as typed, words its blank-separated words (count >= 1). */
CommandResult xboard_command(char *line, char **words, int count);
/* A search started by the xboard layer has finished (posted from the search thread). */
void xboard_on_search_done(const IoEvent *ev);
/* Stops whatever the xboard layer is doing (thinking, pondering, analysing) without moving. */
void xboard_cancel(void);

#endif
