/* The plain prompt a person types at before choosing a protocol: UCI-style position, go and
 * setoption, moves in either notation, undo, new, and the engine commands every prompt shares. */
#include "terminal.h"

#include <string.h>

#include "engine_io.h"
#include "notation.h"
#include "threads.h"
#include "uci.h"

#define BATCH_DEFAULT_MOVETIME_MS 5000 /* a bare go in a script or batch run */

/* Plays one or more moves (coordinates or SAN); all or nothing. */
static bool play_moves(char **words, int count) {
    static Position scratch;
    memcpy(&scratch, &session.game.pos, sizeof scratch);
    Move moves[64];
    if (count > 64) return false;
    for (int i = 0; i < count; i++) {
        moves[i] = move_from_text(&scratch, words[i]);
        if (moves[i] == MOVE_NONE) {
            io_error("illegal move '%s'", words[i]);
            return true;
        }
        pos_make_move(&scratch, moves[i]);
    }
    commands_stop_search();
    for (int i = 0; i < count; i++) game_push(&session.game, moves[i]);
    return true;
}

static void terminal_go(char **words, int count) {
    SearchLimits limits;
    int perft_depth = 0;
    bool has_limit = false;
    if (!uci_parse_go(words + 1, count - 1, &session.game.pos, &limits, &perft_depth, &has_limit)) return;
    if (perft_depth > 0) {
        commands_perft(perft_depth);
        return;
    }
    if (!has_limit) {
        limits.depth = session.depth_limit;
        limits.nodes = session.node_limit;
        limits.movetime = session.movetime_ms;
        if (!limits.depth && !limits.nodes && !limits.movetime) {
            /* nobody can type stop into a script: give it a fixed time instead of forever */
            if (session.script_depth > 0) limits.movetime = BATCH_DEFAULT_MOVETIME_MS;
            else limits.infinite = true;
        }
    }
    SearchOutput out = uci_search_output();
    commands_start_search(&session.game.pos, &limits, &out);
}

CommandResult terminal_command(char *line, char **words, int count) {
    CommandResult result = CMD_DONE;
    const char *cmd = words[0];
    if (!strcmp(cmd, "quit") || !strcmp(cmd, "exit")) {
        result = CMD_QUIT;
    } else if (!strcmp(cmd, "position")) {
        commands_stop_search();
        uci_position(words + 1, count - 1);
    } else if (!strcmp(cmd, "new") || !strcmp(cmd, "ucinewgame")) {
        commands_new_game();
    } else if (!strcmp(cmd, "go")) {
        terminal_go(words, count);
    } else if (!strcmp(cmd, "stop") || !strcmp(cmd, "?")) {
        search_stop();
    } else if (!strcmp(cmd, "isready")) {
        io_printf("readyok\n");
    } else if (!strcmp(cmd, "setoption")) {
        uci_setoption(words + 1, count - 1);
    } else if (!strcmp(cmd, "undo")) {
        commands_stop_search();
        if (!game_pop(&session.game)) io_error("undo: no move to take back");
    } else if (!strcmp(cmd, "usermove") || !strcmp(cmd, "move")) {
        if (count < 2) io_error("usage: %s MOVE ...", cmd);
        else play_moves(words + 1, count - 1);
    } else {
        result = commands_shared(line);
        if (result == CMD_UNKNOWN) {
            result = CMD_DONE;
            if (commands_looks_like_move(cmd)) play_moves(words, count);
            else io_error("unknown command '%s' (try help)", cmd);
        }
    }
    return result;
}
