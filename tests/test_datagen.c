/* datagen: records decode to legal quiet positions with consistent game results, and a run is
 * byte-identical for the same seed whatever the thread count. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board.h"
#include "datagen.h"
#include "movegen.h"
#include "nnue.h"
#include "search.h"
#include "sha256.h"
#include "threads.h"
#include "selfplay_fixture.h"
#include "test.h"
#include "train_record.h"

/* A small, fast run: a handful of games at a tiny node budget. */
static bool run_datagen(const char *path, int games, int threads, uint64_t seed, DatagenStats *st) {
    return test_selfplay_games(path, games, threads, 400, seed, st);
}

static void temp_path(char *out, size_t size, const char *tag) {
    snprintf(out, size, "/tmp/squall-test-%s-%d.bin", tag, (int)getpid());
}

TEST(datagen, records_are_legal_quiet_positions) {
    char path[128];
    temp_path(path, sizeof path, "datagen");
    DatagenStats st;
    CHECK(run_datagen(path, 6, 2, 7, &st));
    size_t size = 0;
    unsigned char *buf = test_read_file(path, &size);
    CHECK(buf != NULL);
    CHECK_MSG(size > 0 && size % RECORD_SIZE == 0, "file size %zu", size);
    size_t n = size / RECORD_SIZE;
    CHECK_MSG(n == st.positions, "%zu records, stats say %llu", n, (unsigned long long)st.positions);
    CHECK_EQ_U64(st.games, 6);
    Position *pos = malloc(sizeof *pos);
    uint32_t game = UINT32_MAX, games_seen = 0;
    int result = -1, last_ply = -1;
    for (size_t i = 0; buf && i < n; i++) {
        RecordPosition rp;
        const Record *rec = (const Record *)(buf + i * RECORD_SIZE);
        if (!record_decode(rec, &rp)) {
            CHECK_MSG(false, "record %zu does not decode", i);
            continue;
        }
        char fen[128], err[256];
        record_fen(&rp, fen, sizeof fen);
        bool ok = pos_set_fen(pos, fen, err, sizeof err);
        CHECK_MSG(ok, "record %zu: '%s' refused: %s", i, fen, err);
        if (!ok) continue;
        CHECK_MSG(!pos_in_check(pos), "record %zu in check: %s", i, fen);
        CHECK_MSG(count_legal_moves(pos) > 0, "record %zu has no legal move: %s", i, fen);
        CHECK_MSG(rp.score > -NNUE_EVAL_LIMIT && rp.score < NNUE_EVAL_LIMIT && !score_is_mate(rp.score), "record %zu score %d", i, rp.score);
        /* re-encoding the decoded position gives the same bytes (castling/ep are not stored) */
        Record again;
        record_encode(&again, pos, rp.score, rp.ply, rp.game, rp.result);
        CHECK_MSG(!memcmp(&again, rec, RECORD_SIZE), "record %zu does not round-trip", i);
        if (rp.game != game) { /* a new game: ids ascend, results are per game */
            CHECK_MSG(game == UINT32_MAX || rp.game > game, "game ids out of order at record %zu", i);
            game = rp.game, result = rp.result, last_ply = -1, games_seen++;
        }
        CHECK_MSG(rp.result == result, "record %zu: result %d differs within game %u", i, rp.result, rp.game);
        CHECK_MSG(rp.ply > last_ply, "record %zu: ply %d after %d", i, rp.ply, last_ply);
        last_ply = rp.ply;
    }
    CHECK_MSG(games_seen >= 5, "only %u games have records", games_seen);
    uint64_t ends = st.ends_mate + st.ends_stalemate + st.ends_rule + st.ends_material + st.ends_resign +
                    st.ends_draw_adj + st.ends_max_ply;
    CHECK_EQ_U64(ends, st.games);
    CHECK_EQ_U64(st.wins[0] + st.wins[1] + st.wins[2], st.games);
    free(pos);
    free(buf);
    remove(path);
}

TEST(datagen, same_seed_same_bytes_any_thread_count) {
    char a[128], b[128], c[128];
    temp_path(a, sizeof a, "det-a");
    temp_path(b, sizeof b, "det-b");
    temp_path(c, sizeof c, "det-c");
    DatagenStats st;
    CHECK(run_datagen(a, 3, 2, 11, &st));
    CHECK(run_datagen(b, 3, 2, 11, &st));
    CHECK(run_datagen(c, 3, 1, 11, &st));
    size_t na = 0, nb = 0, nc = 0;
    unsigned char *fa = test_read_file(a, &na), *fb = test_read_file(b, &nb), *fc = test_read_file(c, &nc);
    CHECK(fa && fb && fc && na > 0);
    CHECK_MSG(na == nb && fa && fb && !memcmp(fa, fb, na), "two runs with seed 11 differ");
    CHECK_MSG(na == nc && fa && fc && !memcmp(fa, fc, na), "1 and 2 threads differ");
    /* another seed, other games */
    DatagenStats st2;
    CHECK(run_datagen(c, 3, 2, 12, &st2));
    free(fc);
    fc = test_read_file(c, &nc);
    CHECK(!(na == nc && fa && fc && !memcmp(fa, fc, na)));
    free(fa), free(fb), free(fc);
    remove(a), remove(b), remove(c);
}

TEST(datagen, positions_target_stops_at_a_game_boundary) {
    char path[128];
    temp_path(path, sizeof path, "positions");
    DatagenConfig cfg;
    test_selfplay_config(&cfg, path, 2, 300, 3);
    cfg.positions = 100;
    DatagenStats st;
    char err[256];
    CHECK(datagen_run(&cfg, &st, NULL, err, sizeof err));
    CHECK_MSG(st.positions >= 100, "%llu positions", (unsigned long long)st.positions);
    size_t size = 0;
    unsigned char *buf = test_read_file(path, &size);
    CHECK_EQ_U64(size, st.positions * RECORD_SIZE);
    /* dropping the last game leaves fewer than the target: the run stopped as early as it could */
    size_t n = size / RECORD_SIZE, last_start = n;
    while (buf && last_start > 0 &&
           record_game((const Record *)(buf + (last_start - 1) * RECORD_SIZE)) ==
               record_game((const Record *)(buf + (n - 1) * RECORD_SIZE)))
        last_start--;
    CHECK_MSG(last_start < 100, "the file holds %zu positions before its last game", last_start);
    free(buf);
    remove(path);
}

TEST(datagen, works_with_the_nnue_evaluator) {
    search_init();
    char path[128], err[256];
    temp_path(path, sizeof path, "nnue");
    NnueNet *net = nnue_net_alloc();
    nnue_net_init_psqt_classical(net);
    CHECK(nnue_set_net(net, "test-psqt", err, sizeof err));
    DatagenConfig cfg;
    test_selfplay_config(&cfg, path, 2, 300, 1);
    cfg.settings.eval_mode = EVAL_MODE_NNUE;
    cfg.games = 2;
    DatagenStats st;
    CHECK(datagen_run(&cfg, &st, NULL, err, sizeof err));
    CHECK(st.positions > 0);
    nnue_unload();
    remove(path);
}

TEST(datagen, record_codec_edge_cases) {
    Position *pos = malloc(sizeof *pos);
    /* promoted pieces, black to move, 32 pieces, a bare-kings ending */
    const char *fens[] = {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
                          "1QQ5/8/8/3k4/8/8/7q/4K3 w - - 0 40", "8/8/8/3k4/8/8/8/4K3 w - - 0 70"};
    for (int i = 0; i < 3; i++) {
        CHECK(pos_set_fen(pos, fens[i], NULL, 0));
        Record rec;
        record_encode(&rec, pos, -123, 77, 0x123456u, RESULT_WHITE_WIN);
        RecordPosition rp;
        CHECK(record_decode(&rec, &rp));
        CHECK_EQ_U64(rp.score + 1000, -123 + 1000);
        CHECK_EQ_U64(rp.ply, 77);
        CHECK_EQ_U64(rp.game, 0x123456u);
        CHECK_EQ_U64(rp.side, pos->side);
        CHECK_EQ_U64(rp.count, popcount(pos->occupied));
        char fen[128];
        record_fen(&rp, fen, sizeof fen);
        CHECK_MSG(!strncmp(fen, fens[i], strcspn(fens[i], " ") + 2), "'%s' vs '%s'", fen, fens[i]);
        float stm = record_stm_result(&rp);
        CHECK(stm == (pos->side == WHITE ? 1.0f : 0.0f));
        record_set_result(&rec, RESULT_DRAW);
        CHECK(record_decode(&rec, &rp) && rp.result == RESULT_DRAW);
    }
    Record bad;
    memset(&bad, 0, sizeof bad); /* no kings */
    RecordPosition rp;
    CHECK(!record_decode(&bad, &rp));
    free(pos);
}

/* Published SHA-256 test vectors (FIPS 180-4 examples): empty, one block, two blocks. */
TEST(datagen, sha256_known_vectors) {
    char hex[65];
    sha256_hex("", 0, hex);
    CHECK_MSG(!strcmp(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"), "got %s", hex);
    sha256_hex("abc", 3, hex);
    CHECK_MSG(!strcmp(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"), "got %s", hex);
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    sha256_hex(two, strlen(two), hex);
    CHECK_MSG(!strcmp(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"), "got %s", hex);
}

/* The manifest beside a data file names its evaluator, limits and counts, and says done. */
TEST(datagen, manifest_describes_the_finished_file) {
    char path[128], manifest[160];
    temp_path(path, sizeof path, "manifest");
    snprintf(manifest, sizeof manifest, "%s.manifest", path);
    DatagenConfig cfg;
    test_selfplay_config(&cfg, path, 1, 300, 77);
    cfg.games = 2, cfg.manifest = true;
    char evaluator[160], err[256];
    datagen_describe_evaluator(&cfg.settings, evaluator, sizeof evaluator);
    CHECK_MSG(!strcmp(evaluator, "classical"), "got %s", evaluator);
    cfg.evaluator = evaluator;
    DatagenStats st;
    CHECK_MSG(datagen_run(&cfg, &st, NULL, err, sizeof err), "%s", err);
    size_t size = 0;
    char *text = (char *)test_read_file(manifest, &size);
    CHECK(text != NULL);
    if (!text) return;
    char expect[128];
    snprintf(expect, sizeof expect, " positions=%llu games=2 ", (unsigned long long)st.positions);
    CHECK_MSG(strstr(text, " eval=classical nodes=300 seed=77 ") && strstr(text, expect) && strstr(text, "status=done\n"),
              "manifest: %.*s", (int)size, text);
    free(text);
    remove(path), remove(manifest);
}

/* A running generator keeps its manifest current without progress lines, so one killed without
 * warning leaves counts close to what its file holds. */
typedef struct {
    DatagenConfig cfg;
    bool ok;
    atomic_bool finished;
} ManifestRun;

static void *manifest_run_thread(void *arg) {
    ManifestRun *run = arg;
    char err[256];
    DatagenStats st;
    run->ok = datagen_run(&run->cfg, &st, NULL, err, sizeof err);
    atomic_store(&run->finished, true);
    return NULL;
}

TEST(datagen, manifest_is_rewritten_while_running) {
    char path[128], manifest[160];
    temp_path(path, sizeof path, "manifest-live");
    snprintf(manifest, sizeof manifest, "%s.manifest", path);
    static ManifestRun run;
    test_selfplay_config(&run.cfg, path, 1, 300, 78);
    run.cfg.games = 8, run.cfg.manifest = true, run.cfg.manifest_seconds = 0.001, run.cfg.evaluator = "classical";
    run.ok = false;
    atomic_store(&run.finished, false);
    pthread_t tid;
    bool created = pthread_create(&tid, NULL, manifest_run_thread, &run) == 0;
    CHECK(created);
    if (!created) return;
    bool saw_counted_running = false;
    while (!atomic_load(&run.finished) && !saw_counted_running) {
        size_t size = 0;
        char *text = (char *)test_read_file(manifest, &size);
        saw_counted_running = text && strstr(text, "status=running") && !strstr(text, " games=0 ");
        free(text);
        usleep(1000);
    }
    pthread_join(tid, NULL);
    CHECK(run.ok);
    CHECK_MSG(saw_counted_running, "no manifest with finished games and status=running was seen before the end");
    remove(path), remove(manifest);
}
