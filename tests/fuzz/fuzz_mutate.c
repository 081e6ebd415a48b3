/* Mutations of a valid session: whole lines dropped, repeated, swapped, joined, split or
 * invented; bytes flipped or inserted (NUL, CR, control and high bytes); words and numbers
 * replaced (numbers at and past every limit); lines made very long (past 4,096 words, at
 * and past the engine's line limit); pauses between lines. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

/* argv strings cannot hold NUL and are limited to 128 KB each */
#define ARGS_LINE_MAX (96 * 1024)

static bool first_word_is(const FuzzLine *l, const char *const *list) {
    const char *p = l->text;
    while (p < l->text + l->len && isspace((unsigned char)*p)) p++;
    for (int i = 0; list[i]; i++) {
        size_t n = strlen(list[i]);
        if ((size_t)(l->text + l->len - p) >= n && !memcmp(p, list[i], n) &&
            (p + n == l->text + l->len || isspace((unsigned char)p[n])))
            return true;
    }
    return false;
}

/* Lines whose numbers must not change: perft and bench run to the end whatever follows
 * (a bare `bench` takes minutes in the sanitizer build), and where nothing stops a search
 * its limits must stay small. Such lines are only dropped, repeated, moved, padded past
 * their words, or refused whole (NUL). */
bool fuzz_line_runs_to_its_end(const FuzzLine *l) {
    static const char *const always[] = {"perft", "divide", "bench", "epd", NULL};
    return first_word_is(l, always);
}

static bool line_is_fragile(const FuzzSession *s, const FuzzLine *l) {
    static const char *const limits[] = {"go", "sd", "sn", "st", "level", "time", "otim", "nps", NULL};
    return fuzz_line_runs_to_its_end(l) || (s->searches_bounded && first_word_is(l, limits));
}

/* Replaces bytes [at, at + cut) of the line by insert[0..insert_len). */
static void splice(FuzzLine *l, size_t at, size_t cut, const char *insert, size_t insert_len) {
    if (at > l->len) at = l->len;
    if (at + cut > l->len) cut = l->len - at;
    size_t len = l->len - cut + insert_len;
    char *buf = malloc(len + 1);
    if (!buf) return;
    memcpy(buf, l->text, at);
    memcpy(buf + at, insert, insert_len);
    memcpy(buf + at + insert_len, l->text + at + cut, l->len - at - cut);
    buf[len] = '\0';
    free(l->text);
    l->text = buf, l->len = len;
}

/* The byte range of the k-th word (k taken modulo the word count); false if there is none. */
static bool word_span(const FuzzLine *l, int k, size_t *start, size_t *len) {
    size_t spans[64][2];
    int n = 0;
    for (size_t i = 0; i < l->len && n < 64;) {
        while (i < l->len && isspace((unsigned char)l->text[i])) i++;
        if (i == l->len) break;
        size_t b = i;
        while (i < l->len && !isspace((unsigned char)l->text[i])) i++;
        spans[n][0] = b, spans[n][1] = i - b, n++;
    }
    if (!n) return false;
    *start = spans[k % n][0], *len = spans[k % n][1];
    return true;
}

static void make_long(const FuzzSession *s, FuzzLine *l, FuzzRng *rng) {
    bool args = s->mode == FUZZ_BATCH_ARGS;
    size_t target;
    switch (fuzz_below(rng, 3)) {
    case 0: target = l->len + 5000 * 5; break; /* about 5,000 more words */
    case 1: target = FUZZ_ENGINE_LINE_MAX - 3 + (size_t)fuzz_below(rng, 7); break; /* at the line limit */
    default: target = FUZZ_ENGINE_LINE_MAX + 1000 + (size_t)fuzz_below(rng, 3 * FUZZ_ENGINE_LINE_MAX); break;
    }
    if (args && target > ARGS_LINE_MAX) target = ARGS_LINE_MAX - (size_t)fuzz_below(rng, 1000);
    if (target <= l->len) return;
    char *buf = malloc(target + 1);
    if (!buf) return;
    memcpy(buf, l->text, l->len);
    const char *fill = fuzz_chance(rng, 50) ? " e2e4" : fuzz_chance(rng, 50) ? " " : " x";
    size_t fill_len = strlen(fill);
    for (size_t i = l->len; i < target; i++) buf[i] = fill[(i - l->len) % fill_len];
    buf[target] = '\0';
    free(l->text);
    l->text = buf, l->len = target;
}

static void random_line(const FuzzSession *s, FuzzRng *rng, char *out, size_t size) {
    size_t n = 0;
    out[0] = '\0';
    for (int k = 1 + fuzz_below(rng, 5); k > 0 && n + 600 < size; k--) {
        char num[512];
        if (!s->searches_bounded && fuzz_chance(rng, 30)) fuzz_random_number(rng, num, sizeof num);
        else snprintf(num, sizeof num, "%s", fuzz_random_word(rng));
        n += (size_t)snprintf(out + n, size - n, "%s%s", n ? " " : "", num);
    }
    /* a bare go, sd, st, ... with nothing to stop the search could run for long */
    static const char *const limits[] = {"go", "sd", "sn", "st", "level", "time", "otim", "nps", NULL};
    FuzzLine probe = {.text = out, .len = n};
    if (s->searches_bounded && first_word_is(&probe, limits)) snprintf(out, size, "isready");
}

static void mutate_once(FuzzSession *s, FuzzRng *rng) {
    if (s->count == 0) {
        fuzz_add_text(s, "isready");
        return;
    }
    int i = fuzz_below(rng, s->count);
    FuzzLine *l = &s->lines[i];
    bool fragile = line_is_fragile(s, l), args = s->mode == FUZZ_BATCH_ARGS;
    char buf[4096];
    switch (fuzz_below(rng, 17)) {
    case 0: /* drop the line */
        free(l->text);
        memmove(l, l + 1, (size_t)(s->count - i - 1) * sizeof *l);
        s->count--;
        break;
    case 1: /* say it twice */
        fuzz_insert_line(s, i + 1, s->lines[i].text, s->lines[i].len);
        break;
    case 2: { /* swap with another */
        int j = fuzz_below(rng, s->count);
        FuzzLine t = s->lines[i];
        s->lines[i] = s->lines[j], s->lines[j] = t;
        break;
    }
    case 3: /* a line of protocol words */
        random_line(s, rng, buf, sizeof buf);
        fuzz_insert_line(s, i, buf, strlen(buf));
        break;
    case 4: /* cut short */
        if (fragile) break;
        l->len = (size_t)fuzz_below(rng, (int)l->len + 1);
        l->text[l->len] = '\0';
        break;
    case 5: /* a NUL inside */
        if (!args) splice(l, (size_t)fuzz_below(rng, (int)l->len + 1), 0, "\0", 1);
        break;
    case 6: /* CR: inside, or CRLF at the end */
        splice(l, fuzz_chance(rng, 50) ? l->len : (size_t)fuzz_below(rng, (int)l->len + 1), 0, "\r", 1);
        break;
    case 7: make_long(s, l, rng); break;
    case 8: { /* a few bytes of anything */
        if (fragile) break;
        char bytes[8];
        int n = 1 + fuzz_below(rng, 8);
        for (int k = 0; k < n; k++) {
            bytes[k] = (char)fuzz_below(rng, 256);
            if (args && !bytes[k]) bytes[k] = '\x01';
        }
        splice(l, (size_t)fuzz_below(rng, (int)l->len + 1), 0, bytes, (size_t)n);
        break;
    }
    case 9: /* one bit */
        if (!fragile && l->len) {
            size_t at = (size_t)fuzz_below(rng, (int)l->len);
            l->text[at] = (char)(l->text[at] ^ (1 << fuzz_below(rng, 8)));
            if (args && !l->text[at]) l->text[at] = '\x01';
        }
        break;
    case 10: { /* a number at or past a limit */
        size_t at, len;
        if (fragile || !word_span(l, fuzz_below(rng, 64), &at, &len)) break;
        fuzz_random_number(rng, buf, sizeof buf);
        splice(l, at, len, buf, strlen(buf));
        break;
    }
    case 11: { /* another word */
        size_t at, len;
        if (fragile || !word_span(l, fuzz_below(rng, 64), &at, &len)) break;
        const char *w = fuzz_random_word(rng);
        splice(l, at, len, w, strlen(w));
        break;
    }
    case 12: /* joined with the next line */
        if (i + 1 < s->count && !line_is_fragile(s, &s->lines[i + 1])) {
            FuzzLine *next = &s->lines[i + 1];
            splice(l, l->len, 0, next->text, next->len);
            free(next->text);
            memmove(next, next + 1, (size_t)(s->count - i - 2) * sizeof *l);
            s->count--;
        }
        break;
    case 13: { /* split in two at a blank */
        const char *blank = memchr(l->text, ' ', l->len);
        if (!blank || fragile) break;
        size_t at = (size_t)(blank - l->text);
        fuzz_insert_line(s, i + 1, l->text + at + 1, l->len - at - 1);
        l = &s->lines[i];
        l->len = at;
        l->text[at] = '\0';
        break;
    }
    case 14: /* a pause before it */
        l->delay_ms = fuzz_below(rng, 150);
        break;
    case 15: { /* blank or whitespace-only */
        const char *blank = (const char *[]){"", " ", "\t", " \t\v\f ", "\r"}[fuzz_below(rng, 5)];
        fuzz_insert_line(s, i, blank, strlen(blank));
        break;
    }
    default: { /* other blanks between the words */
        if (fragile) break;
        for (size_t k = 0; k < l->len; k++)
            if (l->text[k] == ' ' && fuzz_chance(rng, 50)) l->text[k] = fuzz_chance(rng, 50) ? '\t' : '\v';
        if (fuzz_chance(rng, 30)) splice(l, 0, 0, "   ", 3);
        break;
    }
    }
}

void fuzz_mutate(FuzzSession *s, FuzzRng *rng) {
    int n = fuzz_chance(rng, 20) ? 0 : 1 + fuzz_below(rng, 3) + (fuzz_chance(rng, 30) ? fuzz_below(rng, 6) : 0);
    for (int k = 0; k < n; k++) mutate_once(s, rng);
}
