/* Move text conversion. Parsing always goes through the legal move list, so a move that
 * comes back is legal. */
#include "notation.h"

#include <ctype.h>
#include <string.h>

#include "movegen.h"

void square_to_text(int sq, char *out) {
    out[0] = (char)('a' + square_file(sq));
    out[1] = (char)('1' + square_rank(sq));
    out[2] = 0;
}

static void write_uci(Move m, bool king_takes_rook, const Position *pos, char *out) {
    if (m == MOVE_NONE || m == MOVE_NULL) { strcpy(out, "0000"); return; }
    int to = move_to(m);
    if (move_kind(m) == MOVE_CASTLING && king_takes_rook) { /* the king castles on its own first rank */
        int color = square_rank(to) == 0 ? WHITE : BLACK;
        to = pos->castling.rook_square[castling_index_of_move(color, to)];
    }
    square_to_text(move_from(m), out);
    square_to_text(to, out + 2);
    if (move_kind(m) == MOVE_PROMOTION) {
        out[4] = "nbrq"[move_promo_type(m) - KNIGHT];
        out[5] = 0;
    }
}

void move_to_uci(const Position *pos, Move m, char *out) { write_uci(m, pos->chess960, pos, out); }

void move_to_xboard(const Position *pos, Move m, char *out) {
    if (pos->chess960 && move_kind(m) == MOVE_CASTLING) strcpy(out, square_file(move_to(m)) == 6 ? "O-O" : "O-O-O");
    else write_uci(m, false, pos, out);
}

/* Does text name m? An upper-case promotion letter is accepted too. */
static bool uci_text_is(const char *text, const char *written) {
    size_t n = strlen(text);
    return !strcmp(written, text) || (n == 5 && !strncmp(written, text, 4) && written[4] == tolower((unsigned char)text[4]));
}

Move move_from_uci(const Position *pos, const char *text) {
    size_t n = strlen(text);
    if (n < 4 || n > 5) return MOVE_NONE;
    MoveList list;
    generate_legal(pos, &list);
    char buf[6];
    for (int i = 0; i < list.count; i++) {
        write_uci(list.moves[i], pos->chess960, pos, buf);
        if (uci_text_is(text, buf)) return list.moves[i];
    }
    /* e1h1 in standard chess or e1g1 in Chess960: a GUI that mixes the two still gets castling */
    for (int i = 0; i < list.count; i++) {
        if (move_kind(list.moves[i]) != MOVE_CASTLING) continue;
        write_uci(list.moves[i], !pos->chess960, pos, buf);
        if (!strcmp(text, buf)) return list.moves[i];
    }
    return MOVE_NONE;
}

void move_to_san(Position *pos, Move m, char *out) {
    int from = move_from(m), to = move_to(m);
    int type = piece_type(pos->board[from]);
    size_t n = 0;
    if (move_kind(m) == MOVE_CASTLING) {
        strcpy(out, square_file(to) == 6 ? "O-O" : "O-O-O"); /* the king lands on g or c; in 960 it may not move */
        n = strlen(out);
    } else {
        bool capture = pos_is_capture(pos, m);
        if (type == PAWN) {
            if (capture) out[n++] = (char)('a' + square_file(from));
        } else {
            out[n++] = "PNBRQK"[type];
            /* disambiguate against other pieces of the same type reaching the same square */
            MoveList list;
            generate_legal(pos, &list);
            bool clash = false, same_file = false, same_rank = false;
            for (int i = 0; i < list.count; i++) {
                Move o = list.moves[i];
                int of = move_from(o);
                if (o == m || move_to(o) != to || of == from || pos->board[of] != pos->board[from]) continue;
                clash = true;
                if (square_file(of) == square_file(from)) same_file = true;
                if (square_rank(of) == square_rank(from)) same_rank = true;
            }
            if (clash) {
                if (!same_file) out[n++] = (char)('a' + square_file(from));
                else if (!same_rank) out[n++] = (char)('1' + square_rank(from));
                else out[n++] = (char)('a' + square_file(from)), out[n++] = (char)('1' + square_rank(from));
            }
        }
        if (capture) out[n++] = 'x';
        out[n++] = (char)('a' + square_file(to));
        out[n++] = (char)('1' + square_rank(to));
        if (move_kind(m) == MOVE_PROMOTION) {
            out[n++] = '=';
            out[n++] = "NBRQ"[move_promo_type(m) - KNIGHT];
        }
    }
    pos_make_move(pos, m);
    if (pos_in_check(pos)) out[n++] = count_legal_moves(pos) ? '+' : '#';
    pos_unmake_move(pos);
    out[n] = 0;
}

/* Strips decorations so "Nxe5+!" and "Ne5" compare equal. */
static void san_core(const char *in, char *out, size_t size) {
    size_t n = 0;
    for (const char *c = in; *c && n + 1 < size; c++) {
        if (*c == 'x' || *c == '+' || *c == '#' || *c == '!' || *c == '?' || *c == '=' || *c == ':') continue;
        out[n++] = *c == '0' ? 'O' : *c;
    }
    out[n] = 0;
}

/* Structural SAN parser: [piece][from file][from rank]to[promotion]; accepts O-O/0-0,
 * optional x : = + # ! ?, and over-disambiguation such as "Ng1f3". Ambiguity is refused. */
Move move_from_san(const Position *pos, const char *text) {
    char core[16];
    if (strlen(text) >= sizeof core || !*text) return MOVE_NONE;
    san_core(text, core, sizeof core);
    size_t n = strlen(core);
    MoveList list;
    generate_legal(pos, &list);
    if (!strcmp(core, "O-O") || !strcmp(core, "O-O-O")) {
        for (int i = 0; i < list.count; i++) {
            Move m = list.moves[i];
            if (move_kind(m) == MOVE_CASTLING && (square_file(move_to(m)) == 6) == (n == 3)) return m;
        }
        return MOVE_NONE;
    }
    int type = PAWN, promo = -1, from_file = -1, from_rank = -1;
    size_t i = 0;
    if (n && strchr("NBRQK", core[0])) type = (int)(strchr("PNBRQK", core[0]) - "PNBRQK"), i = 1;
    if (n >= 3 && strchr("NBRQnbrq", core[n - 1]) && isdigit((unsigned char)core[n - 2])) {
        promo = (int)(strchr("NBRQ", toupper((unsigned char)core[n - 1])) - "NBRQ") + KNIGHT;
        n--;
    }
    if (n < i + 2) return MOVE_NONE;
    char f = core[n - 2], r = core[n - 1];
    if (f < 'a' || f > 'h' || r < '1' || r > '8') return MOVE_NONE;
    int to = make_square(f - 'a', r - '1');
    for (; i < n - 2; i++) {
        if (core[i] >= 'a' && core[i] <= 'h' && from_file < 0) from_file = core[i] - 'a';
        else if (core[i] >= '1' && core[i] <= '8' && from_rank < 0) from_rank = core[i] - '1';
        else return MOVE_NONE;
    }
    Move found = MOVE_NONE;
    for (int k = 0; k < list.count; k++) {
        Move m = list.moves[k];
        int from = move_from(m);
        if (move_to(m) != to || piece_type(pos->board[from]) != type || move_kind(m) == MOVE_CASTLING) continue;
        if (from_file >= 0 && square_file(from) != from_file) continue;
        if (from_rank >= 0 && square_rank(from) != from_rank) continue;
        if ((move_kind(m) == MOVE_PROMOTION ? move_promo_type(m) : -1) != promo) continue;
        if (found != MOVE_NONE) return MOVE_NONE; /* ambiguous */
        found = m;
    }
    return found;
}

Move move_from_text(const Position *pos, const char *text) {
    Move m = move_from_uci(pos, text);
    return m != MOVE_NONE ? m : move_from_san(pos, text);
}
