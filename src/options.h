/* The protocol layer's option values and the option table both protocols expose. The
 * search and the evaluation never read them: the front ends pass engine_options.settings
 * with each search, and Hash/Threads resize the engine through threads.h. */
#ifndef SQUALL_OPTIONS_H
#define SQUALL_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "settings.h"

typedef struct {
    int hash_mb;          /* transposition table size */
    int threads;          /* search threads */
    bool ponder;          /* GUI may ask us to ponder */
    int move_overhead_ms; /* safety margin per move for GUI/network lag */
    bool show_wdl;        /* UCI_ShowWDL */
    bool limit_strength;  /* UCI_LimitStrength: play at about strength_elo */
    int strength_elo;     /* UCI_Elo */
    bool own_book;        /* OwnBook: play from the BookFile while it has moves */
    bool book_weighted;   /* BookChoice: weighted random (true) or the heaviest move */
    bool resign;          /* Resign (xboard): give up lost games */
    bool chess960;        /* UCI_Chess960: castling moves are written as the king taking its rook */
    EngineSettings settings; /* evaluator, lazy tier, NNUE updates, MultiPV, strength */
} EngineOptions;

extern EngineOptions engine_options;

/* The option table behind UCI setoption and xboard's option command. */
typedef enum { OPTION_SPIN, OPTION_CHECK, OPTION_COMBO, OPTION_STRING, OPTION_BUTTON } OptionKind;

typedef struct {
    const char *name;
    OptionKind kind;
    int min, max;         /* OPTION_SPIN */
    const char *choices;  /* OPTION_COMBO: space-separated values */
    bool in_xboard;       /* offered as an xboard option (Hash/Threads/Ponder have native commands) */
    bool needs_idle;      /* the caller must stop any search before setting it */
    bool xboard_only;     /* not offered to UCI, where the GUI does the job */
} OptionInfo;

int options_count(void);
const OptionInfo *options_info(int index);
const OptionInfo *options_find(const char *name); /* case-insensitive, NULL if unknown */
/* Current value as text ("" for buttons). */
void options_value_text(const OptionInfo *opt, char *out, size_t out_size);
/* Validates and applies value (NULL for buttons). On failure nothing changes and err says why. */
bool options_set(const char *name, const char *value, char *err, size_t err_size);
/* Option declaration lines, one per option, without trailing newline. */
void options_uci_line(const OptionInfo *opt, char *out, size_t out_size);
void options_xboard_feature(const OptionInfo *opt, char *out, size_t out_size);

#endif
