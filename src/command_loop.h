/* Where input enters the engine: the interactive or GUI session and batch mode. */
#ifndef SQUALL_COMMAND_LOOP_H
#define SQUALL_COMMAND_LOOP_H

int command_loop_run(void);                       /* interactive / GUI session until quit or EOF */
/* Batch mode: the ';'-separated commands of command_list, or with NULL the lines of standard
 * input (read as a session's are); each search is waited for. Returns the exit code. */
int command_loop_batch(const char *command_list);

#endif
