/* The tuning build's search constants (make TUNE=1 compiles this file; release builds compile
 * the table as constants instead). Each tunable is a thread-local variable of its own name,
 * so search.c, movepicker.c, tt.c, see.c and timeman.c read it like the constant it is in a
 * release build; each search installs the values it was started with on every thread it runs
 * on, so searches with different constants (the tuner's two players) run side by side. */
#include "search_params.h"
#include "see.h"

#define TUNABLE_VARIABLE(name, def, lo, hi, step) _Thread_local int name = (def);
SEARCH_TUNABLES(TUNABLE_VARIABLE)
#undef TUNABLE_VARIABLE

#define TUNABLE_INFO(name, def, lo, hi, step) {#name, (def), (lo), (hi), (step)},
const TunableInfo search_tunables[SEARCH_TUNABLE_COUNT] = {SEARCH_TUNABLES(TUNABLE_INFO)};
#undef TUNABLE_INFO

void search_params_install(const SearchParams *params) {
#define TUNABLE_INSTALL(name, def, lo, hi, step) name = params->values[name##_INDEX];
    SEARCH_TUNABLES(TUNABLE_INSTALL)
#undef TUNABLE_INSTALL
    see_piece_value[PAWN] = SEE_VALUE_PAWN;
    see_piece_value[KNIGHT] = SEE_VALUE_KNIGHT;
    see_piece_value[BISHOP] = SEE_VALUE_BISHOP;
    see_piece_value[ROOK] = SEE_VALUE_ROOK;
    see_piece_value[QUEEN] = SEE_VALUE_QUEEN;
}
