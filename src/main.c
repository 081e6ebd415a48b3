/* Entry point: subcommands, batch flags, or the interactive/protocol loop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "perft.h"

int main(int argc, char **argv) {
    board_init();
    if (argc >= 3 && strcmp(argv[1], "perft") == 0) {
        Position pos;
        pos.accumulator = NULL;
        pos_set_startpos(&pos);
        char err[128];
        if (argc >= 4) {
            char fen[256] = "";
            for (int i = 3; i < argc; i++) {
                strncat(fen, argv[i], sizeof fen - strlen(fen) - 2);
                strcat(fen, " ");
            }
            if (!pos_set_fen(&pos, fen, err, sizeof err)) {
                printf("error: %s\n", err);
                return 1;
            }
        }
        perft_divide(&pos, atoi(argv[2]), stdout);
        return 0;
    }
    return 0;
}
