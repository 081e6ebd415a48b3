/* The command loop above the protocol front ends: picks the protocol from the first line, feeds
 * it lines from stdin, script files or a --command list, and hands finished searches back to
 * the xboard front end, which plays its moves on this thread. */
#include "command_loop.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "engine_io.h"
#include "regular_file.h"
#include "terminal.h"
#include "threads.h"
#include "uci.h"
#include "version.h"
#include "xboard.h"

#define MAX_SCRIPT_DEPTH 8

static CommandResult run_line(char *line);

/* In scripts and batch mode: waits for a search that will end by itself, then hands its
 * result to the protocol that started it. */
static void settle(void) {
    for (;;) {
        if (!session.open_ended) search_wait(); /* also joins a search that has just ended */
        IoEvent ev;
        if (!io_poll_search_done(&ev)) break;
        if (io_protocol == PROTO_XBOARD) xboard_on_search_done(&ev);
    }
}

static CommandResult run_script(char **words, int count) {
    if (count < 2) {
        io_error("usage: script FILE");
        return CMD_DONE;
    }
    char path[1024];
    join_words(words, 1, count, path, sizeof path);
    if (session.script_depth >= MAX_SCRIPT_DEPTH) {
        io_error("script: nested more than %d deep", MAX_SCRIPT_DEPTH);
        return CMD_DONE;
    }
    char why[256];
    FILE *f = regular_file_open(path, NULL, why, sizeof why);
    if (!f) {
        io_error("script: cannot open '%s': %s", path, why);
        return CMD_DONE;
    }
    commands_stop_search(); /* its lines wait for their own searches, not for one started before it */
    session.script_depth++;
    CommandResult result = CMD_DONE;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, f)) >= 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = '\0';
        char *p = line;
        while (isspace((unsigned char)*p)) p++;
        if (!*p || *p == '#') continue; /* blank lines and comments */
        io_log_input(p);
        io_set_command(p);
        if (run_line(p) == CMD_QUIT) {
            result = CMD_QUIT;
            break;
        }
        settle();
    }
    free(line);
    fclose(f);
    session.script_depth--;
    return result;
}

/* Runs one input line: `script` here, since a script's lines come back through this function;
 * anything else in the current protocol (the first uci/xboard/protover selects it), which gets
 * the line split into words and, for the commands that want it whole, the line itself. */
static CommandResult run_line(char *line) {
    char *copy = strdup(line);
    int count = 0;
    char **words = copy ? split_all_words(copy, &count) : NULL; /* every word, however many */
    if (!words) {
        io_error("out of memory for a line of %zu bytes", strlen(line));
        free(copy);
        return CMD_DONE;
    }
    const char *cmd = count ? words[0] : "";
    if (io_protocol == PROTO_TERMINAL) {
        if (!strcmp(cmd, "uci")) io_protocol = PROTO_UCI;
        else if (!strcmp(cmd, "xboard") || !strcmp(cmd, "protover")) io_protocol = PROTO_XBOARD;
    }
    CommandResult result = CMD_DONE; /* a blank line does nothing */
    if (count > 0) {
        if (!strcmp(cmd, "script")) result = run_script(words, count);
        else if (io_protocol == PROTO_UCI) result = uci_command(words, count);
        else if (io_protocol == PROTO_XBOARD) result = xboard_command(line, words, count);
        else result = terminal_command(words, count);
    }
    free(words);
    free(copy);
    return result;
}

int command_loop_run(void) {
    char *line = NULL;
    size_t cap = 0;
    if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) /* a person, not a GUI: say hello */
        io_printf("%s %s chess engine. Type 'help' for commands, 'uci' or 'xboard' to select a protocol.\n",
                  ENGINE_NAME, squall_version);
    for (;;) {
        IoEvent ev;
        io_next_event(&ev);
        if (ev.kind == IO_EVENT_SEARCH_DONE) {
            if (io_protocol == PROTO_XBOARD) xboard_on_search_done(&ev);
            continue;
        }
        if (ev.kind == IO_EVENT_EOF) {
            /* Piped input ("go depth 12" then EOF) still gets its answer; an open-ended search is
             * stopped. The xboard GUI that would read a move is gone: its search ends now. */
            if (io_protocol == PROTO_XBOARD) xboard_cancel();
            if (session.open_ended) search_stop();
            settle();
            break;
        }
        size_t len = strlen(ev.line);
        if (len + 1 > cap) {
            char *grown = realloc(line, len + 1);
            if (!grown) continue;
            line = grown, cap = len + 1;
        }
        memcpy(line, ev.line, len + 1);
        io_set_command(line);
        if (run_line(line) == CMD_QUIT) break;
    }
    free(line);
    if (io_protocol == PROTO_XBOARD) xboard_cancel();
    commands_stop_search();
    return 0;
}

/* The ';'-separated commands of one batch line; false after quit. Stdin lines were logged
 * when read, a --command list is logged command by command. */
static bool run_batch_commands(char *list, bool log) {
    for (char *save, *cmd = strtok_r(list, ";", &save); cmd; cmd = strtok_r(NULL, ";", &save)) {
        while (isspace((unsigned char)*cmd)) cmd++;
        size_t n = strlen(cmd);
        while (n > 0 && isspace((unsigned char)cmd[n - 1])) cmd[--n] = '\0';
        if (!*cmd) continue;
        if (log) io_log_input(cmd);
        io_set_command(cmd);
        CommandResult r = run_line(cmd);
        settle();
        if (r == CMD_QUIT) return false;
    }
    return true;
}

/* Batch commands from standard input, read by the same rules as a session's lines. */
static void run_batch_stdin(void) {
    char *line = NULL;
    for (bool more = true; more;) {
        IoEvent ev;
        io_next_event(&ev);
        if (ev.kind == IO_EVENT_EOF) break;
        if (ev.kind == IO_EVENT_SEARCH_DONE) {
            if (io_protocol == PROTO_XBOARD) xboard_on_search_done(&ev);
            continue;
        }
        free(line);
        line = strdup(ev.line);
        more = line && run_batch_commands(line, false);
    }
    free(line);
}

int command_loop_batch(const char *command_list) {
    char *copy = command_list ? strdup(command_list) : NULL;
    if (command_list && !copy) return 1;
    session.script_depth++;
    if (copy) run_batch_commands(copy, true);
    else run_batch_stdin();
    free(copy);
    session.script_depth--;
    if (io_protocol == PROTO_XBOARD) xboard_cancel();
    commands_stop_search();
    return io_error_count() ? 1 : 0;
}
