/* `squall movefit`: fits the move guesser's weights. Positions sampled from datagen records are
 * searched again at a fixed node budget, the move the search chooses being the label; a
 * softmax regression (move_fit_model.h) is fitted on the training games and compared on the
 * held-out games with the root's order before any search. Prints the weights as C source for
 * src/move_guesser.c (and writes them to --out). */
#ifndef SQUALL_MOVE_FIT_H
#define SQUALL_MOVE_FIT_H

#include <stdio.h>

int move_fit_main(int argc, char **argv);
void move_fit_usage(FILE *out); /* its flags, for `squall movefit --help` */

#endif
