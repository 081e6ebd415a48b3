/* Position: FEN in/out, make/unmake with an undo stack, Zobrist keys, draw rules. */
#include "board.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "random.h"

uint64_t zobrist_piece[PIECE_NB][SQUARE_NB];
uint64_t zobrist_castling[16];
uint64_t zobrist_ep_file[8];
uint64_t zobrist_side;

static const char piece_chars[] = "PNBRQKpnbrqk";

void board_init(void) {
    static bool done = false;
    if (done) return;
    done = true;
    bitboard_init();
    uint64_t seed = 0x5EED5C0A11ULL;
    for (int p = 0; p < PIECE_NB; p++)
        for (int s = 0; s < 64; s++) zobrist_piece[p][s] = splitmix64(&seed);
    for (int i = 0; i < 16; i++) zobrist_castling[i] = 0;
    uint64_t single[4];
    for (int i = 0; i < 4; i++) single[i] = splitmix64(&seed);
    for (int i = 0; i < 16; i++)
        for (int b = 0; b < 4; b++)
            if (i & (1 << b)) zobrist_castling[i] ^= single[b];
    for (int f = 0; f < 8; f++) zobrist_ep_file[f] = splitmix64(&seed);
    zobrist_side = splitmix64(&seed);
}

static inline void put_piece(Position *pos, int pc, int sq) {
    pos->board[sq] = (uint8_t)pc;
    pos->piece_bb[pc] |= square_bb(sq);
    pos->color_bb[piece_color(pc)] |= square_bb(sq);
    pos->occupied |= square_bb(sq);
}

static inline void remove_piece(Position *pos, int sq) {
    int pc = pos->board[sq];
    pos->piece_bb[pc] &= ~square_bb(sq);
    pos->color_bb[piece_color(pc)] &= ~square_bb(sq);
    pos->occupied &= ~square_bb(sq);
    pos->board[sq] = NO_PIECE;
}

static inline void move_piece(Position *pos, int from, int to) {
    int pc = pos->board[from];
    Bitboard ft = square_bb(from) | square_bb(to);
    pos->piece_bb[pc] ^= ft;
    pos->color_bb[piece_color(pc)] ^= ft;
    pos->occupied ^= ft;
    pos->board[from] = NO_PIECE;
    pos->board[to] = (uint8_t)pc;
}

Bitboard pos_attackers_to(const Position *pos, int sq, Bitboard occ) {
    return (pawn_attacks(BLACK, sq) & pos->piece_bb[W_PAWN])
         | (pawn_attacks(WHITE, sq) & pos->piece_bb[B_PAWN])
         | (knight_attacks(sq) & pos_type_bb(pos, KNIGHT))
         | (king_attacks(sq) & pos_type_bb(pos, KING))
         | (bishop_attacks(sq, occ) & (pos_type_bb(pos, BISHOP) | pos_type_bb(pos, QUEEN)))
         | (rook_attacks(sq, occ) & (pos_type_bb(pos, ROOK) | pos_type_bb(pos, QUEEN)));
}

bool pos_square_attacked(const Position *pos, int sq, int by, Bitboard occ) {
    return (pawn_attacks(!by, sq) & pos_pieces(pos, by, PAWN))
        || (knight_attacks(sq) & pos_pieces(pos, by, KNIGHT))
        || (king_attacks(sq) & pos_pieces(pos, by, KING))
        || (bishop_attacks(sq, occ) & (pos_pieces(pos, by, BISHOP) | pos_pieces(pos, by, QUEEN)))
        || (rook_attacks(sq, occ) & (pos_pieces(pos, by, ROOK) | pos_pieces(pos, by, QUEEN)));
}

Bitboard pos_attacks_by(const Position *pos, int by) {
    Bitboard attacks = pawn_attacks_bb(by, pos_pieces(pos, by, PAWN)) | king_attacks(pos->king_square[by]);
    for (Bitboard b = pos_pieces(pos, by, KNIGHT); b;) attacks |= knight_attacks(pop_lsb(&b));
    for (Bitboard b = pos_pieces(pos, by, BISHOP) | pos_pieces(pos, by, QUEEN); b;) attacks |= bishop_attacks(pop_lsb(&b), pos->occupied);
    for (Bitboard b = pos_pieces(pos, by, ROOK) | pos_pieces(pos, by, QUEEN); b;) attacks |= rook_attacks(pop_lsb(&b), pos->occupied);
    return attacks;
}

/* An en-passant square is recorded only when a pawn of the side to move could take there,
 * so that transpositions get the same key. */
static int usable_ep_square(const Position *pos, int ep, int side_to_move) {
    if (ep == SQ_NONE) return SQ_NONE;
    return (pawn_attacks(!side_to_move, ep) & pos_pieces(pos, side_to_move, PAWN)) ? ep : SQ_NONE;
}

uint64_t pos_compute_key(const Position *pos) {
    const StateInfo *st = pos_state(pos);
    uint64_t key = 0;
    for (int sq = 0; sq < 64; sq++)
        if (pos->board[sq] != NO_PIECE) key ^= zobrist_piece[pos->board[sq]][sq];
    key ^= zobrist_castling[st->castling];
    if (st->ep_square != SQ_NONE) key ^= zobrist_ep_file[square_file(st->ep_square)];
    if (pos->side == BLACK) key ^= zobrist_side;
    return key;
}

static bool fen_error(char *err, size_t size, const char *msg) {
    if (err && size) snprintf(err, size, "%s", msg);
    return false;
}

static bool parse_counter(const char *tok, long lo, long hi, long *out) {
    if (!*tok) return false;
    for (const char *c = tok; *c; c++)
        if (!isdigit((unsigned char)*c)) return false;
    if (strlen(tok) > 10) return false; /* strtol cannot overflow */
    long v = strtol(tok, NULL, 10);
    if (v < lo || v > hi) return false;
    *out = v;
    return true;
}

bool pos_set_fen(Position *pos, const char *fen, char *err, size_t err_size) {
    Position *p = malloc(sizeof *p); /* built aside so a rejected FEN changes nothing */
    if (!p) return fen_error(err, err_size, "out of memory");
    memset(p, 0, sizeof *p);
    for (int s = 0; s < 64; s++) p->board[s] = NO_PIECE;

    char buf[256];
    if (!fen || strlen(fen) >= sizeof buf) { free(p); return fen_error(err, err_size, "FEN missing or too long"); }
    strcpy(buf, fen);
    char *fields[8];
    int nfields = 0;
    char *rest = NULL; /* strtok_r: datagen's threads parse FENs at the same time */
    for (char *tok = strtok_r(buf, " \t\r\n", &rest); tok; tok = strtok_r(NULL, " \t\r\n", &rest)) {
        if (nfields == 6) { free(p); return fen_error(err, err_size, "junk after the FEN's six fields"); }
        fields[nfields++] = tok;
    }
    if (nfields < 4) { free(p); return fen_error(err, err_size, "FEN needs at least placement, side, castling and en-passant fields"); }

    /* 1. placement */
    int rank = 7, file = 0;
    for (const char *c = fields[0]; *c; c++) {
        if (*c == '/') {
            if (file != 8 || rank == 0) { free(p); return fen_error(err, err_size, "FEN rank does not have 8 squares, or too many ranks"); }
            rank--, file = 0;
        } else if (*c >= '1' && *c <= '8') {
            if (c > fields[0] && c[-1] >= '0' && c[-1] <= '9') { free(p); return fen_error(err, err_size, "FEN has two digits in a row (write 8, not 44 or 17)"); }
            file += *c - '0';
            if (file > 8) { free(p); return fen_error(err, err_size, "FEN rank has more than 8 squares"); }
        } else {
            const char *pc = strchr(piece_chars, *c);
            if (!pc || !*c) { free(p); return fen_error(err, err_size, "FEN has an unknown piece letter"); }
            if (file >= 8) { free(p); return fen_error(err, err_size, "FEN rank has more than 8 squares"); }
            put_piece(p, (int)(pc - piece_chars), make_square(file, rank));
            file++;
        }
    }
    if (rank != 0 || file != 8) { free(p); return fen_error(err, err_size, "FEN placement does not describe 8 ranks of 8 squares"); }
    for (int c = 0; c < 2; c++) {
        if (popcount(pos_pieces(p, c, KING)) != 1) { free(p); return fen_error(err, err_size, "each side needs exactly one king"); }
        p->king_square[c] = (uint8_t)lsb(pos_pieces(p, c, KING));
        if (popcount(pos_pieces(p, c, PAWN)) > 8) { free(p); return fen_error(err, err_size, "a side has more than 8 pawns"); }
        if (popcount(p->color_bb[c]) > 16) { free(p); return fen_error(err, err_size, "a side has more than 16 pieces"); }
    }
    if (pos_type_bb(p, PAWN) & (RANK_1_BB | RANK_8_BB)) { free(p); return fen_error(err, err_size, "pawn on the first or eighth rank"); }

    /* 2. side to move */
    if (strcmp(fields[1], "w") == 0) p->side = WHITE;
    else if (strcmp(fields[1], "b") == 0) p->side = BLACK;
    else { free(p); return fen_error(err, err_size, "side to move must be 'w' or 'b'"); }

    /* 3. castling */
    StateInfo *st = &p->states[0];
    if (!castling_parse_field(p, fields[2], err, err_size)) { free(p); return false; }

    /* 4. en passant */
    st->ep_square = SQ_NONE;
    if (strcmp(fields[3], "-") != 0) {
        const char *e = fields[3];
        if (strlen(e) != 2 || e[0] < 'a' || e[0] > 'h' || e[1] < '1' || e[1] > '8') {
            free(p);
            return fen_error(err, err_size, "en-passant field is not a square or -");
        }
        int ep = make_square(e[0] - 'a', e[1] - '1');
        int us = p->side, them = !us;
        int pushed = us == WHITE ? ep - 8 : ep + 8;   /* where the double-pushed pawn stands */
        int origin = us == WHITE ? ep + 8 : ep - 8;   /* where it came from */
        if (relative_rank(us, ep) != 5 || p->board[pushed] != make_piece(them, PAWN) ||
            p->board[ep] != NO_PIECE || p->board[origin] != NO_PIECE) {
            free(p);
            return fen_error(err, err_size, "en-passant square impossible for this position");
        }
        st->ep_square = (uint8_t)usable_ep_square(p, ep, us);
    }

    /* 5./6. counters (optional, as in EPD) */
    long rule50 = 0, fullmove = 1;
    /* as large as play can make them, so every FEN the engine prints reads back */
    if (nfields >= 5 && !parse_counter(fields[4], 0, UINT16_MAX, &rule50)) { free(p); return fen_error(err, err_size, "half-move clock is not a number in 0..65535"); }
    if (nfields >= 6 && !parse_counter(fields[5], 0, 1000000000, &fullmove)) { free(p); return fen_error(err, err_size, "full-move number is not a number in 1..1000000000"); }
    if (fullmove < 1) fullmove = 1; /* many GUIs write 0 */
    st->rule50 = (uint16_t)rule50;
    st->plies_from_null = 0;
    st->move = MOVE_NONE;
    st->captured = NO_PIECE;
    st->dirty.count = 0;
    p->game_ply = (int)(2 * (fullmove - 1) + (p->side == BLACK));

    /* legality of the whole */
    int us = p->side;
    if (pos_square_attacked(p, p->king_square[!us], us, p->occupied)) { free(p); return fen_error(err, err_size, "side not to move is in check"); }
    st->checkers = pos_attackers_to(p, p->king_square[us], p->occupied) & p->color_bb[!us];
    if (popcount(st->checkers) > 2) { free(p); return fen_error(err, err_size, "side to move is in check by more than two pieces"); }
    st->key = pos_compute_key(p);

    memcpy(pos, p, sizeof *p);
    free(p);
    return true;
}

void pos_set_startpos(Position *pos) {
    bool ok = pos_set_fen(pos, START_FEN, NULL, 0);
    (void)ok;
}

void pos_get_fen(const Position *pos, char *out, size_t size) {
    char buf[128];
    int n = 0;
    for (int r = 7; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < 8; f++) {
            int pc = pos->board[make_square(f, r)];
            if (pc == NO_PIECE) { empty++; continue; }
            if (empty) buf[n++] = (char)('0' + empty), empty = 0;
            buf[n++] = piece_chars[pc];
        }
        if (empty) buf[n++] = (char)('0' + empty);
        if (r) buf[n++] = '/';
    }
    const StateInfo *st = pos_state(pos);
    buf[n++] = ' ';
    buf[n++] = pos->side == WHITE ? 'w' : 'b';
    buf[n++] = ' ';
    castling_write_field(pos, buf + n);
    n += (int)strlen(buf + n);
    buf[n++] = ' ';
    if (st->ep_square == SQ_NONE) buf[n++] = '-';
    else buf[n++] = (char)('a' + square_file(st->ep_square)), buf[n++] = (char)('1' + square_rank(st->ep_square));
    buf[n] = 0;
    snprintf(out, size, "%s %d %d", buf, st->rule50, pos->game_ply / 2 + 1);
}

void pos_print(const Position *pos, char *out, size_t size) {
    size_t n = 0;
    for (int r = 7; r >= 0; r--) {
        n += (size_t)snprintf(out + n, size - n, " +---+---+---+---+---+---+---+---+\n");
        for (int f = 0; f < 8; f++) {
            int pc = pos->board[make_square(f, r)];
            n += (size_t)snprintf(out + n, size - n, " | %c", pc == NO_PIECE ? ' ' : piece_chars[pc]);
        }
        n += (size_t)snprintf(out + n, size - n, " | %d\n", r + 1);
    }
    n += (size_t)snprintf(out + n, size - n, " +---+---+---+---+---+---+---+---+\n   a   b   c   d   e   f   g   h\n\n");
    char fen[128];
    pos_get_fen(pos, fen, sizeof fen);
    n += (size_t)snprintf(out + n, size - n, "Fen: %s\nKey: %016llX\nCheckers:", fen, (unsigned long long)pos_key(pos));
    Bitboard c = pos_checkers(pos);
    while (c && n < size) {
        int sq = pop_lsb(&c);
        n += (size_t)snprintf(out + n, size - n, " %c%c", 'a' + square_file(sq), '1' + square_rank(sq));
    }
    if (n < size) snprintf(out + n, size - n, "\n");
}

static inline void add_dirty(DirtyPieces *d, int pc, int from, int to) {
    d->list[d->count].piece = (uint8_t)pc;
    d->list[d->count].from = (uint8_t)from;
    d->list[d->count].to = (uint8_t)to;
    d->count++;
}

static inline void castling_rook_squares(const Position *pos, int color, int king_to, int *rook_from, int *rook_to) {
    int index = castling_index_of_move(color, king_to);
    *rook_from = pos->castling.rook_square[index];
    *rook_to = castling_rook_to(index);
}

void pos_make_move(Position *pos, Move m) {
    const StateInfo *prev = pos_state(pos);
    StateInfo *st = &pos->states[++pos->state_index];
    int us = pos->side, them = !us;
    int from = move_from(m), to = move_to(m), kind = move_kind(m);
    int pc = pos->board[from];
    int captured = kind == MOVE_ENPASSANT ? make_piece(them, PAWN) : (kind == MOVE_CASTLING ? NO_PIECE : pos->board[to]);
    uint64_t key = prev->key ^ zobrist_side;

    st->rule50 = (uint16_t)(prev->rule50 + 1);
    st->plies_from_null = (uint16_t)(prev->plies_from_null + 1);
    st->move = m;
    st->captured = (uint8_t)captured;
    st->ep_square = SQ_NONE;
    st->dirty.count = 0;
    if (prev->ep_square != SQ_NONE) key ^= zobrist_ep_file[square_file(prev->ep_square)];

    if (kind == MOVE_CASTLING) {
        int rook_from, rook_to, rook = make_piece(us, ROOK);
        castling_rook_squares(pos, us, to, &rook_from, &rook_to);
        /* in Chess960 each may land on the other's start square: lift both, then place both */
        remove_piece(pos, from);
        remove_piece(pos, rook_from);
        put_piece(pos, pc, to);
        put_piece(pos, rook, rook_to);
        key ^= zobrist_piece[pc][from] ^ zobrist_piece[pc][to] ^ zobrist_piece[rook][rook_from] ^ zobrist_piece[rook][rook_to];
        add_dirty(&st->dirty, pc, from, to);
        add_dirty(&st->dirty, rook, rook_from, rook_to);
    } else {
        if (captured != NO_PIECE) {
            int cap_sq = kind == MOVE_ENPASSANT ? (us == WHITE ? to - 8 : to + 8) : to;
            remove_piece(pos, cap_sq);
            key ^= zobrist_piece[captured][cap_sq];
            add_dirty(&st->dirty, captured, cap_sq, SQ_NONE);
            st->rule50 = 0;
        }
        move_piece(pos, from, to);
        key ^= zobrist_piece[pc][from] ^ zobrist_piece[pc][to];
        if (piece_type(pc) == PAWN) {
            st->rule50 = 0;
            if ((from ^ to) == 16) {
                int ep = (from + to) / 2;
                if (pawn_attacks(us, ep) & pos_pieces(pos, them, PAWN)) {
                    st->ep_square = (uint8_t)ep;
                    key ^= zobrist_ep_file[square_file(ep)];
                }
                add_dirty(&st->dirty, pc, from, to);
            } else if (kind == MOVE_PROMOTION) {
                int promo = make_piece(us, move_promo_type(m));
                remove_piece(pos, to);
                put_piece(pos, promo, to);
                key ^= zobrist_piece[pc][to] ^ zobrist_piece[promo][to];
                add_dirty(&st->dirty, pc, from, SQ_NONE);
                add_dirty(&st->dirty, promo, SQ_NONE, to);
            } else {
                add_dirty(&st->dirty, pc, from, to);
            }
        } else {
            add_dirty(&st->dirty, pc, from, to);
        }
    }
    if (piece_type(pc) == KING) pos->king_square[us] = (uint8_t)to;

    st->castling = prev->castling & pos->castling.keep[from] & pos->castling.keep[to];
    key ^= zobrist_castling[prev->castling] ^ zobrist_castling[st->castling];
    st->key = key;
    pos->side = (uint8_t)them;
    pos->game_ply++;
    st->checkers = pos_attackers_to(pos, pos->king_square[them], pos->occupied) & pos->color_bb[us];
}

void pos_unmake_move(Position *pos) {
    const StateInfo *st = pos_state(pos);
    Move m = st->move;
    int them = pos->side, us = !them;
    int from = move_from(m), to = move_to(m), kind = move_kind(m);

    if (kind == MOVE_CASTLING) {
        int rook_from, rook_to;
        castling_rook_squares(pos, us, to, &rook_from, &rook_to);
        remove_piece(pos, to);
        remove_piece(pos, rook_to);
        put_piece(pos, make_piece(us, KING), from);
        put_piece(pos, make_piece(us, ROOK), rook_from);
    } else {
        if (kind == MOVE_PROMOTION) {
            remove_piece(pos, to);
            put_piece(pos, make_piece(us, PAWN), to);
        }
        move_piece(pos, to, from);
        if (st->captured != NO_PIECE) {
            int cap_sq = kind == MOVE_ENPASSANT ? (us == WHITE ? to - 8 : to + 8) : to;
            put_piece(pos, st->captured, cap_sq);
        }
    }
    if (piece_type(pos->board[from]) == KING) pos->king_square[us] = (uint8_t)from;
    pos->side = (uint8_t)us;
    pos->game_ply--;
    pos->state_index--;
}

void pos_make_null(Position *pos) {
    const StateInfo *prev = pos_state(pos);
    StateInfo *st = &pos->states[++pos->state_index];
    *st = *prev;
    st->key ^= zobrist_side;
    if (prev->ep_square != SQ_NONE) st->key ^= zobrist_ep_file[square_file(prev->ep_square)];
    st->ep_square = SQ_NONE;
    st->rule50 = (uint16_t)(prev->rule50 + 1);
    st->plies_from_null = 0;
    st->move = MOVE_NULL;
    st->captured = NO_PIECE;
    st->checkers = 0;
    st->dirty.count = 0;
    pos->side = (uint8_t)!pos->side;
    pos->game_ply++;
}

void pos_unmake_null(Position *pos) {
    pos->state_index--;
    pos->side = (uint8_t)!pos->side;
    pos->game_ply--;
}

bool pos_is_capture(const Position *pos, Move m) {
    return move_kind(m) == MOVE_ENPASSANT || (move_kind(m) != MOVE_CASTLING && pos->board[move_to(m)] != NO_PIECE);
}

/* Legal-move check for moves that may come from anywhere (TT, killers, user input). */
bool pos_is_pseudo_legal(const Position *pos, Move m) {
    if (m == MOVE_NONE || m == MOVE_NULL) return false;
    int us = pos->side, them = !us;
    int from = move_from(m), to = move_to(m), kind = move_kind(m);
    int pc = pos->board[from];
    if (pc == NO_PIECE || piece_color(pc) != us) return false;
    if (kind != MOVE_PROMOTION && (m >> 12 & 3)) return false; /* only promotions carry a piece */
    int type = piece_type(pc);
    Bitboard occ = pos->occupied;
    const StateInfo *st = pos_state(pos);
    int ksq = pos->king_square[us];

    if (kind == MOVE_CASTLING) { /* before the own-piece test: in 960 the king may land on its rook or stay put */
        if (type != KING || pos_in_check(pos)) return false;
        int index = castling_index_of_move(us, to);
        if (to != castling_king_to(index) || !(st->castling & (1 << index))) return false;
        const CastlingSetup *cs = &pos->castling;
        if (occ & cs->must_be_empty[index]) return false;
        for (Bitboard path = cs->king_path[index]; path;)
            if (pos_square_attacked(pos, pop_lsb(&path), them, occ)) return false;
        /* the castling rook may have shielded the king's destination along the back rank */
        Bitboard after = (occ ^ square_bb(from) ^ square_bb(cs->rook_square[index])) | square_bb(to)
                       | square_bb(castling_rook_to(index));
        return !(rook_attacks(to, after) & (pos_pieces(pos, them, ROOK) | pos_pieces(pos, them, QUEEN)));
    }
    if (pos->color_bb[us] & square_bb(to)) return false;
    if (kind == MOVE_ENPASSANT) {
        if (type != PAWN || to != st->ep_square || !(pawn_attacks(us, from) & square_bb(to))) return false;
        int cap_sq = us == WHITE ? to - 8 : to + 8;
        Bitboard after = (occ ^ square_bb(from) ^ square_bb(cap_sq)) | square_bb(to);
        Bitboard bq = (pos_pieces(pos, them, BISHOP) | pos_pieces(pos, them, QUEEN));
        Bitboard rq = (pos_pieces(pos, them, ROOK) | pos_pieces(pos, them, QUEEN));
        return !(bishop_attacks(ksq, after) & bq) && !(rook_attacks(ksq, after) & rq)
            && !(knight_attacks(ksq) & pos_pieces(pos, them, KNIGHT))
            && !(pawn_attacks(us, ksq) & pos_pieces(pos, them, PAWN) & ~square_bb(cap_sq));
    }
    bool last_rank = relative_rank(us, to) == 7;
    if (type == PAWN) {
        if ((kind == MOVE_PROMOTION) != last_rank) return false;
        int push = us == WHITE ? 8 : -8;
        bool ok = false;
        if (pawn_attacks(us, from) & pos->color_bb[them] & square_bb(to)) ok = true;
        else if (to == from + push && !(occ & square_bb(to))) ok = true;
        else if (to == from + 2 * push && relative_rank(us, from) == 1 && !(occ & square_bb(to)) && !(occ & square_bb(from + push))) ok = true;
        if (!ok) return false;
    } else {
        if (kind != MOVE_NORMAL) return false;
        if (!(piece_attacks(type, from, occ) & square_bb(to))) return false;
    }
    /* king safety after the move */
    if (type == KING) return !pos_square_attacked(pos, to, them, occ ^ square_bb(from));
    Bitboard checkers = st->checkers;
    if (checkers) {
        if (more_than_one(checkers)) return false;
        if (!(between_bb(ksq, lsb(checkers)) & square_bb(to))) return false;
    }
    /* pinned piece must stay on the line to its king */
    Bitboard after = (occ ^ square_bb(from)) | square_bb(to);
    Bitboard snipers = ((pos_pieces(pos, them, BISHOP) | pos_pieces(pos, them, QUEEN)) & bishop_attacks(ksq, after))
                     | ((pos_pieces(pos, them, ROOK) | pos_pieces(pos, them, QUEEN)) & rook_attacks(ksq, after));
    return (snipers & ~square_bb(to)) == 0;
}

/* Castling, en passant and promotion change a second square (the rook, the captured pawn,
 * the new piece): the enemy king is in check if our pieces as they stand after the move
 * attack it through the occupancy after the move. */
static bool special_move_gives_check(const Position *pos, Move m) {
    int us = pos->side, ksq = pos->king_square[!us];
    int from = move_from(m), to = move_to(m);
    Bitboard occ = (pos->occupied ^ square_bb(from)) | square_bb(to);
    Bitboard pawns = pos_pieces(pos, us, PAWN), knights = pos_pieces(pos, us, KNIGHT);
    Bitboard diagonal = pos_pieces(pos, us, BISHOP) | pos_pieces(pos, us, QUEEN);
    Bitboard straight = pos_pieces(pos, us, ROOK) | pos_pieces(pos, us, QUEEN);
    if (move_kind(m) == MOVE_CASTLING) {
        int rook_from, rook_to;
        castling_rook_squares(pos, us, to, &rook_from, &rook_to);
        occ = (pos->occupied ^ square_bb(from) ^ square_bb(rook_from)) | square_bb(to) | square_bb(rook_to);
        straight = (straight ^ square_bb(rook_from)) | square_bb(rook_to);
    } else if (move_kind(m) == MOVE_ENPASSANT) {
        occ ^= square_bb(us == WHITE ? to - 8 : to + 8);
        pawns = (pawns ^ square_bb(from)) | square_bb(to);
    } else { /* promotion: the pawn leaves, the new piece attacks from to */
        int promo = move_promo_type(m);
        pawns ^= square_bb(from);
        if (promo == KNIGHT) knights |= square_bb(to);
        if (promo == BISHOP || promo == QUEEN) diagonal |= square_bb(to);
        if (promo == ROOK || promo == QUEEN) straight |= square_bb(to);
    }
    return (pawn_attacks(!us, ksq) & pawns) || (knight_attacks(ksq) & knights)
        || (bishop_attacks(ksq, occ) & diagonal) || (rook_attacks(ksq, occ) & straight);
}

/* Whether a bishop, rook or queen (type) on sq attacks target through occ: both on one line
 * the piece moves along, nothing between. Table lookups only, no slider attack sets. */
static inline bool slider_reaches(int sq, int target, int type, Bitboard occ) {
    if (!line_bb(sq, target)) return false;
    if (line_is_diagonal(sq, target) ? type == ROOK : type == BISHOP) return false;
    return (between_bb(sq, target) & occ) == square_bb(target);
}

bool pos_gives_check(const Position *pos, Move m) {
    if (move_kind(m) != MOVE_NORMAL) return special_move_gives_check(pos, m);
    int us = pos->side, them = !us;
    int from = move_from(m), to = move_to(m), ksq = pos->king_square[them];
    int type = piece_type(pos->board[from]);
    Bitboard occ = (pos->occupied ^ square_bb(from)) | square_bb(to);
    /* direct check by the moved piece (a king never gives one) */
    if (type == PAWN) {
        if (pawn_attacks(us, to) & square_bb(ksq)) return true;
    } else if (type == KNIGHT) {
        if (knight_attacks(to) & square_bb(ksq)) return true;
    } else if (type != KING && slider_reaches(to, ksq, type, occ)) {
        return true;
    }
    /* Discovered check: a slider of ours behind the square we left. Only possible when that
     * square is on a line through the king and the piece leaves the line; most moves fail this
     * test, which spares them the slider lookups. No slider of ours can stand between the king
     * and `from`, as the king is not in check with us to move. */
    Bitboard line = line_bb(ksq, from);
    if (!line || (line & square_bb(to))) return false;
    if (line_is_diagonal(ksq, from))
        return (bishop_attacks(ksq, occ) & line & (pos_pieces(pos, us, BISHOP) | pos_pieces(pos, us, QUEEN))) != 0;
    return (rook_attacks(ksq, occ) & line & (pos_pieces(pos, us, ROOK) | pos_pieces(pos, us, QUEEN))) != 0;
}

/* The squares use the board as it stands: a piece never gives check through the square it
 * leaves, since that square could only lie between its new square and the king if it stood on
 * the king's line with nothing between, i.e. if the king were in check with us to move. */
void pos_check_info(const Position *pos, CheckInfo *info) {
    int us = pos->side, them = !us, ksq = pos->king_square[them];
    Bitboard diagonal = bishop_attacks(ksq, pos->occupied), straight = rook_attacks(ksq, pos->occupied);
    info->check_squares[PAWN] = pawn_attacks(them, ksq);
    info->check_squares[KNIGHT] = knight_attacks(ksq);
    info->check_squares[BISHOP] = diagonal;
    info->check_squares[ROOK] = straight;
    info->check_squares[QUEEN] = diagonal | straight;
    info->check_squares[KING] = 0;
    Bitboard queens = pos_pieces(pos, us, QUEEN);
    Bitboard snipers = (bishop_attacks(ksq, 0) & (pos_pieces(pos, us, BISHOP) | queens))
                     | (rook_attacks(ksq, 0) & (pos_pieces(pos, us, ROOK) | queens));
    info->discoverers = 0;
    while (snipers) {
        int sq = pop_lsb(&snipers);
        Bitboard blockers = between_bb(ksq, sq) & pos->occupied & ~square_bb(sq);
        if (blockers && !(blockers & (blockers - 1))) info->discoverers |= blockers & pos->color_bb[us];
    }
}

bool pos_is_draw_by_rule(const Position *pos, int search_ply) {
    const StateInfo *st = pos_state(pos);
    if (st->rule50 >= 100) return true; /* mate on the 100th ply is caught by the caller first */
    int end = st->rule50 < st->plies_from_null ? st->rule50 : st->plies_from_null;
    if (end > pos->state_index) end = pos->state_index;
    int seen = 0;
    for (int i = 4; i <= end; i += 2) {
        if (pos->states[pos->state_index - i].key == st->key) {
            if (i < search_ply) return true; /* repeats a position inside the search tree */
            if (++seen == 2) return true;    /* threefold with game history */
        }
    }
    return false;
}

bool pos_insufficient_material(const Position *pos) {
    if (pos_type_bb(pos, PAWN) | pos_type_bb(pos, ROOK) | pos_type_bb(pos, QUEEN)) return false;
    Bitboard knights = pos_type_bb(pos, KNIGHT), bishops = pos_type_bb(pos, BISHOP);
    if (popcount(knights | bishops) <= 1) return true;
    if (knights) return false;
    const Bitboard dark = 0xAA55AA55AA55AA55ULL;
    return (bishops & dark) == 0 || (bishops & ~dark) == 0;
}

bool pos_non_pawn_material(const Position *pos, int c) {
    return (pos->color_bb[c] & ~pos_pieces(pos, c, PAWN) & ~pos_pieces(pos, c, KING)) != 0;
}

void pos_flip(const Position *src, Position *dst) {
    char fen[128], flipped[128];
    pos_get_fen(src, fen, sizeof fen);
    /* mirror ranks, swap colours, swap castling case and side */
    char placement[80], side[4], castle[8], ep[4];
    int r50, full;
    if (sscanf(fen, "%79s %3s %7s %3s %d %d", placement, side, castle, ep, &r50, &full) != 6) return;
    char *ranks[8];
    int nr = 0;
    char *rest = NULL;
    for (char *t = strtok_r(placement, "/", &rest); t && nr < 8; t = strtok_r(NULL, "/", &rest)) ranks[nr++] = t;
    size_t n = 0;
    for (int i = 7; i >= 0; i--) {
        for (char *c = ranks[i]; *c; c++) flipped[n++] = isalpha((unsigned char)*c) ? (char)(isupper((unsigned char)*c) ? tolower(*c) : toupper(*c)) : *c;
        if (i) flipped[n++] = '/';
    }
    flipped[n] = 0;
    /* black's rights become white's and are written first, then white's become black's */
    char castle_sorted[8] = "-";
    size_t cn = 0;
    for (int pass = 0; pass < 2; pass++)
        for (char *c = castle; *c; c++)
            if (*c != '-' && (pass == 0) == (islower((unsigned char)*c) != 0))
                castle_sorted[cn++] = (char)(pass == 0 ? toupper(*c) : tolower(*c));
    if (cn) castle_sorted[cn] = 0;
    if (ep[0] != '-') ep[1] = ep[1] == '3' ? '6' : '3';
    char out[160];
    snprintf(out, sizeof out, "%s %c %s %s %d %d", flipped, side[0] == 'w' ? 'b' : 'w', castle_sorted, ep, r50, full);
    pos_set_fen(dst, out, NULL, 0);
}

void pos_trim_history(Position *pos) {
    const int keep_limit = 512;
    if (pos->state_index < keep_limit) return;
    int rule50 = pos_state(pos)->rule50;
    int keep = (rule50 < 110 ? rule50 : 110) + 1; /* the fifty-move rule ends the game first */
    if (keep > pos->state_index + 1) keep = pos->state_index + 1;
    memmove(&pos->states[0], &pos->states[pos->state_index + 1 - keep], (size_t)keep * sizeof(StateInfo));
    pos->state_index = keep - 1;
}
