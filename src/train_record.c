/* Packing and unpacking of the 32-byte training records (format in train_record.h). */
#include "train_record.h"

#include <stdio.h>
#include <string.h>

enum { OFF_OCC = 0, OFF_PIECES = 8, OFF_SCORE = 24, OFF_PLY = 26, OFF_GAME = 28, OFF_FLAGS = 31 };
#define FLAG_BLACK 1u
#define FLAG_RESULT_SHIFT 1
#define FLAG_RESULT_MASK (3u << FLAG_RESULT_SHIFT)

static inline uint64_t rd64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

void record_encode(Record *rec, const Position *pos, int score, int ply, uint32_t game, int result) {
    uint8_t *b = rec->bytes;
    memset(b, 0, RECORD_SIZE);
    uint64_t occ = pos->occupied;
    for (int i = 0; i < 8; i++) b[OFF_OCC + i] = (uint8_t)(occ >> (8 * i));
    int n = 0;
    for (Bitboard bb = occ; bb && n < 32; n++) {
        int sq = pop_lsb(&bb);
        b[OFF_PIECES + n / 2] |= (uint8_t)(pos->board[sq] << (4 * (n & 1)));
    }
    if (score > INT16_MAX) score = INT16_MAX;
    if (score < INT16_MIN) score = INT16_MIN;
    uint16_t s = (uint16_t)(int16_t)score;
    b[OFF_SCORE] = (uint8_t)s, b[OFF_SCORE + 1] = (uint8_t)(s >> 8);
    uint16_t p = (uint16_t)(ply < 0 ? 0 : ply > 65535 ? 65535 : ply);
    b[OFF_PLY] = (uint8_t)p, b[OFF_PLY + 1] = (uint8_t)(p >> 8);
    game &= RECORD_GAME_MASK;
    b[OFF_GAME] = (uint8_t)game, b[OFF_GAME + 1] = (uint8_t)(game >> 8), b[OFF_GAME + 2] = (uint8_t)(game >> 16);
    b[OFF_FLAGS] = (uint8_t)((pos->side == BLACK ? FLAG_BLACK : 0) | ((unsigned)result << FLAG_RESULT_SHIFT));
}

void record_set_result(Record *rec, int result) {
    uint8_t *f = &rec->bytes[OFF_FLAGS];
    *f = (uint8_t)((*f & ~FLAG_RESULT_MASK) | ((unsigned)result << FLAG_RESULT_SHIFT));
}

uint32_t record_game(const Record *rec) {
    const uint8_t *b = rec->bytes + OFF_GAME;
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16;
}

unsigned record_ply(const Record *rec) {
    const uint8_t *b = rec->bytes + OFF_PLY;
    return (unsigned)b[0] | (unsigned)b[1] << 8;
}

bool record_decode(const Record *rec, RecordPosition *out) {
    const uint8_t *b = rec->bytes;
    uint64_t occ = rd64(b + OFF_OCC);
    int n = popcount(occ);
    uint8_t flags = b[OFF_FLAGS];
    if (n > 32 || (flags & ~(FLAG_BLACK | FLAG_RESULT_MASK)) || ((flags & FLAG_RESULT_MASK) >> FLAG_RESULT_SHIFT) > 2)
        return false;
    int kings[COLOR_NB] = {0, 0};
    out->count = (uint8_t)n;
    for (int i = 0; i < n; i++) {
        int sq = pop_lsb(&occ);
        int pc = (b[OFF_PIECES + i / 2] >> (4 * (i & 1))) & 15;
        if (pc >= PIECE_NB) return false;
        out->square[i] = (uint8_t)sq;
        out->piece[i] = (uint8_t)pc;
        if (piece_type(pc) == KING) {
            kings[piece_color(pc)]++;
            out->king_square[piece_color(pc)] = (uint8_t)sq;
        }
    }
    if (kings[WHITE] != 1 || kings[BLACK] != 1) return false;
    out->side = (flags & FLAG_BLACK) ? BLACK : WHITE;
    out->result = (uint8_t)((flags & FLAG_RESULT_MASK) >> FLAG_RESULT_SHIFT);
    out->score = (int16_t)(uint16_t)(b[OFF_SCORE] | b[OFF_SCORE + 1] << 8);
    out->ply = (uint16_t)(b[OFF_PLY] | b[OFF_PLY + 1] << 8);
    out->game = record_game(rec);
    return true;
}

float record_stm_result(const RecordPosition *rp) {
    float white = rp->result * 0.5f;
    return rp->side == WHITE ? white : 1.0f - white;
}

void record_fen(const RecordPosition *rp, char *out, size_t out_size) {
    static const char letters[] = "PNBRQKpnbrqk";
    char board[64];
    memset(board, 0, sizeof board);
    for (int i = 0; i < rp->count; i++) board[rp->square[i]] = letters[rp->piece[i]];
    char text[100];
    int len = 0;
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            char c = board[rank * 8 + file];
            if (!c) {
                empty++;
                continue;
            }
            if (empty) text[len++] = (char)('0' + empty), empty = 0;
            text[len++] = c;
        }
        if (empty) text[len++] = (char)('0' + empty);
        if (rank) text[len++] = '/';
    }
    text[len] = 0;
    snprintf(out, out_size, "%s %c - - 0 %d", text, rp->side == WHITE ? 'w' : 'b', rp->ply / 2 + 1);
}
