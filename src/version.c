/* The only object built with -DSQUALL_VERSION, so a new version recompiles this file alone. */
#include "version.h"

#ifndef SQUALL_VERSION
#error "SQUALL_VERSION is set by the GNUmakefile"
#endif

const char squall_version[] = SQUALL_VERSION;
