/* Where input enters the engine: the interactive or GUI session and batch mode. */
#ifndef SQUALL_COMMAND_LOOP_H
#define SQUALL_COMMAND_LOOP_H

int command_loop_run(void);                       /* interactive / GUI session until quit or EOF */
int command_loop_batch(const char *command_list); /* ';'-separated commands; returns the exit code */

#endif
