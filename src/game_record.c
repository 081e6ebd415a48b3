/* Game record: root FEN + move list, replayed into a Position on demand. */
#include "game_record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "notation.h"

void game_init(GameRecord *game) {
    game->moves = NULL;
    game->move_count = game->move_cap = 0;
    pos_set_startpos(&game->pos);
    snprintf(game->root_fen, sizeof game->root_fen, "%s", START_FEN);
}

void game_set_chess960(GameRecord *game, bool on) { game->pos.chess960 = on; }

void game_free(GameRecord *game) {
    free(game->moves);
    game->moves = NULL;
    game->move_count = game->move_cap = 0;
}

static bool reserve(GameRecord *game, int count) {
    if (count <= game->move_cap) return true;
    int cap = game->move_cap ? game->move_cap : 256;
    while (cap < count) cap *= 2;
    Move *grown = realloc(game->moves, (size_t)cap * sizeof *grown);
    if (!grown) return false;
    game->moves = grown, game->move_cap = cap;
    return true;
}

void game_push(GameRecord *game, Move m) {
    if (!reserve(game, game->move_count + 1)) return;
    game->moves[game->move_count++] = m;
    pos_make_move(&game->pos, m);
    pos_trim_history(&game->pos);
}

bool game_set(GameRecord *game, const char *fen, char *const *moves, int move_count, char *err, size_t err_size) {
    /* Build the new game aside so a failure anywhere leaves the old one intact. */
    static Position scratch;
    if (!pos_set_fen(&scratch, fen, err, err_size)) return false;
    scratch.chess960 = game->pos.chess960;
    char root_fen[sizeof game->root_fen];
    pos_get_fen(&scratch, root_fen, sizeof root_fen); /* normalized, so replays always parse */
    Move *list = move_count ? malloc((size_t)move_count * sizeof *list) : NULL;
    if (move_count && !list) {
        snprintf(err, err_size, "out of memory");
        return false;
    }
    for (int i = 0; i < move_count; i++) {
        Move m = move_from_text(&scratch, moves[i]);
        if (m == MOVE_NONE) {
            char fen_now[128];
            pos_get_fen(&scratch, fen_now, sizeof fen_now);
            snprintf(err, err_size, "illegal move '%s' (move %d) in %s", moves[i], i + 1, fen_now);
            free(list);
            return false;
        }
        list[i] = m;
        pos_make_move(&scratch, m);
        pos_trim_history(&scratch);
    }
    if (!reserve(game, move_count)) {
        snprintf(err, err_size, "out of memory");
        free(list);
        return false;
    }
    if (move_count) memcpy(game->moves, list, (size_t)move_count * sizeof *list);
    free(list);
    game->move_count = move_count;
    memcpy(game->root_fen, root_fen, sizeof root_fen);
    memcpy(&game->pos, &scratch, sizeof scratch);
    return true;
}

bool game_set_fen(GameRecord *game, const char *fen, char *err, size_t err_size) {
    return game_set(game, fen, NULL, 0, err, err_size);
}

/* The FEN's fields with castling and en-passant replaced; false when it has fewer than four. */
static bool fen_with_rights(const char *fen, const char *castling, const char *ep, char *out, size_t out_size) {
    char copy[256], *fields[6], *save;
    int n = 0;
    snprintf(copy, sizeof copy, "%s", fen);
    for (char *f = strtok_r(copy, " \t", &save); f && n < 6; f = strtok_r(NULL, " \t", &save)) fields[n++] = f;
    if (n < 4) return false;
    size_t len = (size_t)snprintf(out, out_size, "%s %s %s %s", fields[0], fields[1], castling[0] ? castling : "-", ep);
    for (int i = 4; i < n && len < out_size; i++) len += (size_t)snprintf(out + len, out_size - len, " %s", fields[i]);
    return true;
}

bool game_fen_without_unusable_rights(const char *fen, char *out, size_t out_size, char *dropped, size_t dropped_size) {
    static Position scratch;
    char copy[256], *fields[4], *save, trial[256];
    int n = 0;
    if (!fen || strlen(fen) >= sizeof copy) return false;
    snprintf(copy, sizeof copy, "%s", fen);
    for (char *f = strtok_r(copy, " \t", &save); f && n < 4; f = strtok_r(NULL, " \t", &save)) fields[n++] = f;
    /* the rest of the FEN must stand on its own */
    if (n < 4 || !fen_with_rights(fen, "", "-", trial, sizeof trial) || !pos_set_fen(&scratch, trial, NULL, 0)) return false;
    /* keep each castling letter the position accepts next to those kept so far, whatever
     * the notation */
    char kept[16] = "";
    size_t kept_len = 0, dropped_len = 0;
    dropped[0] = '\0';
    for (const char *c = strcmp(fields[2], "-") ? fields[2] : ""; *c && kept_len + 1 < sizeof kept; c++) {
        kept[kept_len] = *c, kept[kept_len + 1] = '\0';
        if (fen_with_rights(fen, kept, "-", trial, sizeof trial) && pos_set_fen(&scratch, trial, NULL, 0)) kept_len++;
        else dropped_len += (size_t)snprintf(dropped + dropped_len, dropped_size - dropped_len, "%s%c", dropped_len ? " " : "", *c);
        kept[kept_len] = '\0';
        if (dropped_len >= dropped_size) return false;
    }
    const char *ep = fields[3];
    if (!fen_with_rights(fen, kept, ep, trial, sizeof trial) || !pos_set_fen(&scratch, trial, NULL, 0)) {
        dropped_len += (size_t)snprintf(dropped + dropped_len, dropped_size - dropped_len, "%s%s", dropped_len ? " " : "", ep);
        ep = "-";
    }
    if (!dropped_len || dropped_len >= dropped_size) return false; /* refused for some other reason */
    return fen_with_rights(fen, kept, ep, out, out_size) && pos_set_fen(&scratch, out, NULL, 0);
}

bool game_pop(GameRecord *game) {
    if (game->move_count == 0) return false;
    game->move_count--;
    /* Replay from the root: trimmed history cannot be unmade past its start. */
    Position *pos = &game->pos;
    bool chess960 = pos->chess960;
    pos_set_fen(pos, game->root_fen, NULL, 0);
    pos->chess960 = chess960;
    for (int i = 0; i < game->move_count; i++) {
        pos_make_move(pos, game->moves[i]);
        pos_trim_history(pos);
    }
    return true;
}

GameStatus game_status(const GameRecord *game) {
    const Position *pos = &game->pos;
    if (count_legal_moves(pos) == 0) {
        if (!pos_in_check(pos)) return GAME_STALEMATE;
        return pos->side == WHITE ? GAME_BLACK_MATES : GAME_WHITE_MATES;
    }
    if (pos_rule50(pos) >= 100) return GAME_FIFTY_MOVES;
    if (pos_is_draw_by_rule(pos, 0)) return GAME_REPETITION;
    if (pos_insufficient_material(pos)) return GAME_INSUFFICIENT;
    return GAME_ONGOING;
}

const char *game_status_result(GameStatus status) {
    switch (status) {
    case GAME_WHITE_MATES: return "1-0";
    case GAME_BLACK_MATES: return "0-1";
    case GAME_ONGOING: return "*";
    default: return "1/2-1/2";
    }
}

const char *game_status_reason(GameStatus status) {
    switch (status) {
    case GAME_WHITE_MATES: return "White mates";
    case GAME_BLACK_MATES: return "Black mates";
    case GAME_STALEMATE: return "Stalemate";
    case GAME_FIFTY_MOVES: return "Draw by 50 move rule";
    case GAME_REPETITION: return "Draw by repetition";
    case GAME_INSUFFICIENT: return "Insufficient material";
    default: return "Game in progress";
    }
}
