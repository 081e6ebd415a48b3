/* The plain prompt a person types at before choosing a protocol: UCI-style position, go and
 * setoption, moves in either notation, undo, new, and the engine commands every prompt shares. */
#include "terminal.h"

#include <string.h>

#include "engine_io.h"
#include "notation.h"
#include "threads.h"
#include "uci.h"

/* Plays one or more moves (coordinates or SAN); all or nothing. */
static bool play_moves(char **words, int count) {
    static Position scratch;
    if (session.unplayable[0]) { /* after a refused position there is no game to play them in */
        io_error("no position to play moves in: %s", session.unplayable);
        return true;
    }
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

CommandResult terminal_command(char **words, int count) {
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
        uci_go(words + 1, count - 1);
    } else if (!strcmp(cmd, "stop") || !strcmp(cmd, "?")) {
        search_stop();
    } else if (!strcmp(cmd, "isready")) {
        io_printf("readyok\n");
    } else if (!strcmp(cmd, "setoption")) {
        uci_setoption(words + 1, count - 1);
    } else if (!strcmp(cmd, "undo")) {
        commands_stop_search();
        if (session.unplayable[0]) io_error("undo: no position: %s", session.unplayable);
        else if (!game_pop(&session.game)) io_error("undo: no move to take back");
    } else if (!strcmp(cmd, "usermove") || !strcmp(cmd, "move")) {
        if (count < 2) io_error("usage: %s MOVE ...", cmd);
        else play_moves(words + 1, count - 1);
    } else {
        result = commands_shared(words, count);
        if (result == CMD_UNKNOWN) {
            result = CMD_DONE;
            if (commands_looks_like_move(cmd)) play_moves(words, count);
            else io_error("unknown command '%s' (try help)", cmd);
        }
    }
    return result;
}
