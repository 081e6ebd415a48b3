/* Which program and build this is, for uci's id, xboard's myname, --help, bench and datagen
 * manifests. The version is the GNUmakefile's: git describe (last tag, commits since it and
 * the commit, "-dirty" for a modified tree), or a fixed fallback without git. */
#ifndef SQUALL_VERSION_H
#define SQUALL_VERSION_H

#define ENGINE_NAME "Squall"
#define ENGINE_AUTHOR "the Squall developers"

extern const char squall_version[];

#endif
