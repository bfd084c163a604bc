/* The baseline for the referee benchmark: bare JSON-line ping-pong between processes, with
 * no referee logic at all.
 *
 *   pingpong [--peers 1|4] [--iters N] [--warmup N] [--message FILE] LINES_FILE BOT [ARGS...]
 *
 * LINES_FILE holds real lines captured from a game (bench/run.sh makes it): line 1 a request,
 * line 2 a move event, line 3 a trick event. With --message FILE, the whole of FILE (several
 * lines, the last a request: what the referee writes to a bot in one write() when it asks for
 * a move, with the default `--events batched`) is sent instead of line 1, in one write().
 *
 * --peers 1 (the main baseline): one BOT process; each iteration writes the request line to
 *   its stdin with one write() and reads its one reply line. The BOT is the real first-legal C
 *   bot, so the peer does exactly the parsing it does in a game. Reports the mean round trip.
 * --peers 4: the message pattern of one referee decision without the referee: four BOT
 *   processes; iteration i sends the request to bot i%4, reads its reply, then writes the move
 *   event to all four bots, and after every fourth iteration the trick event to all four
 *   (`--events immediate`). With --message, iteration i only sends the message to bot i%4 and
 *   reads its reply: the batched pattern, each bot woken once per its own move.
 *   Reports the mean time per iteration (per "decision").
 *
 * Output: one line of key=value pairs: mean microseconds per iteration (wall), this process's
 * user+sys CPU per iteration during the timed loop, the peers' user+sys CPU per iteration
 * (their whole life, warm-up included, divided by all iterations), and context switches per
 * iteration (this process's in the timed loop plus the peers' per iteration).
 *
 * Build: gcc -O2 -o pingpong pingpong.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_PEERS 4

struct peer {
    pid_t pid;
    int to;   /* its stdin */
    int from; /* its stdout */
    char buf[4096];
    size_t have;
};

static void die(const char *what) {
    perror(what);
    exit(1);
}

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static double rusage_us(int who) {
    struct rusage ru;
    getrusage(who, &ru);
    return (double)ru.ru_utime.tv_sec * 1e6 + (double)ru.ru_utime.tv_usec +
           (double)ru.ru_stime.tv_sec * 1e6 + (double)ru.ru_stime.tv_usec;
}

/* Voluntary plus involuntary context switches. */
static double rusage_csw(int who) {
    struct rusage ru;
    getrusage(who, &ru);
    return (double)(ru.ru_nvcsw + ru.ru_nivcsw);
}

static void spawn(struct peer *p, char **argv) {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) die("pipe");
    pid_t pid = fork();
    if (pid < 0) die("fork");
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        execvp(argv[0], argv);
        perror(argv[0]);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    p->pid = pid;
    p->to = in[1];
    p->from = out[0];
    p->have = 0;
}

/* One write() for the whole line, as the referee's writer does. */
static void send_line(struct peer *p, const char *line, size_t len) {
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(p->to, line + done, len - done);
        if (w < 0) {
            if (errno == EINTR) continue;
            die("write to peer");
        }
        done += (size_t)w;
    }
}

/* Reads until one whole line has arrived and drops it. */
static void recv_line(struct peer *p) {
    for (;;) {
        char *nl = memchr(p->buf, '\n', p->have);
        if (nl) {
            size_t used = (size_t)(nl - p->buf) + 1;
            memmove(p->buf, p->buf + used, p->have - used);
            p->have -= used;
            return;
        }
        if (p->have == sizeof p->buf) {
            fprintf(stderr, "pingpong: reply line longer than %zu bytes\n", sizeof p->buf);
            exit(1);
        }
        ssize_t r = read(p->from, p->buf + p->have, sizeof p->buf - p->have);
        if (r < 0) {
            if (errno == EINTR) continue;
            die("read from peer");
        }
        if (r == 0) {
            fprintf(stderr, "pingpong: peer closed its output\n");
            exit(1);
        }
        p->have += (size_t)r;
    }
}

/* Reads line `n` (0-based) of the file, with its newline. */
static char *read_line(const char *path, int n, size_t *len) {
    FILE *f = fopen(path, "r");
    if (!f) die(path);
    char *line = NULL;
    size_t cap = 0;
    ssize_t got = -1;
    for (int i = 0; i <= n; i++) {
        got = getline(&line, &cap, f);
        if (got <= 0) {
            fprintf(stderr, "pingpong: %s has no line %d\n", path, n + 1);
            exit(2);
        }
    }
    fclose(f);
    if (line[got - 1] != '\n') {
        line = realloc(line, (size_t)got + 2);
        line[got++] = '\n';
        line[got] = 0;
    }
    *len = (size_t)got;
    return line;
}

/* The whole file, which must end with a newline. */
static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "r");
    if (!f) die(path);
    size_t cap = 1 << 16, got = 0;
    char *buf = malloc(cap);
    size_t n;
    while ((n = fread(buf + got, 1, cap - got, f)) > 0) {
        got += n;
        if (got == cap) buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    if (got == 0 || buf[got - 1] != '\n') {
        fprintf(stderr, "pingpong: %s must end with a newline\n", path);
        exit(2);
    }
    *len = got;
    return buf;
}

int main(int argc, char **argv) {
    int peers = 1;
    long iters = 20000, warmup = 2000;
    const char *message = NULL;
    int i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
        if (i + 1 >= argc) break;
        if (strcmp(argv[i], "--peers") == 0) peers = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--iters") == 0) iters = atol(argv[i + 1]);
        else if (strcmp(argv[i], "--warmup") == 0) warmup = atol(argv[i + 1]);
        else if (strcmp(argv[i], "--message") == 0) message = argv[i + 1];
        else break;
    }
    if (argc - i < 2 || (peers != 1 && peers != MAX_PEERS) || iters <= 0 || warmup < 0) {
        fprintf(stderr, "usage: pingpong [--peers 1|4] [--iters N] [--warmup N] [--message FILE] LINES_FILE BOT [ARGS...]\n");
        return 2;
    }
    const char *lines = argv[i];
    char **bot = &argv[i + 1];
    signal(SIGPIPE, SIG_IGN);

    size_t req_len, move_len = 0, trick_len = 0;
    char *req = message ? read_file(message, &req_len) : read_line(lines, 0, &req_len);
    char *move = NULL, *trick = NULL;
    int events = peers == MAX_PEERS && !message;
    if (events) {
        move = read_line(lines, 1, &move_len);
        trick = read_line(lines, 2, &trick_len);
    }

    static struct peer p[MAX_PEERS];
    for (int k = 0; k < peers; k++) spawn(&p[k], bot);

    double t0 = 0, cpu0 = 0, csw0 = 0;
    for (long it = -warmup; it < iters; it++) {
        if (it == 0) {
            t0 = now_us();
            cpu0 = rusage_us(RUSAGE_SELF);
            csw0 = rusage_csw(RUSAGE_SELF);
        }
        struct peer *to = &p[(it + warmup) % peers];
        send_line(to, req, req_len);
        recv_line(to);
        if (events) {
            for (int k = 0; k < peers; k++) send_line(&p[k], move, move_len);
            if ((it + warmup) % 4 == 3)
                for (int k = 0; k < peers; k++) send_line(&p[k], trick, trick_len);
        }
    }
    double wall = now_us() - t0;
    double cpu = rusage_us(RUSAGE_SELF) - cpu0;
    double csw = rusage_csw(RUSAGE_SELF) - csw0;

    for (int k = 0; k < peers; k++) close(p[k].to);
    for (int k = 0; k < peers; k++) {
        int status;
        while (waitpid(p[k].pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
    double peers_cpu = rusage_us(RUSAGE_CHILDREN);
    double peers_csw = rusage_csw(RUSAGE_CHILDREN);

    printf("peers=%d iters=%ld request_bytes=%zu us_per_iter=%.3f parent_cpu_us_per_iter=%.3f "
           "peers_cpu_us_per_iter=%.3f csw_per_iter=%.2f\n",
           peers, iters, req_len - 1, wall / (double)iters, cpu / (double)iters,
           peers_cpu / (double)(iters + warmup),
           csw / (double)iters + peers_csw / (double)(iters + warmup));
    return 0;
}
