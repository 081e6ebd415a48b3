/* Reading a transcript. The input is first cut into the commands the engine runs, by the
 * rules of docs/protocol.md (lines end at '\n', one trailing '\r' dropped, a line holding
 * NUL or longer than the limit refused whole; batch mode also splits at ';'; the first
 * `uci`/`xboard`/`protover` at the terminal prompt switches the dialect). Each command is
 * then matched with what it printed: the fuzzer's probe (`d`) after every line prints the
 * position, so the output between two probes belongs to the one line between them. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "fuzz.h"
#include "movegen.h"
#include "notation.h"

typedef enum { DIALECT_TERMINAL, DIALECT_UCI, DIALECT_XBOARD } Dialect;
typedef enum { CMD_OTHER, CMD_REFUSED, CMD_GO, CMD_GO_REFUSED, CMD_D, CMD_ISREADY, CMD_PING, CMD_QUIT } CommandKind;

#define MAX_WORDS_SEEN 8

typedef struct {
    const char *text;
    size_t len;
    bool probe;
    Dialect dialect;
    CommandKind kind;
    int fen;   /* CMD_D: index of its Fen line among all Fen lines */
    char words[MAX_WORDS_SEEN][24];
    int word_count;
} Command;

typedef struct {
    Command *items;
    int count, cap;
    bool uncertain_gos; /* a go the rules cannot call (perft inside): no bestmove count */
    bool quit;
    Dialect final_dialect;
    int d_count, gos, isready, pings;
} Commands;

typedef struct {
    const char *text;
    size_t len;
} Span;

static bool is_batch(FuzzMode m) { return m == FUZZ_BATCH_STDIN || m == FUZZ_BATCH_ARGS; }

static bool span_is(Span s, const char *prefix) {
    size_t n = strlen(prefix);
    return s.len >= n && !memcmp(s.text, prefix, n);
}

/* Whether word w appears in the command after its first word (all of it, not only the words kept). */
static bool has_word(const Command *c, const char *w) {
    size_t n = strlen(w);
    bool first = true;
    for (size_t i = 0; i < c->len;) {
        while (i < c->len && isspace((unsigned char)c->text[i])) i++;
        size_t b = i;
        while (i < c->len && !isspace((unsigned char)c->text[i])) i++;
        if (i > b && !first && i - b == n && !memcmp(c->text + b, w, n)) return true;
        first = false;
    }
    return false;
}

static void split(Command *c) {
    c->word_count = 0;
    for (size_t i = 0; i < c->len && c->word_count < MAX_WORDS_SEEN;) {
        while (i < c->len && isspace((unsigned char)c->text[i])) i++;
        if (i == c->len) break;
        size_t b = i;
        while (i < c->len && !isspace((unsigned char)c->text[i])) i++;
        snprintf(c->words[c->word_count++], sizeof c->words[0], "%.*s", (int)(i - b), c->text + b);
    }
}

static void add_command(Commands *cs, const FuzzSession *s, const char *text, size_t len, bool refused, bool probe) {
    if (cs->quit) return;
    if (cs->count == cs->cap) {
        cs->cap = cs->cap ? cs->cap * 2 : 64;
        Command *grown = realloc(cs->items, (size_t)cs->cap * sizeof *grown);
        if (!grown) return;
        cs->items = grown;
    }
    Command *c = &cs->items[cs->count++];
    memset(c, 0, sizeof *c);
    c->text = text, c->len = len, c->probe = probe, c->kind = refused ? CMD_REFUSED : CMD_OTHER;
    c->dialect = cs->final_dialect;
    if (refused) return;
    split(c);
    const char *w = c->word_count ? c->words[0] : "";
    if (c->dialect == DIALECT_TERMINAL) {
        if (!strcmp(w, "uci")) cs->final_dialect = DIALECT_UCI;
        else if (!strcmp(w, "xboard") || !strcmp(w, "protover")) cs->final_dialect = DIALECT_XBOARD;
        c->dialect = cs->final_dialect;
    }
    Dialect d = c->dialect;
    if (!strcmp(w, "quit") || (d == DIALECT_TERMINAL && !strcmp(w, "exit"))) {
        c->kind = CMD_QUIT, cs->quit = true;
    } else if (!strcmp(w, "d")) {
        c->kind = CMD_D, c->fen = cs->d_count++;
    } else if (d != DIALECT_XBOARD && !strcmp(w, "go")) {
        cs->uncertain_gos |= has_word(c, "perft");
        /* nothing can stop an open-ended search in batch mode: refused there */
        bool refused_go = is_batch(s->mode) && (has_word(c, "infinite") || has_word(c, "ponder"));
        c->kind = refused_go ? CMD_GO_REFUSED : CMD_GO;
        if (!refused_go) cs->gos++;
    } else if (d != DIALECT_XBOARD && !strcmp(w, "isready")) {
        c->kind = CMD_ISREADY, cs->isready++;
    } else if (d == DIALECT_XBOARD && !strcmp(w, "ping")) {
        c->kind = CMD_PING, cs->pings++;
    }
}

/* Offsets of the probes in the stream, to tell them from a `d` the session itself sent. */
static bool is_probe_at(const FuzzSession *s, size_t offset) {
    size_t off = 0;
    for (int i = 0; i < s->count; i++) {
        if (off == offset) return s->lines[i].probe;
        if (off > offset) return false;
        off += s->lines[i].len + 1;
    }
    return false;
}

/* Batch mode: each command of a line, split at ';' and trimmed. */
static void add_batch_line(Commands *cs, const FuzzSession *s, const char *text, size_t len, bool probe) {
    size_t i = 0;
    while (i <= len) {
        size_t e = i;
        while (e < len && text[e] != ';') e++;
        size_t b = i, f = e;
        while (b < f && isspace((unsigned char)text[b])) b++;
        while (f > b && isspace((unsigned char)text[f - 1])) f--;
        if (f > b) add_command(cs, s, text + b, f - b, false, probe);
        i = e + 1;
    }
}

static void read_commands(const FuzzSession *s, const char *stream, size_t len, Commands *cs) {
    memset(cs, 0, sizeof *cs);
    if (s->mode == FUZZ_BATCH_ARGS) { /* one argument, no line rules */
        size_t start = 0;
        for (size_t i = 0; i <= len; i++) {
            if (i < len && stream[i] != ';') continue;
            add_batch_line(cs, s, stream + start, i - start, is_probe_at(s, start));
            start = i + 1;
        }
        return;
    }
    size_t start = 0;
    while (start < len) {
        const char *nl = memchr(stream + start, '\n', len - start);
        size_t end = nl ? (size_t)(nl - stream) : len, line_len = end - start;
        bool refused = line_len > FUZZ_ENGINE_LINE_MAX || memchr(stream + start, '\0', line_len);
        if (line_len && stream[end - 1] == '\r') line_len--;
        bool probe = is_probe_at(s, start);
        if (refused) add_command(cs, s, stream + start, line_len, true, probe);
        else if (is_batch(s->mode)) add_batch_line(cs, s, stream + start, line_len, probe);
        else add_command(cs, s, stream + start, line_len, false, probe);
        start = end + 1;
    }
}

void fuzz_plan_sync(const FuzzSession *s, FuzzSync *sync) {
    size_t len;
    char *stream = fuzz_engine_input(s, &len);
    Commands cs;
    read_commands(s, stream, len, &cs);
    if (cs.final_dialect == DIALECT_XBOARD) {
        /* xboard holds a ping back while it thinks on its move: force ends the thinking first */
        sync->sync_line = "force\nping 424242\n", sync->sync_reply = "pong 424242", sync->sync_count = 1;
    } else {
        sync->sync_line = "stop\nisready\n", sync->sync_reply = "readyok", sync->sync_count = cs.isready + 1;
    }
    if (cs.quit || s->bad_flag || s->cut_at >= 0 || is_batch(s->mode)) sync->sync_line = NULL;
    free(cs.items);
    free(stream);
}

/* ---------- the transcript ---------- */

typedef struct {
    Span *lines;
    int count;
    int *fen_line; /* output line of the k-th Fen */
    int fen_count;
} Output;

static void read_output(const FuzzRun *run, Output *o) {
    memset(o, 0, sizeof *o);
    int cap = 0;
    for (size_t i = 0; i < run->out_len;) {
        const char *nl = memchr(run->out + i, '\n', run->out_len - i);
        size_t end = nl ? (size_t)(nl - run->out) : run->out_len;
        if (o->count == cap) {
            cap = cap ? cap * 2 : 1024;
            o->lines = realloc(o->lines, (size_t)cap * sizeof *o->lines);
            o->fen_line = realloc(o->fen_line, (size_t)cap * sizeof *o->fen_line);
            if (!o->lines || !o->fen_line) exit(3);
        }
        Span line = {run->out + i, end - i};
        if (span_is(line, "Fen: ")) o->fen_line[o->fen_count++] = o->count;
        o->lines[o->count++] = line;
        i = end + 1;
    }
}

static bool is_error_line(Span s) {
    return span_is(s, "error: ") || span_is(s, "info string error") || span_is(s, "Error (") ||
           span_is(s, "Illegal move") || span_is(s, "tellusererror");
}

static void fail(FuzzCheck *c, FuzzVerdict v, const char *fmt, const char *a, const char *b) {
    if (c->verdict != FUZZ_OK) return;
    c->verdict = v;
    snprintf(c->detail, sizeof c->detail, fmt, a, b);
}

/* The Fen a `d` printed, as a position; false (a lost state) when the engine's own FEN does not read back. */
static bool fen_of(const Output *o, int k, Position *pos, char *fen, size_t size, FuzzCheck *c) {
    if (k < 0 || k >= o->fen_count) return false;
    Span s = o->lines[o->fen_line[k]];
    snprintf(fen, size, "%.*s", (int)(s.len - 5), s.text + 5);
    if (pos_set_fen(pos, fen, NULL, 0)) return true;
    fail(c, FUZZ_LOST_STATE, "the engine printed a FEN it does not read back: %s%s", fen, "");
    return false;
}

/* Plays the words of text (from the first) as UCI moves on pos; false at the first illegal one. */
static bool legal_line(Position *pos, const char *text, size_t len, int *played) {
    char move[16];
    *played = 0;
    for (size_t i = 0; i < len;) {
        while (i < len && text[i] == ' ') i++;
        size_t b = i;
        while (i < len && text[i] != ' ' && text[i] != '\r') i++;
        if (i == b) break;
        snprintf(move, sizeof move, "%.*s", (int)(i - b), text + b);
        Move m = move_from_uci(pos, move);
        if (m == MOVE_NONE) return false;
        pos_make_move(pos, m);
        pos_trim_history(pos);
        (*played)++;
    }
    return true;
}

/* The command's expected position after an accepted `position` (UCI or terminal). */
static bool expected_after_position(const Command *c, Position *pos) {
    char *copy = malloc(c->len + 1);
    if (!copy) return false;
    memcpy(copy, c->text, c->len);
    copy[c->len] = '\0';
    char *words[8192], *save;
    int n = 0;
    for (char *w = strtok_r(copy, " \t\v\f\r", &save); w && n < 8192; w = strtok_r(NULL, " \t\v\f\r", &save)) words[n++] = w;
    bool ok = n >= 2, done = false;
    int i = 2;
    char fen[512] = "";
    if (ok && !strcmp(words[1], "startpos")) snprintf(fen, sizeof fen, "%s", START_FEN);
    else if (ok && !strcmp(words[1], "fen")) {
        size_t f = 0;
        for (; i < n && strcmp(words[i], "moves"); i++) f += (size_t)snprintf(fen + f, sizeof fen - f, "%s%s", f ? " " : "", words[i]);
    } else ok = false;
    if (ok && n >= 8192) ok = false; /* too long for this check */
    if (ok && pos_set_fen(pos, fen, NULL, 0)) {
        done = true;
        for (i = i + 1; i < n && done; i++) {
            Move m = move_from_text(pos, words[i]);
            if (m == MOVE_NONE) done = false;
            else pos_make_move(pos, m), pos_trim_history(pos);
        }
    }
    free(copy);
    return done;
}

static Position scratch, other;

/* The output lines between the probe before command i and the probe after it; false if
 * either is missing or the command does not stand alone between them. */
static bool region_of(const Commands *cs, const Output *o, int i, int *from, int *to) {
    if (i < 1 || i + 1 >= cs->count) return false;
    const Command *before = &cs->items[i - 1], *after = &cs->items[i + 1];
    if (!before->probe || !after->probe || before->kind != CMD_D || after->kind != CMD_D) return false;
    if (after->fen >= o->fen_count) return false;
    *from = o->fen_line[before->fen], *to = o->fen_line[after->fen];
    return true;
}

static bool region_has(const Output *o, int from, int to, bool (*match)(Span)) {
    for (int l = from + 1; l < to; l++)
        if (match(o->lines[l])) return true;
    return false;
}

/* An error line of command cmd. xboard runs some commands (ping, memory, cores, options)
 * only once it has moved, so an "Error (reason): command" line there may be another's: it
 * counts when it ends with cmd's own text, as the engine echoes it (255 bytes at most, or
 * the start of a refused line and "..."). */
static bool error_of(Span s, const Command *cmd) {
    if (!is_error_line(s)) return false;
    if (cmd->dialect != DIALECT_XBOARD || !span_is(s, "Error (")) return true;
    for (size_t i = 0; i + 3 <= s.len; i++) {
        if (memcmp(s.text + i, "): ", 3)) continue;
        const char *echo = s.text + i + 3;
        size_t n = s.len - i - 3;
        if (n && echo[n - 1] == '\r') n--; /* a refused line's own CR, echoed */
        if (n >= 3 && !memcmp(echo + n - 3, "...", 3) && cmd->kind == CMD_REFUSED) n -= 3;
        if (n == (cmd->len < 255 ? cmd->len : 255) && !memcmp(echo, cmd->text, n)) return true;
        if (cmd->kind == CMD_REFUSED && n <= cmd->len && !memcmp(echo, cmd->text, n)) return true;
    }
    return false;
}

static bool region_has_error_of(const Output *o, int from, int to, const Command *cmd) {
    for (int l = from + 1; l < to; l++)
        if (error_of(o->lines[l], cmd)) return true;
    return false;
}

static bool is_move_line(Span s) { return span_is(s, "move "); }

/* Whether the game could be played when each command ran: a refused position or setboard
 * leaves none (the next go answers bestmove 0000) until a position is accepted or a new game
 * starts. Read from the output of each command; UNKNOWN where it cannot be told. */
typedef enum { GAME_PLAYABLE, GAME_UNPLAYABLE, GAME_UNKNOWN } GameState;

static void game_states(const Commands *cs, const Output *o, GameState *state_before) {
    GameState state = GAME_PLAYABLE;
    for (int i = 0; i < cs->count; i++) {
        state_before[i] = state;
        const Command *c = &cs->items[i];
        if (c->kind == CMD_REFUSED || !c->word_count) continue;
        const char *w = c->words[0];
        bool xboard = c->dialect == DIALECT_XBOARD;
        if (!strcmp(w, "script")) {
            state = GAME_UNKNOWN; /* its lines may set or refuse positions */
        } else if (!strcmp(w, "ucinewgame") ? !xboard : !strcmp(w, "new") && c->dialect != DIALECT_UCI) {
            state = GAME_PLAYABLE;
        } else if ((!xboard && !strcmp(w, "position")) || (!strcmp(w, "setboard") && (xboard || c->word_count > 1))) {
            int from, to;
            if (region_of(cs, o, i, &from, &to)) state = region_has_error_of(o, from, to, c) ? GAME_UNPLAYABLE : GAME_PLAYABLE;
            else state = GAME_UNKNOWN;
        }
    }
}

/* Whether a go gets a bestmove: every go does while there is a game; with none (after a refused
 * position), UCI answers bestmove 0000, also to a go batch mode would refuse, while the prompt
 * and batch mode answer with an error line and play nothing. */
static bool go_answered(const Command *c, GameState state) {
    if (state == GAME_UNPLAYABLE) return c->dialect != DIALECT_TERMINAL && (c->kind == CMD_GO || c->kind == CMD_GO_REFUSED);
    return c->kind == CMD_GO;
}

/* bestmove k goes with go k; the info lines before it belong to the same search. */
static void check_bestmoves(const Commands *cs, const Output *o, FuzzCheck *c, bool complete) {
    int expected = 0, prev_best = -1;
    bool uncertain = cs->uncertain_gos;
    GameState *state = malloc(((size_t)cs->count + 1) * sizeof *state);
    if (!state) return;
    game_states(cs, o, state);
    for (int i = 0; i < cs->count; i++) {
        const Command *cmd = &cs->items[i];
        bool a_go = cmd->kind == CMD_GO || cmd->kind == CMD_GO_REFUSED;
        /* not known whether there was a game, and the answer depends on it */
        if (a_go && state[i] == GAME_UNKNOWN && (cmd->kind == CMD_GO_REFUSED || cmd->dialect == DIALECT_TERMINAL))
            uncertain = true;
        expected += go_answered(cmd, state[i]);
        int from, to;
        if (a_go && state[i] == GAME_UNPLAYABLE && cmd->dialect == DIALECT_TERMINAL && region_of(cs, o, i, &from, &to) &&
            !region_has_error_of(o, from, to, cmd))
            fail(c, FUZZ_BESTMOVES, "a go with no position said nothing%s%s", "", "");
    }
    c->gos = expected;
    int found = 0;
    for (int l = 0; l < o->count; l++) found += span_is(o->lines[l], "bestmove ");
    if (complete && !uncertain && found != expected) {
        char a[32], b[32];
        snprintf(a, sizeof a, "%d", found), snprintf(b, sizeof b, "%d", expected);
        fail(c, FUZZ_BESTMOVES, "%s bestmove lines for %s go commands", a, b);
    }
    if (uncertain || (complete && found != expected)) return free(state);
    char fen[256];
    for (int i = 0, l = 0; i < cs->count; i++) {
        if (!go_answered(&cs->items[i], state[i])) continue;
        while (l < o->count && !span_is(o->lines[l], "bestmove ")) l++;
        if (l == o->count) break;
        int best_line = l++;
        if (state[i] != GAME_PLAYABLE) { /* no game, or not known whether there is one */
            if (state[i] == GAME_UNPLAYABLE && strncmp(o->lines[best_line].text, "bestmove 0000", 13))
                fail(c, FUZZ_ILLEGAL, "a move (%.40s%s) with no position to play", o->lines[best_line].text, "");
            prev_best = best_line;
            continue;
        }
        /* the position: the probe just before the go, or the start position */
        bool known = i == 0 || cs->items[i - 1].kind == CMD_D;
        if (!known) continue;
        if (i == 0) pos_set_startpos(&scratch), snprintf(fen, sizeof fen, "%s", START_FEN);
        else if (!fen_of(o, cs->items[i - 1].fen, &scratch, fen, sizeof fen, c)) continue;
        Span b = o->lines[best_line];
        char line[128];
        snprintf(line, sizeof line, "%.*s", (int)(b.len < 100 ? b.len : 100), b.text);
        char best[16] = "", ponder[16] = "";
        sscanf(line, "bestmove %15s ponder %15s", best, ponder);
        memcpy(&other, &scratch, sizeof other);
        int played;
        if (!strcmp(best, "0000")) {
            if (count_legal_moves(&scratch) > 0) fail(c, FUZZ_ILLEGAL, "'%s' with legal moves in %s", line, fen);
        } else {
            char both[40];
            snprintf(both, sizeof both, "%s %s", best, ponder);
            if (!legal_line(&scratch, both, strlen(both), &played)) fail(c, FUZZ_ILLEGAL, "'%s' not legal in %s", line, fen);
        }
        c->bestmoves_checked++;
        /* the pv of every info line of this search */
        for (int p = prev_best + 1; p < best_line; p++) {
            Span info = o->lines[p];
            if (!span_is(info, "info ") || span_is(info, "info string")) continue;
            const char *pv = NULL;
            for (size_t j = 0; j + 4 <= info.len; j++)
                if (!memcmp(info.text + j, " pv ", 4)) pv = info.text + j + 4;
            if (!pv) continue;
            memcpy(&scratch, &other, sizeof scratch);
            if (!legal_line(&scratch, pv, (size_t)(info.text + info.len - pv), &played)) {
                snprintf(line, sizeof line, "%.*s", (int)(info.len < 120 ? info.len : 120), info.text);
                fail(c, FUZZ_ILLEGAL, "pv not legal in %s: %s", fen, line);
            }
            c->pvs_checked++;
        }
        prev_best = best_line;
    }
    free(state);
}


/* A refused line changes nothing, says so, and an accepted `position` sets what it says. */
static void check_refusals(const Commands *cs, const Output *o, FuzzCheck *c) {
    char fen_a[256], fen_b[256];
    for (int i = 1; i + 1 < cs->count; i++) {
        const Command *cmd = &cs->items[i];
        int from, to;
        if (cmd->probe || !region_of(cs, o, i, &from, &to)) continue;
        const char *w = cmd->word_count ? cmd->words[0] : "";
        if (!strcmp(w, "script") || !strcmp(w, "epd")) continue; /* their lines are not the fuzzer's */
        bool error = region_has_error_of(o, from, to, cmd);
        if (cmd->kind == CMD_REFUSED && !error) {
            char head[64];
            snprintf(head, sizeof head, "%.*s", (int)(cmd->len < 40 ? cmd->len : 40), cmd->text);
            fail(c, FUZZ_MISMATCH, "a line the engine must refuse (NUL or too long) gave no error: '%s'%s", head, "");
        }
        if (region_has(o, from, to, is_move_line)) continue; /* the engine moved meanwhile */
        if (!fen_of(o, cs->items[i - 1].fen, &scratch, fen_a, sizeof fen_a, c) ||
            !fen_of(o, cs->items[i + 1].fen, &other, fen_b, sizeof fen_b, c))
            continue;
        if (error) {
            c->refusals_checked++;
            if (strcmp(fen_a, fen_b)) fail(c, FUZZ_LOST_STATE, "a refused line changed the position: %s -> %s", fen_a, fen_b);
        } else if (cmd->dialect != DIALECT_XBOARD && !strcmp(w, "position") && expected_after_position(cmd, &scratch)) {
            pos_get_fen(&scratch, fen_a, sizeof fen_a);
            if (strcmp(fen_a, fen_b)) fail(c, FUZZ_LOST_STATE, "position set %s, expected %s", fen_b, fen_a);
        }
    }
}

/* xboard: "move X" must be legal where it was played: the position of the last probe, or
 * that position after the one move the line in between played. */
/* The move of a `move ...` line. */
static void xboard_move_text(Span line, char *move, size_t size) {
    snprintf(move, size, "%.*s", (int)(line.len - 5 < size - 1 ? line.len - 5 : size - 1), line.text + 5);
    move[strcspn(move, " \r")] = '\0';
}

static void check_xboard_moves(const Commands *cs, const Output *o, FuzzCheck *c) {
    char fen[256], move[16];
    for (int l = 0, k = -1, first_since_fen = -1; l < o->count; l++) {
        if (span_is(o->lines[l], "Fen: ")) k++, first_since_fen = -1;
        if (!is_move_line(o->lines[l])) continue;
        int earlier = first_since_fen;
        if (first_since_fen < 0) first_since_fen = l;
        /* the commands between the d of Fen k and the next d */
        int d_index = -1, next = -1;
        for (int i = 0; i < cs->count; i++) {
            if (cs->items[i].kind != CMD_D) continue;
            if (cs->items[i].fen == k) d_index = i;
            if (cs->items[i].fen == k + 1) next = i;
        }
        if (k >= 0 && d_index < 0) continue;
        if (k < 0) pos_set_startpos(&scratch), snprintf(fen, sizeof fen, "%s", START_FEN);
        else if (!fen_of(o, k, &scratch, fen, sizeof fen, c)) continue;
        if (next < 0) next = cs->count;
        if (next - d_index > 2) continue; /* more than one command in between: not checked */
        /* a move the engine printed after that d came from a search still running when the d
         * ran: it was played before this one */
        bool replayed = true;
        for (int p = earlier; p >= 0 && p < l && replayed; p++) {
            if (!is_move_line(o->lines[p])) continue;
            xboard_move_text(o->lines[p], move, sizeof move);
            Move m = move_from_uci(&scratch, move);
            if (m == MOVE_NONE) replayed = false; /* failed on its own line already */
            else pos_make_move(&scratch, m);
        }
        if (!replayed) continue;
        xboard_move_text(o->lines[l], move, sizeof move);
        c->xboard_moves_checked++;
        if (move_from_uci(&scratch, move) != MOVE_NONE) continue;
        bool ok = false;
        if (next - d_index == 2) { /* the line in between may have played the opponent's move first */
            const Command *cmd = &cs->items[d_index + 1];
            const char *text = cmd->word_count == 2 && !strcmp(cmd->words[0], "usermove") ? cmd->words[1]
                             : cmd->word_count == 1 ? cmd->words[0] : NULL;
            Move m = text ? move_from_text(&scratch, text) : MOVE_NONE;
            if (m != MOVE_NONE) {
                pos_make_move(&scratch, m);
                ok = move_from_uci(&scratch, move) != MOVE_NONE;
            }
        }
        if (!ok) fail(c, FUZZ_ILLEGAL, "xboard 'move %s' not legal in %s", move, fen);
    }
}

/* A report, not the warning ASan prints when an allocation fails (allocator_may_return_null:
 * a Hash the machine cannot give is refused, as in a release build). */
static bool sanitizer_report(const FuzzRun *run) {
    return strstr(run->err, "ERROR: AddressSanitizer") || strstr(run->err, "ERROR: LeakSanitizer") ||
           strstr(run->err, "runtime error") || run->exit_code == 86 || run->exit_code == 87 || run->exit_code == 23;
}

void fuzz_check(const FuzzSession *s, const FuzzRun *run, FuzzCheck *c) {
    memset(c, 0, sizeof *c);
    size_t len;
    char *stream = fuzz_engine_input(s, &len);
    Commands cs;
    read_commands(s, stream, len, &cs);
    Output o;
    read_output(run, &o);
    char a[64], b[64];
    if (run->hung) fail(c, FUZZ_HANG, "no answer or exit in time: %s%s", run->hang_stage, "");
    else if (sanitizer_report(run)) fail(c, FUZZ_SANITIZER, "sanitizer report (exit %s)%s", (snprintf(a, sizeof a, "%d", run->exit_code), a), "");
    else if (run->signal) fail(c, FUZZ_CRASH, "killed by signal %s%s", (snprintf(a, sizeof a, "%d", run->signal), a), "");
    bool complete = c->verdict == FUZZ_OK && !run->out_truncated;
    if (complete) {
        snprintf(a, sizeof a, "%d", run->exit_code);
        if (s->bad_flag) {
            if (run->exit_code != 2) fail(c, FUZZ_BAD_EXIT, "exit %s for a refused flag%s", a, "");
        } else if (is_batch(s->mode)) {
            bool errors = false;
            for (int l = 0; l < o.count; l++) errors |= is_error_line(o.lines[l]);
            if (run->exit_code != 0 && run->exit_code != 1) fail(c, FUZZ_BAD_EXIT, "batch exit %s%s", a, "");
            else if (cs.final_dialect != DIALECT_XBOARD && (run->exit_code == 1) != errors)
                fail(c, FUZZ_BAD_EXIT, "batch exit %s %s", a, errors ? "with no error line" : "but an error line was printed");
        } else if (run->exit_code != 0) {
            fail(c, FUZZ_BAD_EXIT, "exit %s%s", a, "");
        }
    }
    if (complete && !s->bad_flag) {
        FuzzSync sync;
        fuzz_plan_sync(s, &sync);
        if (sync.sync_line && !run->sync_answered) fail(c, FUZZ_NO_SYNC, "the final '%s' was not answered%s", sync.sync_reply, "");
        if (o.fen_count != cs.d_count) {
            snprintf(a, sizeof a, "%d", o.fen_count), snprintf(b, sizeof b, "%d", cs.d_count);
            fail(c, FUZZ_MISMATCH, "%s Fen lines for %s d commands", a, b);
        }
        check_bestmoves(&cs, &o, c, true);
        check_refusals(&cs, &o, c);
        check_xboard_moves(&cs, &o, c);
    }
    free(o.lines);
    free(o.fen_line);
    free(cs.items);
    free(stream);
}

const char *fuzz_verdict_name(FuzzVerdict v) {
    static const char *names[FUZZ_VERDICT_COUNT] = {"ok", "crash", "sanitizer", "hang", "exit code", "no sync",
                                                    "bestmove count", "illegal move", "lost state", "mismatch"};
    return v < FUZZ_VERDICT_COUNT ? names[v] : "?";
}
