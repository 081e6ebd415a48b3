/* Perft with bulk counting at the last ply (legal generation makes leaves free to count). */
#include "perft.h"

#include "movegen.h"
#include "notation.h"

uint64_t perft(Position *pos, int depth) {
    MoveList list;
    generate_legal(pos, &list);
    if (depth <= 1) return depth == 1 ? (uint64_t)list.count : 1;
    uint64_t nodes = 0;
    for (int i = 0; i < list.count; i++) {
        pos_make_move(pos, list.moves[i]);
        nodes += perft(pos, depth - 1);
        pos_unmake_move(pos);
    }
    return nodes;
}

uint64_t perft_divide(Position *pos, int depth, FILE *out) {
    MoveList list;
    generate_legal(pos, &list);
    uint64_t total = 0;
    char buf[8];
    for (int i = 0; depth >= 1 && i < list.count; i++) {
        pos_make_move(pos, list.moves[i]);
        uint64_t n = perft(pos, depth - 1);
        pos_unmake_move(pos);
        move_to_uci(pos, list.moves[i], buf);
        fprintf(out, "%s: %llu\n", buf, (unsigned long long)n);
        total += n;
    }
    if (depth < 1) total = 1;
    fprintf(out, "\nNodes searched: %llu\n", (unsigned long long)total);
    fflush(out);
    return total;
}
