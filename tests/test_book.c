/* Polyglot books: the published keys of the format's test positions, and lookups in small
 * books written here (so the tests need no book package). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "book.h"
#include "notation.h"
#include "test.h"

/* The test positions published with the polyglot book format, reached by moves from the start. */
TEST(book, published_keys) {
    static const struct {
        const char *moves;
        uint64_t key;
    } cases[] = {
        {"", 0x463b96181691fc9cULL},
        {"e2e4", 0x823c9b50fd114196ULL},
        {"e2e4 d7d5", 0x0756b94461c50fb0ULL},
        {"e2e4 d7d5 e4e5", 0x662fafb965db29d4ULL},
        {"e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78ULL},
        {"e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1ULL},
        {"e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9ULL},
        {"a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637ULL},
        {"a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560ULL},
    };
    static Position pos;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pos_set_startpos(&pos);
        char copy[128];
        snprintf(copy, sizeof copy, "%s", cases[i].moves);
        for (char *save, *m = strtok_r(copy, " ", &save); m; m = strtok_r(NULL, " ", &save))
            pos_make_move(&pos, move_from_uci(&pos, m));
        CHECK_MSG(book_key(&pos) == cases[i].key, "after '%s': %016llx, want %016llx", cases[i].moves,
                  (unsigned long long)book_key(&pos), (unsigned long long)cases[i].key);
    }
}

typedef struct {
    uint64_t key;
    unsigned move, weight;
} TestEntry;

/* Polyglot move code from coordinates ("e1h1" for castling, as books write it). */
static unsigned polyglot_move(const char *text, int promo) {
    int from = (text[0] - 'a') + 8 * (text[1] - '1'), to = (text[2] - 'a') + 8 * (text[3] - '1');
    return (unsigned)(to | from << 6 | promo << 12);
}

static int compare_entries(const void *a, const void *b) {
    const TestEntry *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key;
}

/* Writes entries (sorted here, as books are) to path in the 16-byte big-endian format. */
static bool write_book(const char *path, TestEntry *entries, int count) {
    qsort(entries, (size_t)count, sizeof *entries, compare_entries);
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    for (int i = 0; i < count; i++) {
        unsigned char b[16] = {0};
        for (int k = 0; k < 8; k++) b[k] = (unsigned char)(entries[i].key >> (56 - 8 * k));
        b[8] = (unsigned char)(entries[i].move >> 8), b[9] = (unsigned char)entries[i].move;
        b[10] = (unsigned char)(entries[i].weight >> 8), b[11] = (unsigned char)entries[i].weight;
        fwrite(b, 1, sizeof b, f);
    }
    return fclose(f) == 0;
}

static uint64_t key_of(const char *fen) {
    static Position pos;
    return pos_set_fen(&pos, fen, NULL, 0) ? book_key(&pos) : 0;
}

TEST(book, lookups_in_a_small_book) {
    const char *castle_fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    const char *promo_fen = "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1";
    TestEntry entries[] = {
        {key_of(START_FEN), polyglot_move("e2e4", 0), 30},
        {key_of(START_FEN), polyglot_move("d2d4", 0), 10},
        {key_of(START_FEN), polyglot_move("a2a5", 0), 50}, /* not a legal move: skipped */
        {key_of(castle_fen), polyglot_move("e1h1", 0), 7},
        {key_of(promo_fen), polyglot_move("e7e8", 4), 3},
        {key_of(promo_fen), polyglot_move("e7e8", 1), 0},  /* listed, never played */
        {0xffffffffffffffffULL, polyglot_move("a2a3", 0), 1},
    };
    char path[] = "/tmp/squall-book-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    close(fd);
    CHECK(write_book(path, entries, (int)(sizeof entries / sizeof entries[0])));
    char err[256];
    CHECK_MSG(book_open(path, err, sizeof err), "%s", err);

    static Position pos;
    BookMove moves[BOOK_MAX_MOVES];
    char mv[8];
    pos_set_startpos(&pos);
    CHECK(book_moves(&pos, moves, BOOK_MAX_MOVES) == 2);
    CHECK(book_choose(&pos, false, 0) == move_from_uci(&pos, "e2e4"));
    int d4 = 0;
    for (uint64_t r = 0; r < 40; r++) d4 += book_choose(&pos, true, r) == move_from_uci(&pos, "d2d4");
    CHECK_MSG(d4 == 10, "weighted draws 0..39 gave d2d4 %d times, want 10 of 40", d4);

    CHECK(pos_set_fen(&pos, castle_fen, NULL, 0));
    CHECK(book_moves(&pos, moves, BOOK_MAX_MOVES) == 1);
    move_to_uci(&pos, moves[0].move, mv);
    CHECK_MSG(!strcmp(mv, "e1g1") && moves[0].weight == 7, "castling read as %s", mv);

    CHECK(pos_set_fen(&pos, promo_fen, NULL, 0));
    CHECK(book_moves(&pos, moves, BOOK_MAX_MOVES) == 2);
    move_to_uci(&pos, book_choose(&pos, true, 12345), mv);
    CHECK_MSG(!strcmp(mv, "e7e8q"), "promotion read as %s", mv);

    CHECK(pos_set_fen(&pos, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", NULL, 0));
    CHECK(book_moves(&pos, moves, BOOK_MAX_MOVES) == 0 && book_choose(&pos, true, 1) == MOVE_NONE);

    /* refused files keep the open book */
    CHECK(!book_open("/nonexistent/book.bin", err, sizeof err));
    FILE *f = fopen(path, "ab");
    CHECK(f && fputc(0, f) == 0 && fclose(f) == 0); /* 16 n + 1 bytes */
    CHECK(!book_open(path, err, sizeof err) && strstr(err, "not a polyglot book"));
    pos_set_startpos(&pos);
    CHECK(book_is_open() && book_moves(&pos, moves, BOOK_MAX_MOVES) == 2);
    book_close();
    CHECK(!book_is_open() && book_moves(&pos, moves, BOOK_MAX_MOVES) == 0);
    unlink(path);
}
