/* Placeholder until the NNUE accumulator lands: nothing attaches an accumulator yet. */
#include "accumulator.h"

void accumulator_make(Accumulator *acc, const Position *pos, const DirtyPieces *dirty) { (void)acc, (void)pos, (void)dirty; }
void accumulator_unmake(Accumulator *acc, const Position *pos, const DirtyPieces *dirty) { (void)acc, (void)pos, (void)dirty; }
void accumulator_refresh(Accumulator *acc, const Position *pos) { (void)acc, (void)pos; }
