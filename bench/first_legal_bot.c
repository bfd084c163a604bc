/* A minimal tarneeb bot for benchmarks: it answers every request with the first legal move.
 *
 * Only libc. It reads one JSON line at a time (getline, so multi-KB requests are fine) and
 * finds what it needs by plain string scanning, which is enough for the referee's compact
 * serde_json output (protocol.md):
 *   hello    -> {"type":"hello","name":"first-legal-c","version":"1"}
 *   request  -> {"type":"move","id":N,"move":"<first string of legal>"}, flushed
 *   game_end -> exit; EOF -> exit; any other message is read and ignored.
 * With FIRST_LEGAL_BOT_MULTI set it declares `multi_game` (protocol.md 4.4): it answers
 * `new_game` like `hello` and keeps reading after `game_end`, so a tournament reuses it.
 *
 * For the benchmark, when the environment variable FIRST_LEGAL_BOT_CPU is set, it writes one
 * line to stderr when it exits (also when stopped with SIGTERM): its own user+sys CPU time, how
 * many requests it answered, and the CLOCK_MONOTONIC times of the first request it received
 * and of the last reply it sent, so the game's steady state can be told from start and stop.
 *
 * Build: gcc -O2 -o first_legal_bot first_legal_bot.c
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static int report;
static int multi;
/* CLOCK_MONOTONIC nanoseconds when the first request arrived and the last reply was sent. */
static unsigned long long first_request_ns, last_reply_ns;
static unsigned long requests;

static unsigned long long mono_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (unsigned long long)t.tv_sec * 1000000000ULL + (unsigned long long)t.tv_nsec;
}

static size_t put_num(char *buf, size_t n, const char *key, unsigned long long v) {
    size_t k = strlen(key);
    memcpy(buf + n, key, k);
    n += k;
    char digits[24];
    int d = 0;
    do {
        digits[d++] = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0);
    while (d > 0) buf[n++] = digits[--d];
    return n;
}

/* Writes "first_legal_bot cpu_us=N requests=N first_request_ns=T last_reply_ns=T" to stderr
 * with async-signal-safe calls only (it also runs in the SIGTERM handler). */
static void report_cpu(void) {
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0) return;
    unsigned long long us = (unsigned long long)ru.ru_utime.tv_sec * 1000000ULL +
                            (unsigned long long)ru.ru_utime.tv_usec +
                            (unsigned long long)ru.ru_stime.tv_sec * 1000000ULL +
                            (unsigned long long)ru.ru_stime.tv_usec;
    char buf[200];
    size_t n = put_num(buf, 0, "first_legal_bot cpu_us=", us);
    n = put_num(buf, n, " requests=", requests);
    n = put_num(buf, n, " first_request_ns=", first_request_ns);
    n = put_num(buf, n, " last_reply_ns=", last_reply_ns);
    buf[n++] = '\n';
    ssize_t w = write(2, buf, n);
    (void)w;
}


static void on_term(int sig) {
    (void)sig;
    if (report) report_cpu();
    _exit(0);
}

/* Returns a pointer just past `"key"` followed by optional spaces and a colon and spaces, or
 * NULL. Good enough for the first occurrence of a top-level key in the referee's messages. */
static const char *after_key(const char *line, const char *key) {
    char pat[32];
    int n = snprintf(pat, sizeof pat, "\"%s\"", key);
    if (n <= 0 || (size_t)n >= sizeof pat) return NULL;
    const char *p = strstr(line, pat);
    if (!p) return NULL;
    p += n;
    while (*p == ' ' || *p == '\t') p++;
    if (*p != ':') return NULL;
    p++;
    while (*p == ' ' || *p == '\t') p++;
    return p;
}

/* Is the message's "type" equal to `type`? */
static int type_is(const char *line, const char *type) {
    const char *p = after_key(line, "type");
    if (!p || *p != '"') return 0;
    size_t n = strlen(type);
    return strncmp(p + 1, type, n) == 0 && p[1 + n] == '"';
}

int main(void) {
    report = getenv("FIRST_LEGAL_BOT_CPU") != NULL;
    multi = getenv("FIRST_LEGAL_BOT_MULTI") != NULL;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_term;
    sigaction(SIGTERM, &sa, NULL);

    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, stdin)) > 0) {
        if (type_is(line, "request")) {
            if (report && requests++ == 0) first_request_ns = mono_ns();
            const char *id = after_key(line, "id");
            const char *legal = after_key(line, "legal");
            if (!id || !legal || *legal != '[') {
                fprintf(stderr, "first_legal_bot: cannot read request: %.200s\n", line);
                continue;
            }
            long long n = strtoll(id, NULL, 10);
            const char *start = strchr(legal, '"');
            const char *end = start ? strchr(start + 1, '"') : NULL;
            if (!end) {
                fprintf(stderr, "first_legal_bot: empty legal list: %.200s\n", line);
                continue;
            }
            printf("{\"type\":\"move\",\"id\":%lld,\"move\":\"%.*s\"}\n", n,
                   (int)(end - start - 1), start + 1);
            fflush(stdout);
            if (report) last_reply_ns = mono_ns();
        } else if (type_is(line, "hello") || (multi && type_is(line, "new_game"))) {
            fputs(multi ? "{\"type\":\"hello\",\"name\":\"first-legal-c\",\"version\":\"1\","
                          "\"multi_game\":true}\n"
                        : "{\"type\":\"hello\",\"name\":\"first-legal-c\",\"version\":\"1\"}\n",
                  stdout);
            fflush(stdout);
        } else if (type_is(line, "game_end") && !multi) {
            break;
        }
    }
    free(line);
    if (report) report_cpu();
    return 0;
}
