/* Polyglot book lookup. A book is a file of 16-byte entries sorted by key, each holding
 * (big-endian) the key, the move, its weight and a learning field that is not used here. */
#include "book.h"

#include <stdio.h>
#include <string.h>

#include "movegen.h"
#include "regular_file.h"

#define ENTRY_SIZE 16

static FILE *book_file;
static long book_entries;

/* Polyglot numbers pieces pawn, knight, ..., king, black before white. */
static int polyglot_piece(int piece) { return 2 * piece_type(piece) + (piece_color(piece) == WHITE); }

uint64_t book_key(const Position *pos) {
    uint64_t key = 0;
    for (int sq = 0; sq < 64; sq++)
        if (pos->board[sq] != NO_PIECE) key ^= polyglot_random64[64 * polyglot_piece(pos->board[sq]) + sq];
    static const int rights[4] = {WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO};
    for (int i = 0; i < 4; i++)
        if (pos_state(pos)->castling & rights[i]) key ^= polyglot_random64[768 + i];
    /* the engine keeps an en-passant square only when a pawn stands ready to take, which is
     * also when polyglot counts it */
    if (pos_state(pos)->ep_square != SQ_NONE) key ^= polyglot_random64[772 + square_file(pos_state(pos)->ep_square)];
    if (pos->side == WHITE) key ^= polyglot_random64[780];
    return key;
}

bool book_open(const char *path, char *err, size_t err_size) {
    char why[256];
    long long size;
    FILE *f = regular_file_open(path, &size, why, sizeof why); /* a FIFO would block the engine */
    if (!f) {
        snprintf(err, err_size, "cannot open book '%s': %s", path, why);
        return false;
    }
    if (size <= 0 || size % ENTRY_SIZE) {
        snprintf(err, err_size, "'%s' is not a polyglot book (%lld bytes, not a whole number of %d-byte entries)", path,
                 size, ENTRY_SIZE);
        fclose(f);
        return false;
    }
    book_close();
    book_file = f;
    book_entries = size / ENTRY_SIZE;
    return true;
}

void book_close(void) {
    if (book_file) fclose(book_file);
    book_file = NULL;
    book_entries = 0;
}

bool book_is_open(void) { return book_file != NULL; }

typedef struct {
    uint64_t key;
    unsigned move, weight;
} Entry;

static bool read_entry(long index, Entry *e) {
    unsigned char b[ENTRY_SIZE];
    if (fseek(book_file, index * ENTRY_SIZE, SEEK_SET) || fread(b, 1, ENTRY_SIZE, book_file) != ENTRY_SIZE) return false;
    e->key = 0;
    for (int i = 0; i < 8; i++) e->key = e->key << 8 | b[i];
    e->move = (unsigned)b[8] << 8 | b[9];
    e->weight = (unsigned)b[10] << 8 | b[11];
    return true;
}

/* The legal move an entry stands for. Polyglot writes castling as the king taking its own
 * rook, so a castling move also matches the square of that rook. */
static Move decode_move(const Position *pos, unsigned code) {
    int to = code & 63, from = (code >> 6) & 63, promo = (code >> 12) & 7;
    static const int promo_types[5] = {0, KNIGHT, BISHOP, ROOK, QUEEN};
    MoveList list;
    generate_legal(pos, &list);
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        if (move_from(m) != from) continue;
        if (move_kind(m) == MOVE_CASTLING) {
            int rook = pos->castling.rook_square[castling_index_of_move(pos->side, move_to(m))];
            if (move_to(m) == to || rook == to) return m;
        } else if (move_to(m) == to) {
            bool promotes = move_kind(m) == MOVE_PROMOTION;
            if (promo > 4 || promotes != (promo != 0)) continue;
            if (!promotes || move_promo_type(m) == promo_types[promo]) return m;
        }
    }
    return MOVE_NONE;
}

int book_moves(const Position *pos, BookMove *moves, int max) {
    if (!book_file) return 0;
    uint64_t key = book_key(pos);
    long lo = 0, hi = book_entries; /* first entry with a key >= key */
    Entry e;
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;
        if (!read_entry(mid, &e)) return 0;
        if (e.key < key) lo = mid + 1;
        else hi = mid;
    }
    int count = 0;
    for (long i = lo; i < book_entries && count < max && read_entry(i, &e) && e.key == key; i++) {
        Move m = decode_move(pos, e.move);
        if (m != MOVE_NONE) moves[count++] = (BookMove){m, (int)e.weight};
    }
    return count;
}

Move book_choose(const Position *pos, bool weighted, uint64_t random) {
    BookMove moves[BOOK_MAX_MOVES];
    int count = book_moves(pos, moves, BOOK_MAX_MOVES);
    uint64_t total = 0;
    Move heaviest = MOVE_NONE;
    int heaviest_weight = 0;
    for (int i = 0; i < count; i++) {
        total += (uint64_t)moves[i].weight;
        if (moves[i].weight > heaviest_weight) heaviest = moves[i].move, heaviest_weight = moves[i].weight;
    }
    if (!weighted || total == 0) return heaviest;
    uint64_t draw = random % total;
    for (int i = 0; i < count; i++) {
        if (draw < (uint64_t)moves[i].weight) return moves[i].move;
        draw -= (uint64_t)moves[i].weight;
    }
    return heaviest;
}
