/* Attack tables: leapers by direct enumeration, sliders by PEXT or magic hashing. */
#include "bitboard.h"

#include <stdlib.h>

Bitboard pawn_attacks_table[COLOR_NB][SQUARE_NB];
Bitboard knight_attacks_table[SQUARE_NB];
Bitboard king_attacks_table[SQUARE_NB];
Bitboard between_table[SQUARE_NB][SQUARE_NB];
Bitboard line_table[SQUARE_NB][SQUARE_NB];
SliderTable bishop_table[SQUARE_NB];
SliderTable rook_table[SQUARE_NB];

/* Sizes: the sum over squares of 2^bits(mask). */
static Bitboard rook_storage[102400];
static Bitboard bishop_storage[5248];

static const int rook_dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int bishop_dirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

static bool on_board(int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8; }

static Bitboard slow_slider_attacks(int sq, Bitboard occ, const int dirs[4][2]) {
    Bitboard att = 0;
    for (int d = 0; d < 4; d++) {
        int f = square_file(sq) + dirs[d][0], r = square_rank(sq) + dirs[d][1];
        while (on_board(f, r)) {
            att |= square_bb(make_square(f, r));
            if (occ & square_bb(make_square(f, r))) break;
            f += dirs[d][0];
            r += dirs[d][1];
        }
    }
    return att;
}

static Bitboard leaper_attacks(int sq, const int (*steps)[2], int n) {
    Bitboard att = 0;
    for (int i = 0; i < n; i++) {
        int f = square_file(sq) + steps[i][0], r = square_rank(sq) + steps[i][1];
        if (on_board(f, r)) att |= square_bb(make_square(f, r));
    }
    return att;
}

#ifndef SQUALL_USE_PEXT
static uint64_t magic_rng_state = 0x9E3779B97F4A7C15ULL;
static uint64_t magic_rand(void) {
    /* xorshift64*: deterministic so startup is reproducible */
    magic_rng_state ^= magic_rng_state >> 12;
    magic_rng_state ^= magic_rng_state << 25;
    magic_rng_state ^= magic_rng_state >> 27;
    return magic_rng_state * 2685821657736338717ULL;
}
#endif

static void init_slider(SliderTable *table, Bitboard *storage, const int dirs[4][2]) {
    Bitboard occupancies[4096], references[4096];
    Bitboard *next = storage;
    for (int sq = 0; sq < 64; sq++) {
        SliderTable *t = &table[sq];
        /* Board edges never matter to the attack set unless the slider stands on them. */
        Bitboard edges = ((RANK_1_BB | RANK_8_BB) & ~rank_bb(sq)) | ((FILE_A_BB | FILE_H_BB) & ~file_bb(sq));
        t->mask = slow_slider_attacks(sq, 0, dirs) & ~edges;
        t->attacks = next;
        int size = 0;
        Bitboard subset = 0;
        do { /* Carry-Rippler enumeration of all subsets of the mask */
            occupancies[size] = subset;
            references[size] = slow_slider_attacks(sq, subset, dirs);
            size++;
            subset = (subset - t->mask) & t->mask;
        } while (subset);
        next += size;
#ifdef SQUALL_USE_PEXT
        for (int i = 0; i < size; i++) t->attacks[slider_index(t, occupancies[i])] = references[i];
#else
        int bits = popcount(t->mask);
        t->shift = 64 - bits;
        for (;;) {
            t->magic = magic_rand() & magic_rand() & magic_rand();
            if (popcount((t->mask * t->magic) >> 56) < 6) continue;
            for (int i = 0; i < size; i++) t->attacks[i] = 0;
            bool ok = true;
            for (int i = 0; i < size && ok; i++) {
                unsigned idx = slider_index(t, occupancies[i]);
                if (t->attacks[idx] && t->attacks[idx] != references[i]) ok = false;
                else t->attacks[idx] = references[i];
            }
            if (ok) break;
        }
#endif
    }
}

void bitboard_init(void) {
    static const int knight_steps[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int king_steps[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    static const int wpawn_steps[2][2] = {{1, 1}, {-1, 1}};
    static const int bpawn_steps[2][2] = {{1, -1}, {-1, -1}};
    static bool done = false;
    if (done) return;
    done = true;
    for (int sq = 0; sq < 64; sq++) {
        knight_attacks_table[sq] = leaper_attacks(sq, knight_steps, 8);
        king_attacks_table[sq] = leaper_attacks(sq, king_steps, 8);
        pawn_attacks_table[WHITE][sq] = leaper_attacks(sq, wpawn_steps, 2);
        pawn_attacks_table[BLACK][sq] = leaper_attacks(sq, bpawn_steps, 2);
    }
    init_slider(rook_table, rook_storage, rook_dirs);
    init_slider(bishop_table, bishop_storage, bishop_dirs);
    for (int a = 0; a < 64; a++) {
        for (int b = 0; b < 64; b++) {
            between_table[a][b] = square_bb(b);
            line_table[a][b] = 0;
            if (a == b) continue;
            if (slow_slider_attacks(a, 0, rook_dirs) & square_bb(b)) {
                line_table[a][b] = (slow_slider_attacks(a, 0, rook_dirs) & slow_slider_attacks(b, 0, rook_dirs)) | square_bb(a) | square_bb(b);
                between_table[a][b] |= rook_attacks(a, square_bb(b)) & rook_attacks(b, square_bb(a));
            } else if (slow_slider_attacks(a, 0, bishop_dirs) & square_bb(b)) {
                line_table[a][b] = (slow_slider_attacks(a, 0, bishop_dirs) & slow_slider_attacks(b, 0, bishop_dirs)) | square_bb(a) | square_bb(b);
                between_table[a][b] |= bishop_attacks(a, square_bb(b)) & bishop_attacks(b, square_bb(a));
            }
        }
    }
}
