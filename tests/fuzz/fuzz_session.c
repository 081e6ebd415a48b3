/* Session storage: lines, flags, probes and the byte stream the engine reads. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static void *checked_realloc(void *p, size_t size) {
    void *grown = realloc(p, size);
    if (!grown) {
        fprintf(stderr, "squall-fuzz: out of memory\n");
        exit(3);
    }
    return grown;
}

void fuzz_session_free(FuzzSession *s) {
    for (int i = 0; i < s->count; i++) free(s->lines[i].text);
    for (int i = 0; i < s->arg_count; i++) free(s->args[i]);
    free(s->lines);
    memset(s, 0, sizeof *s);
}

static void insert_line(FuzzSession *s, int at, const char *text, size_t len, bool probe) {
    if (s->count == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 32;
        s->lines = checked_realloc(s->lines, (size_t)s->cap * sizeof *s->lines);
    }
    memmove(&s->lines[at + 1], &s->lines[at], (size_t)(s->count - at) * sizeof *s->lines);
    FuzzLine *l = &s->lines[at];
    l->text = checked_realloc(NULL, len + 1);
    memcpy(l->text, text, len);
    l->text[len] = '\0';
    l->len = len;
    l->delay_ms = 0;
    l->probe = probe;
    s->count++;
}

void fuzz_add_line(FuzzSession *s, const char *text, size_t len) { insert_line(s, s->count, text, len, false); }

void fuzz_insert_line(FuzzSession *s, int at, const char *text, size_t len) { insert_line(s, at, text, len, false); }

void fuzz_add_text(FuzzSession *s, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    char *text = checked_realloc(NULL, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(text, (size_t)n + 1, fmt, ap);
    va_end(ap);
    fuzz_add_line(s, text, (size_t)n);
    free(text);
}

void fuzz_add_arg(FuzzSession *s, const char *arg) {
    if (s->arg_count < FUZZ_MAX_ARGS) s->args[s->arg_count++] = strdup(arg);
}

void fuzz_add_probes(FuzzSession *s) {
    for (int i = s->count - 1; i >= 0; i--) insert_line(s, i + 1, "d", 1, true);
}

char *fuzz_stream(const FuzzSession *s, size_t *len) {
    size_t total = 0;
    for (int i = 0; i < s->count; i++) total += s->lines[i].len + 1;
    char *buf = checked_realloc(NULL, total + 1), *p = buf;
    for (int i = 0; i < s->count; i++) {
        memcpy(p, s->lines[i].text, s->lines[i].len);
        p += s->lines[i].len;
        *p++ = '\n';
    }
    *p = '\0';
    *len = total;
    return buf;
}

char *fuzz_command_list(const FuzzSession *s) {
    size_t len;
    char *buf = fuzz_stream(s, &len);
    for (size_t i = 0; i < len; i++)
        if (buf[i] == '\n') buf[i] = ';';
    return buf;
}

char *fuzz_engine_input(const FuzzSession *s, size_t *len) {
    char *bytes = s->mode == FUZZ_BATCH_ARGS ? fuzz_command_list(s) : fuzz_stream(s, len);
    if (s->mode == FUZZ_BATCH_ARGS) *len = strlen(bytes);
    if (s->cut_at >= 0 && (size_t)s->cut_at < *len) *len = (size_t)s->cut_at;
    return bytes;
}

const char *fuzz_mode_name(FuzzMode mode) {
    static const char *names[FUZZ_MODE_COUNT] = {"uci", "xboard", "terminal", "batch-stdin", "batch-command"};
    return mode < FUZZ_MODE_COUNT ? names[mode] : "?";
}
