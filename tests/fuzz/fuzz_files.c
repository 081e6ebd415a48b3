/* The engine's option list and the scratch folder of hostile files. */
#define _GNU_SOURCE
#include "fuzz_files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_OPTIONS 64
#define MAX_PATHS 16

static FuzzOption options[MAX_OPTIONS];
static int option_count;
static char dir[64];
static char net_paths[MAX_PATHS][128], script_paths[MAX_PATHS][128], epd_paths[MAX_PATHS][128];
static int net_count, script_count, epd_count;

/* "option name NAME type KIND [default D] [min A max B] [var V]..." */
static void parse_option_line(char *line) {
    if (option_count == MAX_OPTIONS || strncmp(line, "option name ", 12)) return;
    char *type = strstr(line, " type ");
    if (!type) return;
    FuzzOption *o = &options[option_count];
    memset(o, 0, sizeof *o);
    snprintf(o->name, sizeof o->name, "%.*s", (int)(type - (line + 12)), line + 12);
    char kind[16] = "";
    sscanf(type, " type %15s", kind);
    if (!strcmp(kind, "spin")) o->kind = FUZZ_OPT_SPIN;
    else if (!strcmp(kind, "check")) o->kind = FUZZ_OPT_CHECK;
    else if (!strcmp(kind, "combo")) o->kind = FUZZ_OPT_COMBO;
    else if (!strcmp(kind, "string")) o->kind = FUZZ_OPT_STRING;
    else if (!strcmp(kind, "button")) o->kind = FUZZ_OPT_BUTTON;
    else return;
    char *p;
    if ((p = strstr(type, " min "))) o->min = strtol(p + 5, NULL, 10);
    if ((p = strstr(type, " max "))) o->max = strtol(p + 5, NULL, 10);
    for (p = type; (p = strstr(p, " var ")) && o->choice_count < FUZZ_MAX_CHOICES; p += 5)
        sscanf(p + 5, "%31s", o->choices[o->choice_count++]);
    option_count++;
}

static bool read_options(const char *engine, char *err, size_t err_size) {
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "printf 'uci\\nquit\\n' | '%s' 2>/dev/null", engine);
    FILE *f = popen(cmd, "r");
    if (!f) return snprintf(err, err_size, "cannot run %s", engine), false;
    char line[4096];
    bool uciok = false;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!strcmp(line, "uciok")) uciok = true;
        parse_option_line(line);
    }
    pclose(f);
    if (!uciok) return snprintf(err, err_size, "%s did not answer 'uci' with 'uciok'", engine), false;
    return true;
}

static bool write_file(const char *name, const void *data, size_t len, char *path, size_t path_size) {
    snprintf(path, path_size, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(data, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

static void add(char (*list)[128], int *count, const char *path) {
    if (*count < MAX_PATHS) snprintf(list[(*count)++], 128, "%s", path);
}

static bool make_files(void) {
    char path[128], text[512];
    snprintf(dir, sizeof dir, "/tmp/squall-fuzz-XXXXXX");
    if (!mkdtemp(dir)) return false;
    /* nets: the shipped one, and broken ones */
    const char *shipped = "nets/default.nnue";
    if (access(shipped, R_OK) == 0) add(net_paths, &net_count, shipped);
    unsigned char head[4096];
    FILE *f = fopen(shipped, "rb");
    size_t got = f ? fread(head, 1, sizeof head, f) : 0;
    if (f) fclose(f);
    for (size_t i = got; i < sizeof head; i++) head[i] = (unsigned char)(i * 131u);
    if (write_file("trunc.nnue", head, sizeof head, path, sizeof path)) add(net_paths, &net_count, path);
    if (write_file("empty.nnue", "", 0, path, sizeof path)) add(net_paths, &net_count, path);
    for (size_t i = 0; i < sizeof head; i++) head[i] = (unsigned char)(i * 2654435761u >> 13);
    if (write_file("garbage.nnue", head, 1000, path, sizeof path)) add(net_paths, &net_count, path);
    snprintf(path, sizeof path, "%s/fifo", dir);
    if (mkfifo(path, 0600) == 0) add(net_paths, &net_count, path), add(script_paths, &script_count, path), add(epd_paths, &epd_count, path);
    const char *elsewhere[] = {"/dev/null", "/dev/zero", "/", "/nonexistent/x.nnue", "<embedded>", ""};
    for (size_t i = 0; i < sizeof elsewhere / sizeof *elsewhere; i++) add(net_paths, &net_count, elsewhere[i]);
    /* scripts: no go, d, isready, ping or quit inside, so the transcript stays readable */
    const char *script = "# settings\nsd 2\nsetoption name MultiPV value 2\nposition startpos moves e2e4\nperft 1\neval\n";
    if (write_file("script.txt", script, strlen(script), path, sizeof path)) add(script_paths, &script_count, path);
    snprintf(text, sizeof text, "sn 100\nscript %s/self.txt\n", dir);
    if (write_file("self.txt", text, strlen(text), path, sizeof path)) add(script_paths, &script_count, path);
    const char *bad = "frobnicate\nposition fen nonsense\n\xff\xfe\n";
    if (write_file("bad.txt", bad, strlen(bad), path, sizeof path)) add(script_paths, &script_count, path);
    const char *epd = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id \"m1\";\n8/8/8/8/8/8/8/8 w - - bm e4;\ngarbage\n";
    if (write_file("suite.epd", epd, strlen(epd), path, sizeof path)) add(epd_paths, &epd_count, path), add(script_paths, &script_count, path);
    const char *others[] = {"/dev/null", "/dev/zero", "/", "/nonexistent/file"};
    for (size_t i = 0; i < sizeof others / sizeof *others; i++)
        add(script_paths, &script_count, others[i]), add(epd_paths, &epd_count, others[i]);
    return true;
}

bool fuzz_files_setup(const char *engine, char *err, size_t err_size) {
    option_count = net_count = script_count = epd_count = 0;
    if (!read_options(engine, err, err_size)) return false;
    if (!make_files()) return snprintf(err, err_size, "cannot create a scratch folder in /tmp"), false;
    return true;
}

void fuzz_files_cleanup(void) {
    if (!dir[0]) return;
    const char *names[] = {"trunc.nnue", "empty.nnue", "garbage.nnue", "fifo", "script.txt", "self.txt", "bad.txt", "suite.epd"};
    char path[160];
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) snprintf(path, sizeof path, "%s/%s", dir, names[i]), unlink(path);
    rmdir(dir);
    dir[0] = '\0';
}

const FuzzOption *fuzz_random_option(FuzzRng *rng) { return option_count ? &options[fuzz_below(rng, option_count)] : NULL; }
const char *fuzz_file_path(FuzzRng *rng) { return net_count ? net_paths[fuzz_below(rng, net_count)] : "/nonexistent"; }
const char *fuzz_script_path(FuzzRng *rng) { return script_count ? script_paths[fuzz_below(rng, script_count)] : "/nonexistent"; }
const char *fuzz_epd_path(FuzzRng *rng) { return epd_count ? epd_paths[fuzz_below(rng, epd_count)] : "/nonexistent"; }
