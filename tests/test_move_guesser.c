/* Move guesser: the fit recovers a preference planted in synthetic labels, the MoveGuesser
 * option puts the guesser's pick first at the root (and only when on), and `squall movefit`
 * runs end to end with the same result on any thread count. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "move_fit_model.h"
#include "move_guesser.h"
#include "movegen.h"
#include "options.h"
#include "search_thread.h"
#include "see.h"
#include "test.h"
#include "train_record.h"

/* Positions from random games out of the start position (plies 6..45), with their moves. */
static int random_positions(Position *out, int want, uint64_t seed) {
    uint64_t rng = seed;
    int n = 0;
    static Position pos;
    while (n < want) {
        pos_set_startpos(&pos);
        int plies = 6 + (int)(test_random(&rng) % 40);
        for (int i = 0; i < plies; i++) {
            MoveList list;
            generate_legal(&pos, &list);
            if (list.count == 0) break;
            pos_make_move(&pos, list.moves[test_random(&rng) % (uint64_t)list.count]);
        }
        if (count_legal_moves(&pos) >= 2) memcpy(&out[n++], &pos, sizeof pos);
    }
    return n;
}

/* The capture taking the most valuable piece (the first of equals), MOVE_NONE without one. */
static Move richest_capture(const Position *pos) {
    MoveList list;
    generate_legal(pos, &list);
    Move best = MOVE_NONE;
    int best_value = -1;
    for (int i = 0; i < list.count; i++) {
        int f[MOVE_FEATURE_COUNT];
        move_features(pos, list.moves[i], f);
        if (f[MF_CAPTURE] && f[MF_VICTIM_VALUE] > best_value) best = list.moves[i], best_value = f[MF_VICTIM_VALUE];
    }
    return best;
}

TEST(move_guesser, fit_recovers_a_planted_preference) {
    enum { CANDIDATES = 1500 };
    Position *pos = malloc(CANDIDATES * sizeof *pos);
    int n = random_positions(pos, CANDIDATES, 0x5EED5EEDULL);
    MoveFitSet set;
    move_fit_set_init(&set);
    for (int i = 0; i < n; i++) {
        Move label = richest_capture(&pos[i]);
        if (label != MOVE_NONE) CHECK(move_fit_set_add(&set, &pos[i], label));
    }
    CHECK_MSG(set.positions >= 200, "only %d positions with a capture", set.positions);
    /* first three quarters to fit, the rest to check */
    int fit_count = set.positions * 3 / 4, *use = malloc((size_t)set.positions * sizeof *use);
    for (int p = 0; p < set.positions; p++) use[p] = p;
    MoveFitParams params = MOVE_FIT_PARAMS_DEFAULT;
    params.iterations = 300;
    double w[MOVE_FEATURE_COUNT];
    move_fit_train(&set, use, fit_count, &params, w, NULL);
    int fixed[MOVE_FEATURE_COUNT];
    move_fit_quantize(w, fixed);
    /* a hit takes a piece of the label's value (among equals the label is just the first generated) */
    int hits = 0;
    for (int p = fit_count; p < set.positions; p++) {
        const int *top = set.features + (size_t)(set.first[p] + move_fit_top_row(&set, p, fixed)) * MOVE_FEATURE_COUNT;
        const int *label = set.features + (size_t)(set.first[p] + set.label[p]) * MOVE_FEATURE_COUNT;
        hits += top[MF_CAPTURE] && top[MF_VICTIM_VALUE] == label[MF_VICTIM_VALUE];
    }
    double top1 = (double)hits / (set.positions - fit_count);
    CHECK_MSG(w[MF_VICTIM_VALUE] > 0 && w[MF_CAPTURE] > 0, "victim_value %g, capture %g", w[MF_VICTIM_VALUE], w[MF_CAPTURE]);
    CHECK_MSG(top1 >= 0.95, "held-out top-1 %.3f", top1);
    CHECK_MSG(move_fit_loss(&set, use, fit_count, w) < 0.5, "training loss %.3f", move_fit_loss(&set, use, fit_count, w));
    /* the fit is a function of its data */
    double again[MOVE_FEATURE_COUNT];
    move_fit_train(&set, use, fit_count, &params, again, NULL);
    CHECK(!memcmp(w, again, sizeof w));
    /* an illegal label is refused and adds nothing */
    int before = set.positions;
    CHECK(!move_fit_set_add(&set, &pos[0], move_make(0, 0)));
    CHECK(set.positions == before);
    move_fit_set_free(&set);
    free(use);
    free(pos);
}

/* The guesser's pick: the highest score, the first of equals (the order the option sorts to). */
static Move guesser_pick(const Position *pos) {
    MoveList list;
    generate_legal(pos, &list);
    Move best = list.moves[0];
    for (int i = 1; i < list.count; i++)
        if (move_guesser_score(pos, list.moves[i]) > move_guesser_score(pos, best)) best = list.moves[i];
    return best;
}

/* The first root move of the first iteration for pos, with MoveGuesser on or off. */
static Move first_root_move(const Position *pos, bool guesser) {
    static SearchShared shared; /* setting up a root touches the settings and the thread only */
    memset(&shared, 0, sizeof shared);
    shared.settings = (EngineSettings)ENGINE_SETTINGS_DEFAULT;
    shared.settings.eval_mode = EVAL_MODE_CLASSICAL;
    shared.settings.move_guesser = guesser;
    SearchThread *t = search_thread_create(0, &shared);
    if (!t) return MOVE_NONE;
    SearchLimits limits;
    search_limits_clear(&limits);
    search_setup_root(t, pos, &limits);
    Move order[MAX_MOVES];
    int n = search_root_order(t, order, MAX_MOVES);
    search_thread_destroy(t);
    return n ? order[0] : MOVE_NONE;
}

TEST(move_guesser, option_puts_the_guess_first_at_the_root) {
    /* positions where the generator's first move is unlikely to be the guess: a queen hangs */
    static const char *const fens[] = {
        "rnb1kbnr/pppp1ppp/8/4p2q/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5Q2/PPP2PPP/RNB1KBNR b KQkq - 0 3",
        "4k3/8/8/3q4/8/2N5/8/4K3 w - - 0 1",
    };
    static Position pos;
    int differing = 0;
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        char err[128];
        CHECK_MSG(pos_set_fen(&pos, fens[i], err, sizeof err), "%s: %s", fens[i], err);
        MoveList list;
        generate_legal(&pos, &list);
        Move pick = guesser_pick(&pos), off = first_root_move(&pos, false), on = first_root_move(&pos, true);
        CHECK_MSG(off == list.moves[0], "%s: without the option the root starts on its first legal move", fens[i]);
        CHECK_MSG(on == pick, "%s: with the option the root starts on the guesser's pick", fens[i]);
        differing += pick != list.moves[0];
    }
    CHECK_MSG(differing > 0, "no position where the guess differs from the first legal move");
}

TEST(move_guesser, option_is_in_the_table) {
    char err[128], text[32];
    const OptionInfo *opt = options_find("MoveGuesser");
    CHECK(opt != NULL && opt->kind == OPTION_CHECK && opt->in_xboard);
    CHECK(!engine_options.settings.move_guesser); /* off by default */
    CHECK(options_set("MoveGuesser", "true", err, sizeof err) && engine_options.settings.move_guesser);
    options_value_text(opt, text, sizeof text);
    CHECK(!strcmp(text, "true"));
    CHECK(!options_set("MoveGuesser", "perhaps", err, sizeof err) && engine_options.settings.move_guesser);
    CHECK(options_set("MoveGuesser", "0", err, sizeof err) && !engine_options.settings.move_guesser);
}

static void temp_path(char *out, size_t size, const char *tag) {
    snprintf(out, size, "/tmp/squall-test-movefit-%s-%d", tag, (int)getpid());
}

TEST(move_guesser, movefit_runs_end_to_end_on_any_thread_count) {
    char data[128], out1[128], out2[128], cmd[1024];
    temp_path(data, sizeof data, "data");
    temp_path(out1, sizeof out1, "w1");
    temp_path(out2, sizeof out2, "w2");
    enum { N = 80 };
    Position *pos = malloc(N * sizeof *pos);
    random_positions(pos, N, 77);
    FILE *f = fopen(data, "wb");
    CHECK(f != NULL);
    if (!f) return;
    for (int i = 0; i < N; i++) {
        Record rec;
        record_encode(&rec, &pos[i], 0, 10, (uint32_t)i, RESULT_DRAW); /* a game each: both splits get some */
        fwrite(&rec, sizeof rec, 1, f);
    }
    fclose(f);
    free(pos);
    const char *common = "movefit --positions 60 --nodes 300 --iterations 50 --holdout 0.25";
    snprintf(cmd, sizeof cmd, "%s %s --data %s --threads 1 --out %s >/dev/null 2>&1", test_engine_path, common, data, out1);
    CHECK_MSG(system(cmd) == 0, "%s", cmd);
    snprintf(cmd, sizeof cmd, "%s %s --data %s --threads 2 --out %s >/dev/null 2>&1", test_engine_path, common, data, out2);
    CHECK_MSG(system(cmd) == 0, "%s", cmd);
    size_t na, nb;
    char *a = (char *)test_read_file(out1, &na), *b = (char *)test_read_file(out2, &nb);
    CHECK(a && b && strstr(a, "const int move_guesser_weights[MOVE_FEATURE_COUNT] = {"));
    CHECK(a && strstr(a, "king_zone_attacks"));
    CHECK_MSG(a && b && !strcmp(a, b), "one and two threads fitted different weights:\n%s\n%s", a ? a : "", b ? b : "");
    free(a);
    free(b);
    /* bad input: one line and a non-zero status */
    snprintf(cmd, sizeof cmd, "%s movefit --data %s.missing >/dev/null 2>&1", test_engine_path, data);
    CHECK(system(cmd) != 0);
    snprintf(cmd, sizeof cmd, "%s movefit --data %s --holdout 1.5 >/dev/null 2>&1", test_engine_path, data);
    CHECK(system(cmd) != 0);
    remove(data);
    remove(out1);
    remove(out2);
}
