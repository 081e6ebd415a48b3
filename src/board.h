/* Position representation: bitboards + mailbox, FEN, make/unmake, Zobrist keys. */
#ifndef SQUALL_BOARD_H
#define SQUALL_BOARD_H

#include <stddef.h>

#include "bitboard.h"
#include "castling.h"

/* Room for a long game plus a full-depth search on top of it. */
#define MAX_STATES (1024 + MAX_PLY + 16)

/* One piece change made by a move, recorded for incremental evaluators (the NNUE accumulator
 * replays them; the board itself never reads them back).
 * from == SQ_NONE: piece added at to; to == SQ_NONE: piece removed from from. */
typedef struct {
    uint8_t piece, from, to;
} DirtyPiece;

typedef struct {
    uint8_t count;
    DirtyPiece list[3];
} DirtyPieces;

/* Everything make_move must remember so unmake_move can restore it. */
typedef struct {
    uint64_t key;
    Bitboard checkers;
    Move move;           /* move that led to this state (MOVE_NONE at the root) */
    uint8_t captured;    /* piece captured by that move, or NO_PIECE */
    uint8_t castling;
    uint8_t ep_square;   /* SQ_NONE unless an en-passant capture is possible */
    uint16_t rule50;
    uint16_t plies_from_null;
    DirtyPieces dirty;   /* piece changes of that move (none for a null move or the root) */
} StateInfo;

typedef struct Position {
    Bitboard piece_bb[PIECE_NB];
    Bitboard color_bb[COLOR_NB];
    Bitboard occupied;
    uint8_t board[SQUARE_NB];
    uint8_t side;
    uint8_t king_square[COLOR_NB];
    CastlingSetup castling;
    bool chess960;     /* castling moves are written as the king taking its rook (UCI_Chess960) */
    int game_ply;      /* plies since the game start, for the full-move counter */
    int state_index;   /* states[state_index] is the current state */
    StateInfo states[MAX_STATES];
} Position;

extern uint64_t zobrist_piece[PIECE_NB][SQUARE_NB];
extern uint64_t zobrist_castling[16];
extern uint64_t zobrist_ep_file[8];
extern uint64_t zobrist_side;

#define START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

void board_init(void); /* once at startup: attack tables and Zobrist keys */

static inline const StateInfo *pos_state(const Position *pos) { return &pos->states[pos->state_index]; }
static inline Bitboard pos_pieces(const Position *pos, int color, int type) { return pos->piece_bb[make_piece(color, type)]; }
static inline Bitboard pos_type_bb(const Position *pos, int type) {
    return pos->piece_bb[make_piece(WHITE, type)] | pos->piece_bb[make_piece(BLACK, type)];
}
static inline Bitboard pos_checkers(const Position *pos) { return pos_state(pos)->checkers; }
static inline bool pos_in_check(const Position *pos) { return pos_state(pos)->checkers != 0; }
static inline uint64_t pos_key(const Position *pos) { return pos_state(pos)->key; }
static inline int pos_piece_on(const Position *pos, int sq) { return pos->board[sq]; }
/* The key after move m, except for castling-right changes and en-passant squares the move
 * creates: good enough to prefetch the transposition-table entry before making the move. */
static inline uint64_t pos_key_after_approx(const Position *pos, Move m) {
    int from = move_from(m), to = move_to(m), pc = pos->board[from], victim = pos->board[to];
    uint64_t key = pos_key(pos) ^ zobrist_side ^ zobrist_piece[pc][from] ^ zobrist_piece[pc][to];
    if (victim != NO_PIECE) key ^= zobrist_piece[victim][to];
    if (pos_state(pos)->ep_square != SQ_NONE) key ^= zobrist_ep_file[square_file(pos_state(pos)->ep_square)];
    return key;
}
static inline int pos_rule50(const Position *pos) { return pos_state(pos)->rule50; }
/* The piece changes of the move that led here, for incremental evaluators to replay. */
static inline const DirtyPieces *pos_dirty_pieces(const Position *pos) { return &pos_state(pos)->dirty; }

/* Sets the position from FEN. On error returns false, leaves *pos untouched and,
 * if err is given, writes a one-line reason. */
bool pos_set_fen(Position *pos, const char *fen, char *err, size_t err_size);
void pos_get_fen(const Position *pos, char *out, size_t out_size);
void pos_set_startpos(Position *pos);
void pos_print(const Position *pos, char *out, size_t out_size);

void pos_make_move(Position *pos, Move m);
void pos_unmake_move(Position *pos);
void pos_make_null(Position *pos);
void pos_unmake_null(Position *pos);

Bitboard pos_attackers_to(const Position *pos, int sq, Bitboard occupied);
bool pos_square_attacked(const Position *pos, int sq, int by_color, Bitboard occupied);
/* Every square a piece of color attacks. */
Bitboard pos_attacks_by(const Position *pos, int color);
uint64_t pos_compute_key(const Position *pos);
bool pos_is_pseudo_legal(const Position *pos, Move m); /* full legality check of a move from any source */
bool pos_gives_check(const Position *pos, Move m);
/* What a move needs in order to give check, worked out once for a position that is searched
 * move by move: the squares from which each piece type would attack the enemy king, and our
 * pieces that alone stand between it and a slider of ours (leaving their line uncovers it). */
typedef struct CheckInfo {
    Bitboard check_squares[PIECE_TYPE_NB];
    Bitboard discoverers;
} CheckInfo;
void pos_check_info(const Position *pos, CheckInfo *info);
bool pos_is_capture(const Position *pos, Move m);
bool pos_is_draw_by_rule(const Position *pos, int search_ply); /* repetition or 50-move */
bool pos_insufficient_material(const Position *pos);
bool pos_non_pawn_material(const Position *pos, int color);
void pos_flip(const Position *src, Position *dst); /* colour-mirrored copy */
/* pos_gives_check by table lookups, for a position whose moves are asked one after another (the
 * search, the move picker); pos_gives_check stays the cheaper one-off test, and the tests hold the
 * two equal. Castling, en passant and promotions take the full test. */
static inline bool pos_gives_check_with(const Position *pos, const CheckInfo *info, Move m) {
    if (move_kind(m) != MOVE_NORMAL) return pos_gives_check(pos, m);
    int from = move_from(m), to = move_to(m);
    if (info->check_squares[piece_type(pos->board[from])] & square_bb(to)) return true;
    return (info->discoverers & square_bb(from)) && !(line_bb(pos->king_square[!pos->side], from) & square_bb(to));
}
/* Drop history older than the fifty-move window so long games fit. */
void pos_trim_history(Position *pos);

#endif
