/* Broken files: nets (missing, empty, truncated, flipped bytes, a directory, a FIFO, a
 * device, a 100 GB sparse file) and training data (truncated, random, a directory, a FIFO).
 * Each is refused with one clear line, without waiting, and what was loaded before stays. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "board.h"
#include "engine_driver.h"
#include "movegen.h"
#include "test.h"
#include "train_record.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

#define SHIPPED_NET "nets/default.nnue"
#define SPARSE_SIZE (100LL << 30)

typedef struct {
    char dir[64];
    char path[12][128];
    const char *why[12]; /* what the refusal must say */
    int count;
} BadFiles;

static bool write_bytes(const char *path, const void *data, size_t len) {
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(data, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

static unsigned char *read_all(const char *path, size_t *len) {
    struct stat st;
    FILE *f = stat(path, &st) == 0 ? fopen(path, "rb") : NULL;
    unsigned char *buf = f && st.st_size > 0 ? malloc((size_t)st.st_size) : NULL;
    *len = buf ? fread(buf, 1, (size_t)st.st_size, f) : 0;
    if (f) fclose(f);
    return buf;
}

/* name: in the test folder, or an absolute path as it is */
static const char *add(BadFiles *b, const char *name, const char *why) {
    char path[sizeof b->path[0]];
    if (name[0] == '/') snprintf(path, sizeof path, "%s", name);
    else snprintf(path, sizeof path, "%s/%s", b->dir, name);
    memcpy(b->path[b->count], path, sizeof path);
    b->why[b->count] = why;
    return b->path[b->count++];
}

/* The good net copied to dir/good.nnue, and every kind of broken one next to it. */
static bool make_bad_nets(BadFiles *b, char *good, size_t good_size) {
    memset(b, 0, sizeof *b);
    snprintf(b->dir, sizeof b->dir, "/tmp/squall-test-XXXXXX");
    size_t len;
    unsigned char *net = read_all(SHIPPED_NET, &len);
    if (!net || !mkdtemp(b->dir)) return free(net), false;
    snprintf(good, good_size, "%s/good.nnue", b->dir);
    bool ok = write_bytes(good, net, len);
    add(b, "missing.nnue", "No such file");
    ok &= write_bytes(add(b, "empty.nnue", "truncated: 0 bytes"), "", 0);
    ok &= write_bytes(add(b, "truncated.nnue", "file is truncated"), net, len / 2);
    net[len / 2] ^= 0x10;
    ok &= write_bytes(add(b, "flipped.nnue", "checksum mismatch"), net, len);
    net[len / 2] ^= 0x10, net[0] ^= 0x01;
    ok &= write_bytes(add(b, "header.nnue", "bad magic"), net, len);
    add(b, b->dir, "is a directory");
    ok &= mkfifo(add(b, "fifo.nnue", "is a FIFO"), 0600) == 0;
    add(b, "/dev/zero", "is a device");
    net[0] ^= 0x01; /* a good net's bytes, then 100 GB of holes */
    const char *sparse = add(b, "sparse.nnue", "is 107374182400 bytes");
    ok &= write_bytes(sparse, net, len) && truncate(sparse, SPARSE_SIZE) == 0;
    free(net);
    return ok;
}

static void remove_bad_files(const BadFiles *b, const char *extra) {
    for (int i = 0; i < b->count; i++)
        if (!strncmp(b->path[i], b->dir, strlen(b->dir)) && strcmp(b->path[i], b->dir)) unlink(b->path[i]);
    if (extra) unlink(extra);
    rmdir(b->dir);
}

static bool option_line(Engine *e, const char *name, char *line, size_t size) {
    char seen[16384], want[128];
    engine_send(e, "uci");
    if (!engine_expect(e, "uciok", NULL, 0, READ_TIMEOUT_MS, seen, sizeof seen)) return false;
    snprintf(want, sizeof want, "option name %s ", name);
    const char *p = strstr(seen, want);
    if (!p) return false;
    snprintf(line, size, "%.*s", (int)strcspn(p, "\n"), p);
    return true;
}

TEST(faults, bad_nets_refused_previous_net_kept) {
    BadFiles b;
    char good[128], line[8192], seen[16384], option_before[1024], option_after[1024], eval_before[256], eval_after[256];
    CHECK_MSG(make_bad_nets(&b, good, sizeof good), "cannot build the test files from " SHIPPED_NET);
    Engine e;
    CHECK(engine_start(&e, NULL));
    engine_send(&e, "uci");
    CHECK(engine_expect(&e, "uciok", NULL, 0, READ_TIMEOUT_MS, NULL, 0));
    engine_send(&e, "setoption name EvalFile value %s", good);
    engine_send(&e, "eval");
    CHECK(engine_expect(&e, "Evaluation: ", line, sizeof line, READ_TIMEOUT_MS, seen, sizeof seen));
    CHECK_MSG(!strstr(seen, "error"), "the good net was refused: %s", seen);
    snprintf(eval_before, sizeof eval_before, "%s", line);
    CHECK(option_line(&e, "EvalFile", option_before, sizeof option_before));
    CHECK_MSG(strstr(option_before, good) != NULL, "%s", option_before);
    for (int i = 0; i < b.count; i++) {
        int64_t t0 = time_now_ms();
        engine_send(&e, "setoption name EvalFile value %s", b.path[i]);
        engine_send(&e, "isready");
        bool answered = engine_expect(&e, "readyok", NULL, 0, READ_TIMEOUT_MS, seen, sizeof seen);
        CHECK_MSG(answered && time_now_ms() - t0 < 3000, "%s: no readyok in time", b.path[i]);
        if (!answered) break;
        int errors = 0;
        for (const char *p = seen; (p = strstr(p, "info string error: ")); p++) errors++;
        CHECK_MSG(errors == 1 && strstr(seen, b.why[i]), "%s: want one error saying '%s': %s", b.path[i], b.why[i], seen);
        CHECK(option_line(&e, "EvalFile", option_after, sizeof option_after));
        CHECK_MSG(!strcmp(option_before, option_after), "%s: %s", b.path[i], option_after);
        engine_send(&e, "eval");
        CHECK(engine_expect(&e, "Evaluation: ", eval_after, sizeof eval_after, READ_TIMEOUT_MS, NULL, 0));
        CHECK_MSG(!strcmp(eval_before, eval_after), "%s: %s -> %s", b.path[i], eval_before, eval_after);
    }
    CHECK(engine_finish(&e, 2000) == 0);
    remove_bad_files(&b, good);
}

TEST(faults, bad_nets_refused_at_start) {
    BadFiles b;
    char good[128], out[8192];
    CHECK_MSG(make_bad_nets(&b, good, sizeof good), "cannot build the test files from " SHIPPED_NET);
    for (int i = 0; i < b.count; i++) {
        const char *args[] = {"--evalfile", b.path[i], NULL};
        int64_t t0 = time_now_ms();
        int rc = run_engine(args, "uci\nquit\n", out, sizeof out, READ_TIMEOUT_MS);
        char *nl = strchr(out, '\n');
        CHECK_MSG(rc == 2 && !strncmp(out, "squall: --evalfile: ", 20) && nl && !nl[1] && strstr(out, b.why[i]),
                  "%s: exit %d: %s", b.path[i], rc, out);
        CHECK_MSG(time_now_ms() - t0 < 3000, "%s: took %lld ms", b.path[i], (long long)(time_now_ms() - t0));
    }
    remove_bad_files(&b, good);
}

/* How many lines of out contain needle: a refusal must be said once, not repeated. */
static int lines_saying(const char *out, const char *needle) {
    int count = 0;
    for (const char *line = out; *line;) {
        size_t len = strcspn(line, "\n");
        const char *hit = strstr(line, needle);
        if (hit && hit < line + len) count++;
        line += len + (line[len] == '\n');
    }
    return count;
}

/* Training data: twenty whole records of a short game, and broken variants. */
static bool write_records(const char *path, int count, size_t extra_bytes) {
    static Position pos;
    pos_set_startpos(&pos);
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = true;
    for (int i = 0; i < count; i++) {
        Record rec;
        record_encode(&rec, &pos, 10 * i, i, 7, RESULT_DRAW);
        ok &= fwrite(&rec, RECORD_SIZE, 1, f) == 1;
        MoveList list;
        generate_legal(&pos, &list);
        if (list.count) pos_make_move(&pos, list.moves[i % list.count]);
    }
    for (size_t i = 0; i < extra_bytes; i++) ok &= fputc(0x5a, f) != EOF;
    return fclose(f) == 0 && ok;
}

TEST(faults, bad_data_files) {
    char dir[] = "/tmp/squall-test-XXXXXX", path[5][128], out_net[160], out[16384];
    CHECK(mkdtemp(dir) != NULL);
    static const char *names[5] = {"truncated.bin", "random.bin", "empty-dir", "fifo.bin", "good.bin"};
    for (int i = 0; i < 5; i++) snprintf(path[i], sizeof path[i], "%s/%s", dir, names[i]);
    CHECK(write_records(path[0], 20, RECORD_SIZE / 2));
    unsigned char noise[100 * RECORD_SIZE];
    for (size_t i = 0; i < sizeof noise; i++) noise[i] = (unsigned char)(i * 2654435761u >> 11);
    CHECK(write_bytes(path[1], noise, sizeof noise));
    CHECK(mkdir(path[2], 0700) == 0);
    CHECK(mkfifo(path[3], 0600) == 0);
    CHECK(write_records(path[4], 20, 0));

    /* datagen --dump: one clear complaint for each, exit 1, no waiting on the FIFO */
    static const char *dump_says[4] = {"not a whole record", "(100 unreadable)", "is not a regular file", "is not a regular file"};
    for (int i = 0; i < 4; i++) {
        const char *args[] = {"datagen", "--dump", path[i], "--limit", "0", NULL};
        int rc = run_engine(args, NULL, out, sizeof out, READ_TIMEOUT_MS);
        CHECK_MSG(rc == 1 && lines_saying(out, dump_says[i]) == 1, "dump %s: exit %d: %s", names[i], rc, out);
    }
    const char *good_dump[] = {"datagen", "--dump", path[4], "--limit", "0", NULL};
    CHECK_MSG(run_engine(good_dump, NULL, out, sizeof out, READ_TIMEOUT_MS) == 0 && strstr(out, "20 positions (0 unreadable)"),
              "%s", out);

    /* train: refused before any training, and the net it would write is left as it was */
    snprintf(out_net, sizeof out_net, "%s/out.nnue", dir);
    CHECK(write_bytes(out_net, "previous", 8));
    static const char *train_says[3] = {"no usable records", "holds no .bin record files", "is not a regular file"};
    for (int i = 1; i < 4; i++) {
        const char *args[] = {"train", "--data", path[i], "--out", out_net, "--epochs", "1", NULL};
        int rc = run_engine(args, NULL, out, sizeof out, READ_TIMEOUT_MS);
        size_t len;
        unsigned char *kept = read_all(out_net, &len);
        CHECK_MSG(rc != 0 && lines_saying(out, train_says[i - 1]) == 1, "train %s: exit %d: %s", names[i], rc, out);
        CHECK_MSG(kept && len == 8 && !memcmp(kept, "previous", 8), "train %s touched %s", names[i], out_net);
        free(kept);
    }
    /* a truncated file (a run stopped mid-write) still trains on its whole records: the partial
     * tail is named once and left out */
    snprintf(out_net, sizeof out_net, "%s/from-truncated.nnue", dir);
    const char *truncated_train[] = {"train", "--data", path[0], "--out", out_net, "--epochs", "1", NULL};
    int rc = run_engine(truncated_train, NULL, out, sizeof out, READ_TIMEOUT_MS);
    struct stat st;
    CHECK_MSG(rc == 0 && lines_saying(out, "ends in a partial record (16 bytes); ignoring it") == 1
                  && lines_saying(out, ": 20 positions (weight") == 1,
              "train %s: exit %d: %s", names[0], rc, out);
    CHECK_MSG(stat(out_net, &st) == 0 && st.st_size > 0, "train %s wrote no net", names[0]);
    unlink(out_net);
    snprintf(out_net, sizeof out_net, "%s/out.nnue", dir);
    for (int i = 0; i < 5; i++) i == 2 ? rmdir(path[i]) : unlink(path[i]);
    unlink(out_net), rmdir(dir);
}
