/* The move picker yields every legal move exactly once and nothing else, whatever it is
 * handed as TT move, killers and countermove (legal, stale from another position, garbage or
 * repeated), in and out of check, with random history scores; quiescence yields exactly the
 * noisy moves (all evasions in check); skipping quiets never drops a capture or a check. */
#include <stdlib.h>
#include <string.h>

#include "movepicker.h"
#include "search_params.h"
#include "test.h"

#define WALK_PLIES 10

static uint64_t rng_state = 0x5eed5eedULL;

typedef struct {
    Move tt, killers[2], counter;
    const int16_t (*cont[3])[SQUARE_NB];
} Hints;

static Move random_move_of(const MoveList *list) {
    return list->count ? list->moves[test_random(&rng_state) % (uint64_t)list->count] : MOVE_NONE;
}

static const int16_t (*random_cont(const History *h))[SQUARE_NB] {
    uint64_t r = test_random(&rng_state);
    return (const int16_t (*)[SQUARE_NB])h->continuation[r % (PIECE_NB + 1)][(r >> 8) % SQUARE_NB];
}

/* Variant 0: no hints; 1: legal moves; 2: moves of another position and garbage; 3: one legal
 * move given as every hint at once. */
static Hints make_hints(int variant, const MoveList *legal, const MoveList *elsewhere, const History *h) {
    Hints x = {MOVE_NONE, {MOVE_NONE, MOVE_NONE}, MOVE_NONE, {NULL, NULL, NULL}};
    if (variant == 0) return x;
    x.cont[0] = random_cont(h);
    x.cont[1] = random_cont(h);
    x.cont[2] = random_cont(h);
    if (variant == 1) {
        x.tt = random_move_of(legal);
        x.killers[0] = random_move_of(legal);
        x.killers[1] = random_move_of(legal);
        x.counter = random_move_of(legal);
    } else if (variant == 2) {
        x.tt = random_move_of(elsewhere);
        x.killers[0] = random_move_of(elsewhere);
        x.killers[1] = (Move)(test_random(&rng_state) & 0xFFFF);
        x.counter = random_move_of(elsewhere);
    } else {
        x.tt = x.killers[0] = x.killers[1] = x.counter = random_move_of(legal);
    }
    return x;
}

/* Drains the picker, asking it to skip quiets from the skip_from-th move on. */
static int drain(MovePicker *mp, int skip_from, Move *out, int cap) {
    int n = 0;
    for (Move m; n < cap && (m = movepicker_next(mp, n >= skip_from)) != MOVE_NONE;) out[n++] = m;
    return n;
}

/* True when got holds no duplicates, only moves of allowed, and every move of required. */
static bool yields_ok(const Move *got, int n, const MoveList *allowed, const MoveList *required) {
    for (int i = 0; i < n; i++) {
        if (!move_list_contains(allowed, got[i])) return false;
        for (int j = 0; j < i; j++)
            if (got[j] == got[i]) return false;
    }
    for (int i = 0; i < required->count; i++) {
        bool found = false;
        for (int j = 0; j < n && !found; j++) found = got[j] == required->moves[i];
        if (!found) return false;
    }
    return true;
}

/* A random move, a checking one when there is one every other ply, so evasions get tested. */
static Move walk_move(const Position *pos, const MoveList *legal) {
    MoveList checks = {.count = 0};
    for (int i = 0; i < legal->count; i++)
        if (pos_gives_check(pos, legal->moves[i])) checks.moves[checks.count++] = legal->moves[i];
    return checks.count && test_random(&rng_state) % 2 ? random_move_of(&checks) : random_move_of(legal);
}

typedef struct {
    int nodes, in_check, failures;
} PickerStats;

static void check_node(const Position *pos, const History *h, const MoveList *elsewhere, PickerStats *st) {
    MoveList legal, noisy;
    generate_legal(pos, &legal);
    generate_moves(pos, &noisy, GEN_NOISY);
    bool in_check = pos_in_check(pos);
    /* what quiescence yields: evasions are all searched */
    const MoveList *tactical = in_check ? &legal : &noisy;
    /* what must come when quiets are skipped: that, and the quiet checks */
    MoveList kept = *tactical;
    for (int i = 0; i < legal.count && !in_check; i++)
        if (!move_list_contains(&noisy, legal.moves[i]) && pos_gives_check(pos, legal.moves[i])) kept.moves[kept.count++] = legal.moves[i];
    st->nodes++;
    st->in_check += in_check;
    Move got[2 * MAX_MOVES];
    for (int variant = 0; variant < 4; variant++) {
        Hints x = make_hints(variant, &legal, elsewhere, h);
        MovePicker mp;
        movepicker_init(&mp, pos, h, x.tt, x.killers, x.counter, x.cont[0], x.cont[1], x.cont[2], 0);
        int n = drain(&mp, MAX_MOVES, got, 2 * MAX_MOVES);
        bool ok = n == legal.count && yields_ok(got, n, &legal, &legal);

        movepicker_init(&mp, pos, h, x.tt, x.killers, x.counter, x.cont[0], x.cont[1], x.cont[2], 0);
        n = drain(&mp, (int)(test_random(&rng_state) % 4), got, 2 * MAX_MOVES);
        ok = ok && yields_ok(got, n, &legal, &kept);

        movepicker_init_qsearch(&mp, pos, h, x.tt);
        n = drain(&mp, MAX_MOVES, got, 2 * MAX_MOVES);
        ok = ok && n == tactical->count && yields_ok(got, n, tactical, tactical);
        if (!ok && st->failures++ < 3) {
            char fen[128];
            pos_get_fen(pos, fen, sizeof fen);
            CHECK_MSG(ok, "%s: hint variant %d", fen, variant);
        }
    }
}

TEST(movepicker, every_legal_move_exactly_once) {
    History *h = malloc(sizeof *h);
    static Position pos;
    FILE *f = fopen("tests/data/perft.epd", "r");
    CHECK(h && f);
    if (!h || !f) {
        free(h);
        if (f) fclose(f);
        return;
    }
    /* random history scores make the ordering stages shuffle the moves differently */
    int16_t *cells = (int16_t *)h;
    for (size_t i = 0; i < sizeof *h / sizeof *cells; i++)
        cells[i] = (int16_t)((int)(test_random(&rng_state) % (2 * HISTORY_MAX + 1)) - HISTORY_MAX);
    memset(h->countermove, 0, sizeof h->countermove);

    PickerStats st = {0, 0, 0};
    MoveList elsewhere = {.count = 0};
    char line[256], err[128];
    while (fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        if (semi) *semi = 0;
        if (!semi || !pos_set_fen(&pos, line, err, sizeof err)) continue;
        for (int ply = 0; ply <= WALK_PLIES; ply++) {
            check_node(&pos, h, &elsewhere, &st);
            generate_legal(&pos, &elsewhere); /* the next node's stale hints */
            if (!elsewhere.count) break;
            pos_make_move(&pos, walk_move(&pos, &elsewhere));
        }
    }
    fclose(f);
    free(h);
    CHECK_MSG(st.failures == 0, "%d failed picker runs over %d nodes", st.failures, st.nodes);
    CHECK_MSG(st.nodes >= 2000 && st.in_check >= 400, "only %d nodes, %d in check", st.nodes, st.in_check);
}
