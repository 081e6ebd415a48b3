/* The session fuzzer: builds valid sessions of every protocol and mode, mutates them, runs
 * them against an engine binary (the sanitizer build) and checks the transcript.
 *
 * A session is a list of input lines. After every line the fuzzer adds a probe (`d`, never
 * mutated), so the transcript says what the position was after each line; that is how a
 * bestmove/move is checked against the position the engine was given, and how a refused
 * line is checked to have changed nothing. */
#ifndef SQUALL_FUZZ_H
#define SQUALL_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "random.h"

/* The engine refuses input lines longer than this (src/engine_io.c, INPUT_LINE_MAX). */
#define FUZZ_ENGINE_LINE_MAX (1 << 20)

typedef enum { FUZZ_UCI, FUZZ_XBOARD, FUZZ_TERMINAL, FUZZ_BATCH_STDIN, FUZZ_BATCH_ARGS, FUZZ_MODE_COUNT } FuzzMode;

typedef struct {
    char *text; /* may hold any byte, NUL and '\n' included; no terminator of its own */
    size_t len;
    int delay_ms; /* pause before sending it */
    bool probe;   /* the fuzzer's own `d`: never mutated, read back as the position */
} FuzzLine;

#define FUZZ_MAX_ARGS 8

typedef struct {
    FuzzMode mode;
    uint64_t seed;
    char *args[FUZZ_MAX_ARGS]; /* extra command-line flags (owned) */
    int arg_count;
    FuzzLine *lines;
    int count, cap;
    /* End of input at a random point: only this many bytes of the stream are sent (-1: all,
     * then the final isready/ping and a normal end of input). */
    long cut_at;
    bool searches_bounded; /* every search ends by itself soon (needed where nothing stops it) */
    bool bad_flag;         /* a command-line flag the engine must refuse (exit code 2) */
} FuzzSession;

/* ---- random numbers: splitmix64, so a (seed, index) pair always gives the same session ---- */
typedef struct {
    uint64_t state;
} FuzzRng;

static inline uint64_t fuzz_next(FuzzRng *r) {
    return splitmix64(&r->state);
}
static inline int fuzz_below(FuzzRng *r, int n) { return n > 0 ? (int)(fuzz_next(r) % (uint64_t)n) : 0; }
static inline bool fuzz_chance(FuzzRng *r, int percent) { return fuzz_below(r, 100) < percent; }

/* ---- sessions (fuzz_session.c) ---- */
void fuzz_session_free(FuzzSession *s);
void fuzz_add_line(FuzzSession *s, const char *text, size_t len);
void fuzz_insert_line(FuzzSession *s, int at, const char *text, size_t len);
void fuzz_add_text(FuzzSession *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void fuzz_add_arg(FuzzSession *s, const char *arg);
/* Adds the probe after every line; called once the session is generated and mutated. */
void fuzz_add_probes(FuzzSession *s);
/* The bytes the engine reads on standard input (before any cut). */
char *fuzz_stream(const FuzzSession *s, size_t *len);
/* For batch --command: the lines joined with ';'. */
char *fuzz_command_list(const FuzzSession *s);
/* What the engine gets: the command list or the stream, only *len bytes of it when cut. */
char *fuzz_engine_input(const FuzzSession *s, size_t *len);
const char *fuzz_mode_name(FuzzMode mode);

/* ---- valid sessions (fuzz_gen.c) and mutations (fuzz_mutate.c) ---- */
void fuzz_generate(FuzzSession *s, FuzzMode mode, FuzzRng *rng);
void fuzz_mutate(FuzzSession *s, FuzzRng *rng);
/* perft, bench, epd: they run to their end whatever follows, so their numbers (and the end
 * of input) must not cut into them. */
bool fuzz_line_runs_to_its_end(const FuzzLine *l);
/* Words and numbers the generator and the mutator share. */
const char *fuzz_random_word(FuzzRng *rng);
void fuzz_random_number(FuzzRng *rng, char *out, size_t size);

/* ---- running one session (fuzz_run.c) ---- */
typedef struct {
    char *out, *err; /* the engine's standard output and standard error */
    size_t out_len, err_len;
    bool out_truncated;
    int exit_code;   /* -1 when killed by a signal */
    int signal;      /* the signal that ended it, 0 if none */
    bool hung;       /* a deadline passed: the engine was killed */
    const char *hang_stage;
    bool sync_answered;
    double seconds;
} FuzzRun;

typedef struct {
    const char *engine;
    int session_deadline_ms; /* whole session, sync and exit included */
    int quiet_exit_ms;       /* after the end of input */
} FuzzRunConfig;

/* sync_line: sent after the session unless it was cut ("stop\nisready\n", "ping N\n", or
 * NULL); sync_reply/sync_count: the answer that ends the wait, and how many of them. */
void fuzz_run_session(const FuzzRunConfig *cfg, const FuzzSession *s, const char *sync_line, const char *sync_reply,
                      int sync_count, FuzzRun *run);
void fuzz_run_free(FuzzRun *run);

/* ---- checking a transcript (fuzz_check.c) ---- */
typedef enum {
    FUZZ_OK,
    FUZZ_CRASH,        /* killed by a signal */
    FUZZ_SANITIZER,    /* ASan/UBSan/LSan report */
    FUZZ_HANG,         /* a deadline passed */
    FUZZ_BAD_EXIT,     /* exit code other than expected */
    FUZZ_NO_SYNC,      /* the final isready/ping was not answered */
    FUZZ_BESTMOVES,    /* not one bestmove per go */
    FUZZ_ILLEGAL,      /* a bestmove, ponder, pv or xboard move not legal where it was played */
    FUZZ_LOST_STATE,   /* a refused line changed the position, or an accepted one set another */
    FUZZ_MISMATCH,     /* the transcript does not follow the input (a line lost, a refusal unsaid) */
    FUZZ_VERDICT_COUNT
} FuzzVerdict;

typedef struct {
    FuzzVerdict verdict;
    char detail[1024];
    /* what was checked, for the summary */
    int gos, bestmoves_checked, pvs_checked, xboard_moves_checked, refusals_checked;
} FuzzCheck;

/* What the session asks of the engine, from the classifier: the final sync to send. */
typedef struct {
    const char *sync_line, *sync_reply;
    int sync_count;
} FuzzSync;

void fuzz_plan_sync(const FuzzSession *s, FuzzSync *sync);
void fuzz_check(const FuzzSession *s, const FuzzRun *run, FuzzCheck *check);
const char *fuzz_verdict_name(FuzzVerdict v);

/* ---- many sessions (fuzz_campaign.c) ---- */
typedef struct {
    const char *engine;
    uint64_t seed;
    long first, count;      /* session indices [first, first + count) */
    int jobs;               /* parallel engine processes */
    const char *save_dir;   /* failing sessions are written here (NULL: not saved) */
    bool verbose;
    int session_deadline_ms;
} FuzzCampaign;

typedef struct {
    long sessions, by_mode[FUZZ_MODE_COUNT], cut;
    long verdicts[FUZZ_VERDICT_COUNT];
    long gos, bestmoves_checked, pvs_checked, xboard_moves_checked, refusals_checked;
    double seconds;
} FuzzTotals;

/* The session of one index: mode, generation, mutations, probes, and where input ends. */
void fuzz_build_session(uint64_t seed, long index, FuzzSession *s);
/* Runs the campaign; returns the number of failing sessions. */
long fuzz_campaign(const FuzzCampaign *c, FuzzTotals *totals);
void fuzz_print_totals(const FuzzTotals *t, FILE *out);

#endif
