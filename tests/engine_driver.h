/* Driving the real ./squall binary through pipes, for the protocol tests. Every read has a
 * deadline, so a hung engine fails the test instead of hanging the runner; the engine is
 * killed if it does not exit in time. */
#ifndef SQUALL_TEST_ENGINE_DRIVER_H
#define SQUALL_TEST_ENGINE_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "clock.h" /* the deadlines are on time_now_ms */

#define READ_TIMEOUT_MS 5000
#define SEARCH_TIMEOUT_MS 10000

typedef struct {
    pid_t pid;
    int to_engine, from_engine;
    char buf[1 << 16];
    size_t len;
    bool eof;
} Engine;

/* Starts the engine with extra arguments (NULL-terminated list, may be NULL); limited: with at
 * most memory_limit bytes of address space (0: no limit). */
bool engine_start(Engine *e, const char *const *args);
bool engine_start_limited(Engine *e, const char *const *args, long long memory_limit);
/* Sends one line (a newline is added), or any bytes as they are. */
void engine_send(Engine *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void engine_send_bytes(Engine *e, const void *data, size_t len);
/* Sends each line of a NULL-terminated list. */
void engine_send_lines(Engine *e, const char *const *lines);
/* Next output line within timeout_ms; false on timeout or end of output. */
bool engine_line(Engine *e, char *out, size_t size, int timeout_ms);
/* Reads lines until one starts with prefix (copied to line when given). Lines read before it
 * are appended to seen (if given). Returns false on timeout. */
bool engine_expect(Engine *e, const char *prefix, char *line, size_t size, int timeout_ms, char *seen, size_t seen_size);
/* Closes stdin and waits for the exit; kills the engine after timeout_ms. Returns the exit
 * status, or -1 if it had to be killed. */
int engine_finish(Engine *e, int timeout_ms);
/* Runs the engine with args and stdin text; collects all output. Returns the exit status. */
int run_engine(const char *const *args, const char *input, char *output, size_t size, int timeout_ms);
/* The move at the start of move_text is legal in fen after moves (UCI, space-separated). */
bool legal_in(const char *fen, const char *moves, const char *move_text);
/* The same in Chess960 notation when chess960 is set: castling as the king taking its rook,
 * or O-O / O-O-O. */
bool legal_in_game(const char *fen, const char *moves, const char *move_text, bool chess960);
/* The text after "bestmove ". */
const char *bestmove_of(const char *line);
/* The FEN line of `d`. */
bool board_fen(Engine *e, char *fen, size_t size);
/* Starts an engine and runs the xboard / protover 2 handshake; features gets what came before
 * feature done=1. */
void xboard_open(Engine *e, char *features, size_t size);
/* ping/pong round trip; what came before the pong is left in seen. */
bool xboard_sync(Engine *e, int n, char *seen, size_t size);
bool write_file(const char *path, const char *text);

#endif
