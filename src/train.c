#include "train.h"
#include <stdio.h>
int train_main(int argc, char **argv) { (void)argc; (void)argv; fprintf(stderr, "train: not yet\n"); return 2; }
