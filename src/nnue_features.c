/* Listing and printing of the active HalfKAv2_hm features of a position. */
#include "nnue_features.h"

#include "board.h"

int nnue_active_features(const Position *pos, int perspective, int *out) {
    int ksq = pos->king_square[perspective];
    int n = 0;
    Bitboard occ = pos->occupied;
    while (occ && n < NNUE_MAX_ACTIVE) {
        int sq = pop_lsb(&occ);
        out[n++] = nnue_feature_index(perspective, sq, pos->board[sq], ksq);
    }
    /* insertion sort: at most 32 entries, and callers want a canonical order */
    for (int i = 1; i < n; i++) {
        int v = out[i], j = i - 1;
        while (j >= 0 && out[j] > v) out[j + 1] = out[j], j--;
        out[j + 1] = v;
    }
    return n;
}

void nnue_print_features(const Position *pos, FILE *out) {
    static const char *const names[COLOR_NB] = {"white", "black"};
    for (int p = WHITE; p <= BLACK; p++) {
        int idx[NNUE_MAX_ACTIVE];
        int n = nnue_active_features(pos, p, idx);
        fprintf(out, "NNUE_FEATURES %s", names[p]);
        for (int i = 0; i < n; i++) fprintf(out, " %d", idx[i]);
        fputc('\n', out);
    }
}
