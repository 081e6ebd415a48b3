#ifndef SQUALL_TRAIN_H
#define SQUALL_TRAIN_H
int train_main(int argc, char **argv);
#endif
