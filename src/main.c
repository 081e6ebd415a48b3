/* Entry point: global flags, subcommands (bench, perft, and the ones other parts of the
 * engine add), batch mode, or the interactive/protocol loop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "board.h"
#include "command_loop.h"
#include "commands.h"
#include "datagen.h"
#include "engine_io.h"
#include "move_features.h"
#include "move_fit.h"
#include "nnue.h"
#include "nnue_order.h"
#include "options.h"
#include "perft.h"
#include "threads.h"
#include "train.h"
#include "tune.h"
#include "version.h"

typedef int (*SubcommandMain)(int argc, char **argv);
typedef void (*SubcommandUsage)(FILE *out);

static int bench_main(int argc, char **argv);
static int perft_main(int argc, char **argv);
static void bench_usage(FILE *out) { fprintf(out, "usage: squall bench [DEPTH 1..64]\n"); }
static void perft_usage(FILE *out) { fprintf(out, "usage: squall perft DEPTH(1..20) [FEN]\n"); }

/* Subcommands: argv[0] is the subcommand name. A new tool is one line here:
 *   {"name", name_main, name_usage, "line for --help"}; `squall name --help` prints name_usage. */
static const struct {
    const char *name;
    SubcommandMain run;
    SubcommandUsage print_usage;
    const char *usage;
} subcommands[] = {
    {"bench", bench_main, bench_usage, "bench [DEPTH]            fixed-depth benchmark: Nodes searched, Nodes/second"},
    {"perft", perft_main, perft_usage, "perft N [FEN]            move-path count per root move and in total"},
    {"net-init", net_init_main, net_init_usage, "net-init --seed S --out FILE [--psqt-classical]   write a fresh net"},
    {"net-reorder", net_reorder_main, net_reorder_usage, "net-reorder --net IN --data FILE[,FILE] --out OUT [--positions N]   same net, sparser L1 input"},
    {"nnue-speed", nnue_speed_main, nnue_speed_usage, "nnue-speed [--iterations N]   NNUE kernel timings"},
    {"datagen", datagen_main, datagen_usage, "datagen --out FILE --games N|--positions N [...]   self-play training data"},
    {"train", train_main, train_usage, "train --data FILE[,FILE] --out NET [...]   train a net from datagen records"},
    {"tune", tune_main, tune_usage, "tune --openings FILE [...]   SPSA tuning of the search constants (make TUNE=1)"},
    {"movefeatures", move_features_main, move_features_usage, "movefeatures [FEN|startpos] [moves M1 M2 ...]   the move guesser's features"},
    {"movefit", move_fit_main, move_fit_usage, "movefit --data FILE[,FILE] [--positions N] [--nodes K] [--out FILE] [...]   fit the move guesser"},
};

#define SUBCOMMAND_COUNT ((int)(sizeof subcommands / sizeof subcommands[0]))

static void print_usage(FILE *out) {
    fprintf(out, "%s %s\n", ENGINE_NAME, squall_version);
    fprintf(out,
            "usage: squall [FLAGS] [SUBCOMMAND ARGS...]\n"
            "  With no subcommand Squall reads commands from stdin: 'uci' or 'xboard' selects a\n"
            "  protocol, anything else is the plain prompt (type 'help').\n"
            "flags:\n"
            "  --batch                  run commands (from --command, else stdin) then exit\n"
            "  --command \"C1; C2; ...\"  ';'-separated commands for batch mode (implies --batch)\n"
            "  --hash MB                transposition table size (1..65536)\n"
            "  --cpus N                 search threads (1..256)\n"
            "  --logfile FILE|-         log all input and output lines ('-' = stderr)\n"
            "  --evalfile FILE          load this net instead of the embedded one\n"
            "  --version                the version (git describe of the source it was built from)\n"
            "  --help                   this text\n"
            "subcommands:\n");
    for (int i = 0; i < SUBCOMMAND_COUNT; i++) fprintf(out, "  %s\n", subcommands[i].usage);
}

static int bench_main(int argc, char **argv) {
    long depth = BENCH_DEFAULT_DEPTH;
    if (argc > 2 || (argc == 2 && !parse_long(argv[1], 1, 64, &depth))) {
        fputs("squall: ", stderr);
        bench_usage(stderr);
        return 2;
    }
    FILE *out = io_stream();
    bench_run((int)depth, &engine_options.settings, out, 1);
    fflush(out);
    return 0;
}

static int perft_main(int argc, char **argv) {
    long depth;
    if (argc < 2 || !parse_long(argv[1], 1, 20, &depth)) {
        fputs("squall: ", stderr);
        perft_usage(stderr);
        return 2;
    }
    static Position pos;
    pos_set_startpos(&pos);
    if (argc > 2) {
        char fen[512], err[256];
        join_words(argv, 2, argc, fen, sizeof fen);
        if (!pos_set_fen(&pos, fen, err, sizeof err)) {
            fprintf(stderr, "squall: bad FEN: %s\n", err);
            return 2;
        }
    }
    FILE *out = io_stream();
    perft_divide(&pos, (int)depth, out);
    fflush(out);
    return 0;
}

/* Everything after the start-up: flags, then a subcommand, batch mode or the session. The
 * --command list is built in *commands, which main frees whichever way this returns. */
static int run(int argc, char **argv, char **commands) {
    board_init();
    io_init();
    nnue_init(); /* the embedded net, when the build has one */

    bool batch = false;
    const char *hash = NULL, *cpus = NULL, *evalfile = NULL;
    int arg = 1;
    for (; arg < argc && argv[arg][0] == '-'; arg++) {
        char *flag = argv[arg];
        char *value = strchr(flag, '=');
        if (value && !strncmp(flag, "--", 2)) *value++ = '\0'; /* --hash=64 */
        bool takes_value = !strcmp(flag, "--command") || !strcmp(flag, "--hash") || !strcmp(flag, "--cpus") ||
                           !strcmp(flag, "--logfile") || !strcmp(flag, "--evalfile");
        if (takes_value && !value) {
            if (arg + 1 >= argc) {
                fprintf(stderr, "squall: %s needs a value (see --help)\n", flag);
                return 2;
            }
            value = argv[++arg];
        } else if (!takes_value && value) {
            fprintf(stderr, "squall: %s takes no value\n", flag);
            return 2;
        }
        if (!strcmp(flag, "--help") || !strcmp(flag, "-h")) {
            print_usage(stdout);
            return 0;
        } else if (!strcmp(flag, "--version")) {
            printf("%s %s\n", ENGINE_NAME, squall_version);
            return 0;
        } else if (!strcmp(flag, "--batch")) {
            batch = true;
        } else if (!strcmp(flag, "--command")) {
            size_t old = *commands ? strlen(*commands) : 0;
            char *grown = realloc(*commands, old + strlen(value) + 2);
            if (!grown) return 1;
            *commands = grown;
            if (old) strcat(*commands, ";"); /* several --command flags run in order */
            else grown[0] = '\0';
            strcat(*commands, value);
            batch = true;
        } else if (!strcmp(flag, "--hash")) {
            hash = value;
        } else if (!strcmp(flag, "--cpus")) {
            cpus = value;
        } else if (!strcmp(flag, "--evalfile")) {
            evalfile = value;
        } else if (!strcmp(flag, "--logfile")) {
            char err[256];
            if (!io_open_log(value, err, sizeof err)) {
                fprintf(stderr, "squall: %s\n", err);
                return 2;
            }
        } else {
            fprintf(stderr, "squall: unknown flag '%s' (see --help)\n", flag);
            return 2;
        }
    }

    const char *sub = arg < argc ? argv[arg] : NULL;
    int sub_index = -1;
    if (sub) {
        for (int i = 0; i < SUBCOMMAND_COUNT; i++)
            if (!strcmp(sub, subcommands[i].name)) sub_index = i;
        if (sub_index < 0) {
            fprintf(stderr, "squall: unknown subcommand '%s' (see --help)\n", sub);
            return 2;
        }
        if (batch) {
            fprintf(stderr, "squall: --batch/--command cannot be combined with a subcommand\n");
            return 2;
        }
        if (arg + 1 < argc && (!strcmp(argv[arg + 1], "--help") || !strcmp(argv[arg + 1], "-h"))) {
            subcommands[sub_index].print_usage(stdout);
            return 0;
        }
    }

    search_init();
    char err[256];
    if (hash && !options_set("Hash", hash, err, sizeof err)) {
        fprintf(stderr, "squall: --hash: %s\n", err);
        return 2;
    }
    if (cpus && !options_set("Threads", cpus, err, sizeof err)) {
        fprintf(stderr, "squall: --cpus: %s\n", err);
        return 2;
    }
    if (evalfile && !options_set("EvalFile", evalfile, err, sizeof err)) {
        fprintf(stderr, "squall: --evalfile: %s\n", err);
        return 2;
    }
    session_init();

    int rc;
    if (sub_index >= 0) {
        rc = subcommands[sub_index].run(argc - arg, argv + arg);
    } else if (batch) {
        rc = command_loop_batch(*commands); /* NULL: the commands come on standard input */
    } else {
        rc = command_loop_run();
    }
    game_free(&session.game);
    io_close_log();
    return rc;
}

int main(int argc, char **argv) {
    char *commands = NULL;
    int rc = run(argc, argv, &commands);
    free(commands);
    return rc;
}
