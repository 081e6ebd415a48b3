/* Many sessions: each index gives one session (the same one for the same seed), run in
 * `jobs` processes side by side; failures are printed with the command that replays them
 * and, with a save folder, written out with the engine's output. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "fuzz.h"
#include "fuzz_files.h"

/* Share of sessions that end with end of input at a random point. */
#define CUT_PERCENT 20
/* A --command list longer than this goes on standard input instead (argv strings stop at 128 KB). */
#define COMMAND_LIST_MAX (120 * 1024)
#define QUIET_EXIT_MS 15000

void fuzz_build_session(uint64_t seed, long index, FuzzSession *s) {
    FuzzRng rng = {seed * 0x9E3779B97F4A7C15ULL ^ (uint64_t)index * 0xD1B54A32D192ED03ULL};
    memset(s, 0, sizeof *s);
    s->seed = seed;
    FuzzMode mode = (FuzzMode)fuzz_below(&rng, FUZZ_MODE_COUNT);
    bool batch = mode == FUZZ_BATCH_STDIN || mode == FUZZ_BATCH_ARGS;
    bool cut = mode != FUZZ_BATCH_ARGS && fuzz_chance(&rng, CUT_PERCENT);
    s->searches_bounded = batch || cut;
    fuzz_generate(s, mode, &rng);
    fuzz_mutate(s, &rng);
    fuzz_add_probes(s);
    size_t len;
    free(fuzz_stream(s, &len));
    if (s->mode == FUZZ_BATCH_ARGS && len > COMMAND_LIST_MAX) s->mode = FUZZ_BATCH_STDIN;
    s->cut_at = -1;
    if (cut) {
        s->cut_at = (long)(fuzz_next(&rng) % (len + 1));
        /* not inside a perft or bench line: "bench 1" cut to "bench" would run for minutes */
        for (long i = 0, start = 0; i < s->count; start += (long)s->lines[i++].len + 1)
            if (s->cut_at > start && s->cut_at <= start + (long)s->lines[i].len && fuzz_line_runs_to_its_end(&s->lines[i]))
                s->cut_at = start;
    }
}

static void save_failure(const FuzzCampaign *c, long index, const FuzzSession *s, const FuzzRun *run, const FuzzCheck *check) {
    if (!c->save_dir) return;
    char path[1024];
    snprintf(path, sizeof path, "%s/%ld", c->save_dir, index);
    if (mkdir(c->save_dir, 0755) && errno != EEXIST) return;
    if (mkdir(path, 0755) && errno != EEXIST) return;
    struct { const char *name; const char *data; size_t len; } files[3] = {{"stdout.txt", run->out, run->out_len}, {"stderr.txt", run->err, run->err_len}, {"input.bin", NULL, 0}};
    size_t len;
    char *stream = fuzz_engine_input(s, &len);
    files[2].data = stream, files[2].len = len;
    for (int i = 0; i < 3; i++) {
        char file[1100];
        snprintf(file, sizeof file, "%s/%s", path, files[i].name);
        FILE *f = fopen(file, "wb");
        if (!f) continue;
        fwrite(files[i].data, 1, files[i].len, f);
        fclose(f);
    }
    free(stream);
    char file[1100];
    snprintf(file, sizeof file, "%s/about.txt", path);
    FILE *f = fopen(file, "w");
    if (!f) return;
    fprintf(f, "verdict: %s: %s\nmode: %s%s\nflags:", fuzz_verdict_name(check->verdict), check->detail, fuzz_mode_name(s->mode),
            s->cut_at >= 0 ? " (input cut)" : "");
    for (int i = 0; i < s->arg_count; i++) fprintf(f, " %s", s->args[i]);
    fprintf(f, "\nexit %d signal %d, %.2f s\nreplay: squall-fuzz --engine %s --seed %llu --first %ld --sessions 1 --verbose\n",
            run->exit_code, run->signal, run->seconds, c->engine, (unsigned long long)c->seed, index);
    fclose(f);
}

static void add_totals(FuzzTotals *t, const FuzzTotals *u) {
    t->sessions += u->sessions, t->cut += u->cut;
    for (int i = 0; i < FUZZ_MODE_COUNT; i++) t->by_mode[i] += u->by_mode[i];
    for (int i = 0; i < FUZZ_VERDICT_COUNT; i++) t->verdicts[i] += u->verdicts[i];
    t->gos += u->gos, t->bestmoves_checked += u->bestmoves_checked, t->pvs_checked += u->pvs_checked;
    t->xboard_moves_checked += u->xboard_moves_checked, t->refusals_checked += u->refusals_checked;
}

/* For --verbose: the session's input (non-printing bytes escaped, long lines cut) and the
 * engine's output, so a replayed session can be read. */
static void print_transcript(const FuzzSession *s, const FuzzRun *run) {
    printf("---- input (%s%s)\n", fuzz_mode_name(s->mode), s->cut_at >= 0 ? ", cut" : "");
    for (int i = 0; i < s->count; i++) {
        const FuzzLine *l = &s->lines[i];
        if (l->probe) continue;
        printf("%s", l->delay_ms ? "  (pause) " : "  ");
        for (size_t k = 0; k < l->len && k < 160; k++) {
            unsigned char ch = (unsigned char)l->text[k];
            if (ch >= 32 && ch < 127) putchar(ch);
            else printf("\\x%02x", ch);
        }
        printf("%s\n", l->len > 160 ? "... (long)" : "");
    }
    printf("---- output\n%.*s\n", (int)(run->out_len < 20000 ? run->out_len : 20000), run->out);
}

/* One process's share: indices first + job, first + job + jobs, ... */
static void run_share(const FuzzCampaign *c, int job, FuzzTotals *t) {
    memset(t, 0, sizeof *t);
    FuzzRunConfig cfg = {c->engine, c->session_deadline_ms, QUIET_EXIT_MS};
    for (long i = c->first + job; i < c->first + c->count; i += c->jobs) {
        FuzzSession s;
        fuzz_build_session(c->seed, i, &s);
        FuzzSync sync;
        fuzz_plan_sync(&s, &sync);
        FuzzRun run;
        fuzz_run_session(&cfg, &s, sync.sync_line, sync.sync_reply, sync.sync_count, &run);
        FuzzCheck check;
        fuzz_check(&s, &run, &check);
        t->sessions++, t->by_mode[s.mode]++, t->cut += s.cut_at >= 0;
        t->verdicts[check.verdict]++;
        t->gos += check.gos, t->bestmoves_checked += check.bestmoves_checked, t->pvs_checked += check.pvs_checked;
        t->xboard_moves_checked += check.xboard_moves_checked, t->refusals_checked += check.refusals_checked;
        if (check.verdict != FUZZ_OK) {
            printf("FAIL session %ld (%s%s): %s: %s\n", i, fuzz_mode_name(s.mode), s.cut_at >= 0 ? ", input cut" : "",
                   fuzz_verdict_name(check.verdict), check.detail);
            save_failure(c, i, &s, &run, &check);
        } else if (c->verbose) {
            printf("ok   session %ld (%s%s) %.2fs\n", i, fuzz_mode_name(s.mode), s.cut_at >= 0 ? ", input cut" : "", run.seconds);
        }
        if (c->verbose) print_transcript(&s, &run);
        if (c->verbose && run.err_len) printf("---- stderr of session %ld\n%s\n", i, run.err);
        fflush(stdout);
        fuzz_run_free(&run);
        fuzz_session_free(&s);
    }
}

long fuzz_campaign(const FuzzCampaign *c, FuzzTotals *totals) {
    memset(totals, 0, sizeof *totals);
    double start = time_now_seconds();
    char err[256];
    if (!fuzz_files_setup(c->engine, err, sizeof err)) {
        printf("squall-fuzz: %s\n", err);
        totals->verdicts[FUZZ_CRASH] = 1;
        return 1;
    }
    int jobs = c->jobs > 1 ? c->jobs : 1;
    if (jobs == 1) {
        FuzzCampaign one = *c;
        one.jobs = 1;
        run_share(&one, 0, totals);
    } else {
        int pipes[64][2];
        pid_t pids[64];
        if (jobs > 64) jobs = 64;
        FuzzCampaign split = *c;
        split.jobs = jobs;
        for (int j = 0; j < jobs; j++) {
            if (pipe(pipes[j])) exit(3);
            fflush(stdout);
            pids[j] = fork();
            if (pids[j] == 0) {
                FuzzTotals t;
                run_share(&split, j, &t);
                ssize_t w = write(pipes[j][1], &t, sizeof t);
                _exit(w == (ssize_t)sizeof t ? 0 : 3);
            }
            close(pipes[j][1]);
        }
        for (int j = 0; j < jobs; j++) {
            FuzzTotals t;
            if (read(pipes[j][0], &t, sizeof t) == (ssize_t)sizeof t) add_totals(totals, &t);
            else totals->verdicts[FUZZ_CRASH]++; /* a fuzzer process died: count it as a failure */
            close(pipes[j][0]);
            waitpid(pids[j], NULL, 0);
        }
    }
    fuzz_files_cleanup();
    totals->seconds = time_now_seconds() - start;
    long failures = 0;
    for (int v = 1; v < FUZZ_VERDICT_COUNT; v++) failures += totals->verdicts[v];
    return failures;
}

void fuzz_print_totals(const FuzzTotals *t, FILE *out) {
    fprintf(out, "sessions %ld (", t->sessions);
    for (int m = 0; m < FUZZ_MODE_COUNT; m++) fprintf(out, "%s%s %ld", m ? ", " : "", fuzz_mode_name(m), t->by_mode[m]);
    fprintf(out, "; %ld cut at a random point) in %.1f s\n", t->cut, t->seconds);
    fprintf(out, "checked: %ld go commands, %ld bestmoves and %ld pvs, %ld xboard moves, %ld refused lines\n", t->gos,
            t->bestmoves_checked, t->pvs_checked, t->xboard_moves_checked, t->refusals_checked);
    fprintf(out, "failures:");
    for (int v = 1; v < FUZZ_VERDICT_COUNT; v++) fprintf(out, "%s %s %ld", v > 1 ? "," : "", fuzz_verdict_name(v), t->verdicts[v]);
    fprintf(out, "\n");
}
