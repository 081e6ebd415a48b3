/* Engine settings and the option table both protocols expose. Values are validated
 * here once, so UCI setoption, xboard option and the command-line flags agree. */
#include "options.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "book.h"
#include "nnue.h"
#include "strength.h"
#include "threads.h"

EngineOptions engine_options = {
    .hash_mb = SEARCH_DEFAULT_HASH_MB,
    .threads = SEARCH_DEFAULT_THREADS,
    .ponder = false,
    .move_overhead_ms = 30,
    .show_wdl = false,
    .limit_strength = false,
    .strength_elo = STRENGTH_ELO_DEFAULT,
    .own_book = false,
    .book_weighted = true,
    .resign = false,
    .settings = ENGINE_SETTINGS_DEFAULT, /* the embedded net; classical when the build has none */
};

#define EMBEDDED_NET "<embedded>"
#define NO_BOOK "<none>"
static char eval_file[512] = EMBEDDED_NET;
static char book_file[512] = NO_BOOK;

/* Loads a net at run time; a refused file leaves the current net in place. "<embedded>"
 * goes back to the net built into the binary. */
static bool load_eval_file(const char *path, char *err, size_t err_size) {
    if (!strcmp(path, EMBEDDED_NET)) {
        if (strcmp(eval_file, EMBEDDED_NET)) { /* a file net is active: reinstall the built-in one */
            nnue_unload();
            nnue_init();
        }
        return true;
    }
    return nnue_load_file(path, err, err_size);
}

enum { OPT_HASH, OPT_THREADS, OPT_MULTIPV, OPT_PONDER, OPT_EVALFILE, OPT_OVERHEAD, OPT_EVALMODE,
       OPT_LAZYEVAL, OPT_LAZYMARGIN, OPT_NNUEEAGER, OPT_WDL, OPT_CHESS960, OPT_CLEARHASH, OPT_LIMITSTRENGTH,
       OPT_ELO, OPT_OWNBOOK, OPT_BOOKFILE, OPT_BOOKCHOICE, OPT_RESIGN, OPT_MOVEGUESSER, OPT_COUNT };

#ifdef SQUALL_TUNE
/* Tuning build: every search constant is also a spin option of its own name, after the others;
 * it sets the constant in engine_options.settings, which each search takes with it. */
#define OPTION_TOTAL (OPT_COUNT + SEARCH_TUNABLE_COUNT)
#define TUNABLE_OPTION(name, value, min, max, step) \
    [OPT_COUNT + name##_INDEX] = {#name, OPTION_SPIN, min, max, NULL, true, false, false},
#define TUNABLE_OPTIONS SEARCH_TUNABLES(TUNABLE_OPTION)
#else
#define OPTION_TOTAL OPT_COUNT
#define TUNABLE_OPTIONS
#endif

static const OptionInfo option_table[OPTION_TOTAL] = {
    [OPT_HASH] = {"Hash", OPTION_SPIN, 1, 65536, NULL, false, true, false},
    [OPT_THREADS] = {"Threads", OPTION_SPIN, 1, SEARCH_MAX_THREADS, NULL, false, true, false},
    [OPT_MULTIPV] = {"MultiPV", OPTION_SPIN, 1, 64, NULL, true, false, false},
    [OPT_PONDER] = {"Ponder", OPTION_CHECK, 0, 1, NULL, false, false, false},
    [OPT_EVALFILE] = {"EvalFile", OPTION_STRING, 0, 0, NULL, true, true, false},
    [OPT_OVERHEAD] = {"Move Overhead", OPTION_SPIN, 0, 5000, NULL, true, false, false},
    [OPT_EVALMODE] = {"EvalMode", OPTION_COMBO, 0, 0, "nnue classical", true, true, false},
    [OPT_LAZYEVAL] = {"LazyEval", OPTION_CHECK, 0, 1, NULL, true, false, false},
    [OPT_LAZYMARGIN] = {"LazyMargin", OPTION_SPIN, 0, 10000, NULL, true, false, false},
    [OPT_NNUEEAGER] = {"NnueEager", OPTION_CHECK, 0, 1, NULL, true, false, false},
    [OPT_WDL] = {"UCI_ShowWDL", OPTION_CHECK, 0, 1, NULL, false, false, false},
    [OPT_CHESS960] = {"UCI_Chess960", OPTION_CHECK, 0, 1, NULL, false, true, false}, /* xboard: variant fischerandom */
    [OPT_CLEARHASH] = {"Clear Hash", OPTION_BUTTON, 0, 0, NULL, true, true, false},
    [OPT_LIMITSTRENGTH] = {"UCI_LimitStrength", OPTION_CHECK, 0, 1, NULL, true, false, false},
    [OPT_ELO] = {"UCI_Elo", OPTION_SPIN, STRENGTH_ELO_MIN, STRENGTH_ELO_MAX, NULL, true, false, false},
    [OPT_OWNBOOK] = {"OwnBook", OPTION_CHECK, 0, 1, NULL, true, false, false},
    [OPT_BOOKFILE] = {"BookFile", OPTION_STRING, 0, 0, NULL, true, false, false},
    [OPT_BOOKCHOICE] = {"BookChoice", OPTION_COMBO, 0, 0, "weighted best", true, false, false},
    [OPT_RESIGN] = {"Resign", OPTION_CHECK, 0, 1, NULL, true, false, true},
    [OPT_MOVEGUESSER] = {"MoveGuesser", OPTION_CHECK, 0, 1, NULL, true, false, false},
    TUNABLE_OPTIONS
};

int options_count(void) { return OPTION_TOTAL; }

const OptionInfo *options_info(int index) {
    return index >= 0 && index < OPTION_TOTAL ? &option_table[index] : NULL;
}

const OptionInfo *options_find(const char *name) {
    for (int i = 0; i < OPTION_TOTAL; i++)
        if (!strcasecmp(option_table[i].name, name)) return &option_table[i];
    return NULL;
}

static int spin_value(int id) {
    switch (id) {
    case OPT_HASH: return engine_options.hash_mb;
    case OPT_THREADS: return engine_options.threads;
    case OPT_MULTIPV: return engine_options.settings.multipv;
    case OPT_OVERHEAD: return engine_options.move_overhead_ms;
    case OPT_LAZYMARGIN: return engine_options.settings.lazy_margin;
    case OPT_PONDER: return engine_options.ponder;
    case OPT_LAZYEVAL: return engine_options.settings.lazy_eval;
    case OPT_NNUEEAGER: return engine_options.settings.nnue_eager;
    case OPT_WDL: return engine_options.show_wdl;
    case OPT_CHESS960: return engine_options.chess960;
    case OPT_LIMITSTRENGTH: return engine_options.limit_strength;
    case OPT_ELO: return engine_options.strength_elo;
    case OPT_OWNBOOK: return engine_options.own_book;
    case OPT_RESIGN: return engine_options.resign;
    case OPT_MOVEGUESSER: return engine_options.settings.move_guesser;
#ifdef SQUALL_TUNE
    default: return id >= OPT_COUNT ? settings_param(&engine_options.settings, id - OPT_COUNT) : 0;
#else
    default: return 0;
#endif
    }
}

/* A combo's current choice, as an index into its choices. */
static int combo_value(int id) {
    if (id == OPT_EVALMODE) return engine_options.settings.eval_mode == EVAL_MODE_NNUE ? 0 : 1;
    return engine_options.book_weighted ? 0 : 1; /* OPT_BOOKCHOICE */
}

/* The index-th word of a combo's choices into out. */
static void combo_choice(const OptionInfo *opt, int index, char *out, size_t out_size) {
    const char *p = opt->choices;
    for (int i = 0; i < index && p; i++) {
        p = strchr(p, ' ');
        if (p) p++;
    }
    size_t len = p ? strcspn(p, " ") : 0;
    snprintf(out, out_size, "%.*s", (int)len, p ? p : "");
}

/* Index of value among a combo's choices (case-insensitive), -1 if it is none of them. */
static int combo_index(const OptionInfo *opt, const char *value) {
    char choice[64];
    for (int i = 0;; i++) {
        combo_choice(opt, i, choice, sizeof choice);
        if (!choice[0]) return -1;
        if (!strcasecmp(choice, value)) return i;
    }
}

void options_value_text(const OptionInfo *opt, char *out, size_t out_size) {
    int id = (int)(opt - option_table);
    switch (opt->kind) {
    case OPTION_SPIN: snprintf(out, out_size, "%d", spin_value(id)); break;
    case OPTION_CHECK: snprintf(out, out_size, "%s", spin_value(id) ? "true" : "false"); break;
    case OPTION_COMBO: combo_choice(opt, combo_value(id), out, out_size); break;
    case OPTION_STRING: snprintf(out, out_size, "%s", id == OPT_BOOKFILE ? book_file : eval_file); break;
    default: snprintf(out, out_size, "%s", ""); break;
    }
}

/* Whole-string integer in [min, max]. */
static bool parse_int(const char *text, int min, int max, int *out) {
    if (!text || !*text) return false;
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || *end || end == text || v < min || v > max) return false;
    *out = (int)v;
    return true;
}

static bool parse_bool(const char *text, bool *out) {
    if (!text) return false;
    if (!strcasecmp(text, "true") || !strcmp(text, "1") || !strcasecmp(text, "on")) return *out = true, true;
    if (!strcasecmp(text, "false") || !strcmp(text, "0") || !strcasecmp(text, "off")) return *out = false, true;
    return false;
}

bool options_set(const char *name, const char *value, char *err, size_t err_size) {
    const OptionInfo *opt = options_find(name);
    if (!opt) {
        snprintf(err, err_size, "unknown option '%s'", name);
        return false;
    }
    int id = (int)(opt - option_table);
    if (opt->kind != OPTION_BUTTON && (!value || !*value) && opt->kind != OPTION_STRING) {
        snprintf(err, err_size, "option '%s' needs a value", opt->name);
        return false;
    }
    int v = 0;
    bool b = false;
    switch (opt->kind) {
    case OPTION_SPIN:
        if (!parse_int(value, opt->min, opt->max, &v)) {
            snprintf(err, err_size, "option '%s': '%s' is not an integer in %d..%d", opt->name, value, opt->min, opt->max);
            return false;
        }
        break;
    case OPTION_CHECK:
        if (!parse_bool(value, &b)) {
            snprintf(err, err_size, "option '%s': '%s' is not true or false", opt->name, value);
            return false;
        }
        break;
    case OPTION_COMBO:
        if ((v = combo_index(opt, value)) < 0) {
            snprintf(err, err_size, "option '%s': '%s' is not one of: %s", opt->name, value, opt->choices);
            return false;
        }
        break;
    default: break;
    }
    switch (id) {
    case OPT_HASH:
        if (!search_set_hash(v)) {
            snprintf(err, err_size, "Hash: cannot allocate %d MB", v);
            return false;
        }
        engine_options.hash_mb = v;
        break;
    case OPT_THREADS: engine_options.threads = search_set_threads(v); break;
    case OPT_MULTIPV: engine_options.settings.multipv = v; break;
    case OPT_OVERHEAD: engine_options.move_overhead_ms = v; break;
    case OPT_LAZYMARGIN: engine_options.settings.lazy_margin = v; break;
    case OPT_PONDER: engine_options.ponder = b; break;
    case OPT_LAZYEVAL: engine_options.settings.lazy_eval = b; break;
    case OPT_NNUEEAGER: engine_options.settings.nnue_eager = b; break;
    case OPT_WDL: engine_options.show_wdl = b; break;
    case OPT_CHESS960: engine_options.chess960 = b; break;
    case OPT_EVALMODE: engine_options.settings.eval_mode = v == 0 ? EVAL_MODE_NNUE : EVAL_MODE_CLASSICAL; break;
    case OPT_LIMITSTRENGTH: engine_options.limit_strength = b; break;
    case OPT_ELO: engine_options.strength_elo = v; break;
    case OPT_OWNBOOK: engine_options.own_book = b; break;
    case OPT_BOOKCHOICE: engine_options.book_weighted = v == 0; break;
    case OPT_RESIGN: engine_options.resign = b; break;
    case OPT_MOVEGUESSER: engine_options.settings.move_guesser = b; break;
    case OPT_BOOKFILE: {
        const char *path = value && *value ? value : NO_BOOK;
        if (strlen(path) >= sizeof book_file) {
            snprintf(err, err_size, "BookFile: path too long");
            return false;
        }
        if (!strcmp(path, NO_BOOK)) book_close();
        else if (!book_open(path, err, err_size)) return false;
        snprintf(book_file, sizeof book_file, "%s", path);
        break;
    }
    case OPT_CLEARHASH: search_clear(); break;
    case OPT_EVALFILE: {
        const char *path = value && *value ? value : EMBEDDED_NET;
        if (strlen(path) >= sizeof eval_file) {
            snprintf(err, err_size, "EvalFile: path too long");
            return false;
        }
        if (!load_eval_file(path, err, err_size)) return false;
        snprintf(eval_file, sizeof eval_file, "%s", path);
        break;
    }
#ifdef SQUALL_TUNE
    default:
        if (id >= OPT_COUNT) settings_set_param(&engine_options.settings, id - OPT_COUNT, v);
        break;
#else
    default: break;
#endif
    }
    return true;
}

void options_uci_line(const OptionInfo *opt, char *out, size_t out_size) {
    char value[512];
    options_value_text(opt, value, sizeof value);
    switch (opt->kind) {
    case OPTION_SPIN:
        snprintf(out, out_size, "option name %s type spin default %s min %d max %d", opt->name, value, opt->min, opt->max);
        break;
    case OPTION_CHECK: snprintf(out, out_size, "option name %s type check default %s", opt->name, value); break;
    case OPTION_STRING: snprintf(out, out_size, "option name %s type string default %s", opt->name, value); break;
    case OPTION_BUTTON: snprintf(out, out_size, "option name %s type button", opt->name); break;
    case OPTION_COMBO: {
        size_t n = (size_t)snprintf(out, out_size, "option name %s type combo default %s", opt->name, value);
        char choices[128];
        snprintf(choices, sizeof choices, "%s", opt->choices);
        for (char *save, *c = strtok_r(choices, " ", &save); c && n < out_size; c = strtok_r(NULL, " ", &save))
            n += (size_t)snprintf(out + n, out_size - n, " var %s", c);
        break;
    }
    }
}

void options_xboard_feature(const OptionInfo *opt, char *out, size_t out_size) {
    char value[512];
    options_value_text(opt, value, sizeof value);
    int id = (int)(opt - option_table);
    switch (opt->kind) {
    case OPTION_SPIN:
        snprintf(out, out_size, "feature option=\"%s -spin %s %d %d\"", opt->name, value, opt->min, opt->max);
        break;
    case OPTION_CHECK: snprintf(out, out_size, "feature option=\"%s -check %d\"", opt->name, spin_value(id)); break;
    case OPTION_STRING: snprintf(out, out_size, "feature option=\"%s -file %s\"", opt->name, value); break;
    case OPTION_BUTTON: snprintf(out, out_size, "feature option=\"%s -button\"", opt->name); break;
    case OPTION_COMBO: {
        size_t n = (size_t)snprintf(out, out_size, "feature option=\"%s -combo", opt->name);
        char choices[128];
        snprintf(choices, sizeof choices, "%s", opt->choices);
        bool first = true;
        for (char *save, *c = strtok_r(choices, " ", &save); c && n < out_size; c = strtok_r(NULL, " ", &save)) {
            n += (size_t)snprintf(out + n, out_size - n, "%s%s%s", first ? " " : " /// ", strcasecmp(c, value) ? "" : "*", c);
            first = false;
        }
        if (n < out_size) snprintf(out + n, out_size - n, "\"");
        break;
    }
    }
}
