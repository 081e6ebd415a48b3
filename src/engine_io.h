/* Engine input/output: whole-line output under one lock (search threads and the
 * command reader write concurrently), optional logging of both directions, and an
 * event reader that wakes on either a line of input or a finished search. */
#ifndef SQUALL_ENGINE_IO_H
#define SQUALL_ENGINE_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "types.h"

/* Which dialect the session speaks; decides how errors are worded. */
enum { PROTO_TERMINAL, PROTO_UCI, PROTO_XBOARD };
extern int io_protocol;

void io_init(void);
/* "-" logs to stderr. Returns false (with a reason in err) when the file cannot be opened. */
bool io_open_log(const char *path, char *err, size_t err_size);
void io_close_log(void);

/* Writes text (one or more whole lines) to stdout and the log, atomically. */
void io_write(const char *text, size_t len);
void io_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* One error line in the dialect of io_protocol. The command being run (io_set_command)
 * is echoed in xboard's "Error (reason): command" form. Counted for batch exit codes. */
void io_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void io_set_command(const char *line);
/* An informational line: "info string ..." in UCI, "# ..." in xboard, plain otherwise. */
void io_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int io_error_count(void);
/* A stdio stream whose output goes through io_write (for perft/bench writers). */
FILE *io_stream(void);
void io_log_input(const char *line);

/* Events the command loop waits for. */
enum { IO_EVENT_LINE, IO_EVENT_SEARCH_DONE, IO_EVENT_EOF };

typedef struct {
    int kind;
    const char *line;     /* IO_EVENT_LINE: valid until the next io_next_event call */
    unsigned search_id;   /* IO_EVENT_SEARCH_DONE: id given to io_post_search_done */
    Move best, ponder;
} IoEvent;

/* Blocks until an input line, a posted search result, or end of input. Posted
 * search results come first so a finished search is never starved by input. */
void io_next_event(IoEvent *ev);
/* Non-blocking: takes a posted search result if there is one. */
bool io_poll_search_done(IoEvent *ev);
/* Safe from any thread (search callbacks). */
void io_post_search_done(unsigned search_id, Move best, Move ponder);

#endif
