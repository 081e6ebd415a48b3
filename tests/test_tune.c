/* The tuning build (make TUNE=1 compiles these tests; make test builds and runs them): every tunable is a UCI spin
 * option that changes what the search uses, each search keeps its own constants even when
 * two run at once, and a tiny node-limited SPSA run is reproducible from its seed, resumes
 * from its checkpoint to the same values, and prints the table's source lines; a pair near a
 * range bound keeps its two players 2 c_k apart. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board.h"
#include "options.h"
#include "threads.h"
#include "timeman.h"
#include "tune.h"
#include "test.h"

TEST(tune, every_tunable_is_a_spin_option) {
    for (int i = 0; i < SEARCH_TUNABLE_COUNT; i++) {
        const TunableInfo *t = &search_tunables[i];
        const OptionInfo *opt = options_find(t->name);
        CHECK_MSG(opt && opt->kind == OPTION_SPIN && opt->min == t->min && opt->max == t->max, "%s", t->name);
        if (!opt) continue;
        char line[256], want[256];
        options_uci_line(opt, line, sizeof line);
        snprintf(want, sizeof want, "option name %s type spin default %d min %d max %d", t->name, t->default_value, t->min,
                 t->max);
        CHECK_MSG(!strcmp(line, want), "'%s', want '%s'", line, want);
    }
}

/* A search of one middlegame to `depth` from fresh tables (callable from several threads). */
static SearchResult search_to(SearchWorker *w, const EngineSettings *settings, int depth) {
    SearchResult r = {0};
    Position *pos = malloc(sizeof *pos);
    if (!pos) return r;
    pos_set_fen(pos, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8", NULL, 0);
    SearchLimits limits;
    search_limits_clear(&limits);
    limits.depth = depth;
    search_worker_clear(w);
    r = search_worker_run(w, pos, &limits, settings);
    free(pos);
    return r;
}

static SearchResult search_with(SearchWorker *w, const EngineSettings *settings) { return search_to(w, settings, 8); }

TEST(tune, setting_an_option_changes_the_search) {
    char err[128], lowest_text[16], below_text[16];
    const int lowest = search_tunables[LMR_DIVISOR_PERCENT_INDEX].min; /* the lowest value the option takes */
    snprintf(lowest_text, sizeof lowest_text, "%d", lowest);
    snprintf(below_text, sizeof below_text, "%d", lowest - 1);
    CHECK(lowest != LMR_DIVISOR_PERCENT_DEFAULT);
    EngineSettings before = engine_options.settings;
    before.eval_mode = EVAL_MODE_CLASSICAL;
    CHECK_MSG(options_set("LMR_DIVISOR_PERCENT", lowest_text, err, sizeof err), "%s", err);
    CHECK(!options_set("LMR_DIVISOR_PERCENT", below_text, err, sizeof err)); /* below its range */
    EngineSettings after = engine_options.settings;
    after.eval_mode = EVAL_MODE_CLASSICAL;
    CHECK(settings_param(&after, LMR_DIVISOR_PERCENT_INDEX) == lowest);
    /* the thread running a search reads the values it was started with */
    settings_install_search_params(&after);
    CHECK(LMR_DIVISOR_PERCENT == lowest);
    settings_install_search_params(&before);
    CHECK(LMR_DIVISOR_PERCENT == LMR_DIVISOR_PERCENT_DEFAULT);
    SearchWorker *w = search_worker_create(8);
    CHECK(w);
    if (w) {
        uint64_t nodes_before = search_with(w, &before).nodes, nodes_after = search_with(w, &after).nodes;
        CHECK_MSG(nodes_before != nodes_after, "LMR divisor %d searched the same %llu nodes", lowest, (unsigned long long)nodes_after);
        search_worker_destroy(w);
    }
    /* LazyMargin and LAZY_EVAL_MARGIN are one setting */
    CHECK(options_set("LAZY_EVAL_MARGIN", "250", err, sizeof err) && engine_options.settings.lazy_margin == 250);
    char text[32];
    options_value_text(options_find("LazyMargin"), text, sizeof text);
    CHECK_MSG(!strcmp(text, "250"), "LazyMargin reads %s", text);
    CHECK(options_set("LMR_DIVISOR_PERCENT", "225", err, sizeof err) && options_set("LazyMargin", "300", err, sizeof err));
}

/* The candidate search features that sit in the table switched off (correction history, history
 * pruning, capture history in LMR…): each one switched on changes the search, which still ends
 * with a legal move, and the same search again gives the same nodes (the new tables start clear).
 * Threat-bucketed history, kept and on by default, is checked the same way switched off. */
TEST(tune, candidate_features_switch_on) {
    /* the switch, and a second setting that makes it act within a short search from clear tables
     * (compared with a search that has only the second setting) */
    static const struct {
        int index, value, index2, value2;
    } switches[] = {{CORRECTION_HISTORY_INDEX, 1, CORRECTION_HISTORY_INDEX, 1},
                    {HISTORY_PRUNE_MAX_DEPTH_INDEX, 6, HISTORY_PRUNE_MARGIN_INDEX, 500},
                    {LMR_CAPTURE_HISTORY_PERCENT_INDEX, 100, LMR_CAPTURE_HISTORY_PERCENT_INDEX, 100},
                    {PROBCUT_MIN_DEPTH_INDEX, 5, PROBCUT_MIN_DEPTH_INDEX, 5},
                    {LMR_TT_CAPTURE_INDEX, 1, LMR_TT_CAPTURE_INDEX, 1},
                    {CONT_HISTORY_PLY4_INDEX, 1, CONT_HISTORY_PLY4_INDEX, 1},
                    {LMR_DEEPER_MARGIN_INDEX, 40, LMR_DEEPER_MARGIN_INDEX, 40},
                    {PRIOR_QUIET_BONUS_PERCENT_INDEX, 100, PRIOR_QUIET_BONUS_PERCENT_INDEX, 100},
                    {EVAL_DIFF_HISTORY_SCALE_INDEX, 10, EVAL_DIFF_HISTORY_MAX_INDEX, 1000},
                    {PRUNE_AT_REDUCED_DEPTH_INDEX, 1, PRUNE_AT_REDUCED_DEPTH_INDEX, 1},
                    {THREAT_HISTORY_INDEX, 0, THREAT_HISTORY_INDEX, 0} /* on by default: switched off */,
                    {RFP_RETURN_MIDPOINT_INDEX, 1, RFP_RETURN_MIDPOINT_INDEX, 1},
                    {ASPIRATION_FAIL_HIGH_REDUCTION_INDEX, 1, ASPIRATION_DELTA_INDEX, 5}};
    SearchWorker *w = search_worker_create(8);
    CHECK(w);
    if (!w) return;
    EngineSettings off = ENGINE_SETTINGS_DEFAULT;
    uint64_t base = search_to(w, &off, 11).nodes;
    for (size_t i = 0; i < sizeof switches / sizeof switches[0]; i++) {
        EngineSettings on = ENGINE_SETTINGS_DEFAULT;
        settings_set_param(&on, switches[i].index, switches[i].value);
        settings_set_param(&on, switches[i].index2, switches[i].value2);
        SearchResult r = search_to(w, &on, 11);
        const char *name = search_tunables[switches[i].index].name;
        uint64_t reference = base; /* the second setting alone, which must not be what changes the search */
        if (switches[i].index2 != switches[i].index) {
            EngineSettings second_only = ENGINE_SETTINGS_DEFAULT;
            settings_set_param(&second_only, switches[i].index2, switches[i].value2);
            reference = search_to(w, &second_only, 11).nodes;
        }
        CHECK_MSG(r.nodes != reference, "%s on searched the same %llu nodes", name, (unsigned long long)reference);
        CHECK_MSG(r.best != MOVE_NONE, "%s on: no move", name);
        CHECK_MSG(search_to(w, &on, 11).nodes == r.nodes, "%s on: not reproducible", name);
    }
    search_worker_destroy(w);
}

/* The node-effort candidate of the time manager: off by default (the limit ignores the effort);
 * switched on, a best move that took most of the root's nodes shortens the target and one that
 * took little lengthens it, by (base - share x weight) percent. */
TEST(tune, node_effort_scales_the_iteration_limit) {
    IterationProgress settled = {10, 1, 0, 20, 900}, contested = {10, 1, 0, 20, 200}, shallow = {5, 1, 0, 20, 900};
    EngineSettings on = ENGINE_SETTINGS_DEFAULT, off = ENGINE_SETTINGS_DEFAULT;
    settings_install_search_params(&off);
    CHECK(timeman_iteration_limit(1000, &settled) == 1000 && timeman_iteration_limit(1000, &contested) == 1000);
    settings_set_param(&on, TM_EFFORT_WEIGHT_PERCENT_INDEX, 100);
    settings_set_param(&on, TM_EFFORT_BASE_PERCENT_INDEX, 140);
    settings_install_search_params(&on);
    int64_t a = timeman_iteration_limit(1000, &settled), b = timeman_iteration_limit(1000, &contested),
            c = timeman_iteration_limit(1000, &shallow);
    settings_set_param(&on, TM_EFFORT_WEIGHT_PERCENT_INDEX, 150);
    settings_set_param(&on, TM_EFFORT_BASE_PERCENT_INDEX, 100);
    settings_install_search_params(&on);
    int64_t floor_limit = timeman_iteration_limit(1000, &settled); /* 100 - 135 % would be negative */
    settings_install_search_params(&off);
    CHECK_MSG(floor_limit == 100, "negative factor: %lld, want the floor 100", (long long)floor_limit);
    CHECK_MSG(a == 500, "90%% of the nodes: %lld, want 500", (long long)a);
    CHECK_MSG(b == 1200, "20%% of the nodes: %lld, want 1200", (long long)b);
    CHECK_MSG(c == 1000, "too shallow to count: %lld, want 1000", (long long)c);
}

static double reduced_share(ReductionStats r) { return r.late_moves ? (double)r.reduced / (double)r.late_moves : 0; }
static double mean_reduction(ReductionStats r) { return r.reduced ? (double)r.plies / (double)r.reduced : 0; }

/* The reduction statistics of a search (bench's "Late moves" line) follow the two LMR knobs of the
 * coverage-against-magnitude study: reducing from a later move lowers the share of late moves
 * reduced; a larger table divisor lowers the plies a reduced move loses. */
TEST(tune, reduction_stats_follow_coverage_and_magnitude) {
    SearchWorker *w = search_worker_create(8);
    CHECK(w);
    if (!w) return;
    EngineSettings base = ENGINE_SETTINGS_DEFAULT, later = base, smaller = base;
    settings_set_param(&later, LMR_MIN_MOVES_INDEX, 5);
    settings_set_param(&smaller, LMR_DIVISOR_PERCENT_INDEX, 350);
    ReductionStats b = search_to(w, &base, 10).reductions, l = search_to(w, &later, 10).reductions,
                   s = search_to(w, &smaller, 10).reductions;
    CHECK_MSG(b.reduced > 0 && b.reduced < b.late_moves && b.plies >= b.reduced, "late %llu reduced %llu plies %llu",
              (unsigned long long)b.late_moves, (unsigned long long)b.reduced, (unsigned long long)b.plies);
    CHECK_MSG(reduced_share(l) < reduced_share(b) - 0.05, "reduced share: from move 6 %.3f, default %.3f",
              reduced_share(l), reduced_share(b));
    CHECK_MSG(mean_reduction(s) < mean_reduction(b) - 0.1, "mean reduction: divisor 3.5 %.3f, default %.3f",
              mean_reduction(s), mean_reduction(b));
    search_worker_destroy(w);
}

typedef struct {
    SearchWorker *worker;
    const EngineSettings *settings;
    SearchResult result;
} Player;

static void *player_main(void *arg) {
    Player *p = arg;
    p->result = search_with(p->worker, p->settings);
    return NULL;
}

/* Two searches with different constants at the same time each search exactly as alone. */
TEST(tune, concurrent_searches_keep_their_own_constants) {
    EngineSettings settings[2] = {ENGINE_SETTINGS_DEFAULT, ENGINE_SETTINGS_DEFAULT};
    settings[0].eval_mode = settings[1].eval_mode = EVAL_MODE_CLASSICAL;
    settings_set_param(&settings[1], RFP_MARGIN_INDEX, 40);
    settings_set_param(&settings[1], LMR_DIVISOR_PERCENT_INDEX, 300);
    settings_set_param(&settings[1], SEE_VALUE_KNIGHT_INDEX, 400);
    Player players[2];
    uint64_t alone[2];
    for (int i = 0; i < 2; i++) {
        players[i].worker = search_worker_create(8);
        players[i].settings = &settings[i];
        CHECK(players[i].worker);
        if (!players[i].worker) return;
        alone[i] = search_with(players[i].worker, &settings[i]).nodes;
    }
    CHECK(alone[0] != alone[1]);
    for (int round = 0; round < 3; round++) {
        pthread_t threads[2];
        for (int i = 0; i < 2; i++) pthread_create(&threads[i], NULL, player_main, &players[i]);
        for (int i = 0; i < 2; i++) pthread_join(threads[i], NULL);
        for (int i = 0; i < 2; i++)
            CHECK_MSG(players[i].result.nodes == alone[i], "player %d: %llu nodes beside the other, %llu alone", i,
                      (unsigned long long)players[i].result.nodes, (unsigned long long)alone[i]);
    }
    for (int i = 0; i < 2; i++) search_worker_destroy(players[i].worker);
}

static void tiny_config(TuneConfig *cfg, const char *openings, const char *checkpoint) {
    tune_config_defaults(cfg);
    cfg->openings_path = openings;
    cfg->checkpoint_path = checkpoint;
    cfg->param_names = "RFP_MARGIN,LMR_DIVISOR_PERCENT,FUTILITY_BASE";
    cfg->iterations = 6;
    cfg->threads = 2;
    cfg->seed = 7;
    cfg->nodes = 300;
    cfg->hash_mb = 2;
    cfg->max_plies = 60;
    cfg->r_end = 0.05; /* large steps, so six pairs move the values */
    cfg->settings.eval_mode = EVAL_MODE_CLASSICAL;
}

/* Near a bound both players still differ by 2 c_k: a pair clipped on one side would only
 * ever measure moves away from the bound. */
TEST(tune, pair_stays_two_steps_apart_at_a_bound) {
    TuneConfig cfg;
    tune_config_defaults(&cfg);
    cfg.iterations = 1000;
    TuneState st = {.count = 1, .tunable = {ASPIRATION_DELTA_INDEX}};
    const TunableInfo *t = &search_tunables[ASPIRATION_DELTA_INDEX];
    double c_0 = t->step * pow(cfg.iterations, cfg.gamma); /* c_k of the first pair */
    const double centres[] = {t->min, t->min + 1, (t->min + t->max) / 2.0, t->max - 1, t->max};
    for (size_t c = 0; c < sizeof centres / sizeof centres[0]; c++) {
        st.theta[0] = centres[c];
        EngineSettings pair[2];
        tune_pair_settings(&cfg, &st, 0, pair);
        int up = settings_param(&pair[0], ASPIRATION_DELTA_INDEX), down = settings_param(&pair[1], ASPIRATION_DELTA_INDEX);
        CHECK_MSG(up >= t->min && up <= t->max && down >= t->min && down <= t->max, "theta %g: %d and %d", centres[c], up, down);
        CHECK_MSG(abs(up - down) >= (int)(2 * c_0), "theta %g: %d and %d, want %.1f apart", centres[c], up, down, 2 * c_0);
        if (centres[c] == (t->min + t->max) / 2.0) /* away from the bounds the pair is theta +- c_k */
            CHECK_MSG(abs(up + down - (t->min + t->max)) <= 1, "theta %g: %d and %d", centres[c], up, down);
    }
}

/* A run's values (every digit, so values that differ never print alike) and its results. */
static void describe_run(const TuneState *st, char *out, size_t size) {
    int n = snprintf(out, size, "(+%llu =%llu -%llu)", (unsigned long long)st->wins, (unsigned long long)st->draws,
                     (unsigned long long)st->losses);
    for (int i = 0; i < st->count && n > 0 && (size_t)n < size; i++) n += snprintf(out + n, size - (size_t)n, " %.17g", st->theta[i]);
}

TEST(tune, spsa_run_is_reproducible_resumes_and_prints_the_table) {
    char openings[128], checkpoint[128], err[256];
    snprintf(openings, sizeof openings, "/tmp/squall-test-tune-openings-%d", (int)getpid());
    snprintf(checkpoint, sizeof checkpoint, "/tmp/squall-test-tune-checkpoint-%d", (int)getpid());
    FILE *f = fopen(openings, "w");
    CHECK(f);
    if (!f) return;
    fputs("e2e4 e7e5 g1f3 b8c6\n# a comment\n\nd2d4 d7d5 c2c4 e7e6\nc2c4 g8f6 b1c3 e7e5 g2g3\n", f);
    fclose(f);
    TuneConfig cfg;
    TuneState a, b, resumed;
    tiny_config(&cfg, openings, NULL);
    CHECK_MSG(tune_run(&cfg, &a, NULL, err, sizeof err), "%s", err);
    CHECK_MSG(tune_run(&cfg, &b, NULL, err, sizeof err), "%s", err);
    CHECK(a.done == 6 && !a.stopped && a.wins + a.draws + a.losses == 12);
    CHECK(a.count == 3 && b.count == 3);
    /* on a mismatch, the two runs side by side: which constant parted and after what results */
    char run_a[160], run_b[160];
    describe_run(&a, run_a, sizeof run_a);
    describe_run(&b, run_b, sizeof run_b);
    CHECK_MSG(!memcmp(a.theta, b.theta, sizeof a.theta), "run a: %s; run b: %s", run_a, run_b);
    bool moved = false;
    for (int i = 0; i < a.count; i++) moved |= a.theta[i] != search_tunables[a.tunable[i]].default_value;
    CHECK_MSG(moved || a.wins == a.losses, "no value moved after %llu wins and %llu losses", (unsigned long long)a.wins,
              (unsigned long long)a.losses);

    /* stopped after the first batch (two threads: four pairs), then resumed */
    unlink(checkpoint);
    tiny_config(&cfg, openings, checkpoint);
    cfg.stop_after = 4;
    CHECK_MSG(tune_run(&cfg, &resumed, NULL, err, sizeof err), "%s", err);
    CHECK(resumed.stopped && resumed.done == 4);
    cfg.stop_after = 0;
    CHECK_MSG(tune_run(&cfg, &resumed, NULL, err, sizeof err), "%s", err);
    CHECK(resumed.done == 6 && !resumed.stopped && !memcmp(resumed.theta, a.theta, sizeof a.theta));
    CHECK(resumed.wins == a.wins && resumed.draws == a.draws && resumed.losses == a.losses);
    /* a checkpoint is resumed only by the run that wrote it */
    cfg.seed = 8;
    CHECK(!tune_run(&cfg, &resumed, NULL, err, sizeof err) && strstr(err, "other settings"));
    unlink(checkpoint);

    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    tune_print_table_lines(&a, out);
    fclose(out);
    int lines = 0;
    for (char *save, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save), lines++) {
        char name[64];
        int value, min, max, step;
        bool parsed = sscanf(line, "    TUNABLE(%63[A-Z_], %d, %d, %d, %d)", name, &value, &min, &max, &step) == 5;
        const TunableInfo *t = &search_tunables[a.tunable[lines < a.count ? lines : 0]];
        CHECK_MSG(parsed && !strcmp(name, t->name) && min == t->min && max == t->max && step == t->step && value >= min
                      && value <= max && line[strlen(line) - 1] == '\\',
                  "'%s'", line);
    }
    CHECK(lines == a.count);
    free(text);
    /* bad inputs are refused with a reason */
    tiny_config(&cfg, openings, NULL);
    cfg.param_names = "RFP_MARGIN,NO_SUCH_CONSTANT";
    CHECK(!tune_run(&cfg, &a, NULL, err, sizeof err) && strstr(err, "NO_SUCH_CONSTANT"));
    f = fopen(openings, "w");
    if (f) fputs("e2e4 e7e5 e1e2 e8e7 e2e4\n", f), fclose(f);
    tiny_config(&cfg, openings, NULL);
    CHECK(!tune_run(&cfg, &a, NULL, err, sizeof err) && strstr(err, ":1: 'e2e4'"));
    unlink(openings);
}
