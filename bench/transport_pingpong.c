/* The kernel's floor under bench/remote.sh: a 200-byte line and a 20-byte reply, back and
 * forth between this process and an echoing child, over a pipe pair (a local bot's
 * transport), a Unix socket pair (the TLS bridge's hop, src/remote/tls.rs) and loopback TCP
 * with TCP_NODELAY (a remote bot's). No referee, no TLS, no JSON.
 *
 *   transport_pingpong [ITERS]        (default 20000)
 *
 * Prints per transport the mean wall microseconds per round trip and this (the "referee")
 * process's user+sys CPU microseconds per round trip. Build: gcc -O2 -o tp transport_pingpong.c
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static double cpu(void) {
    struct rusage r;
    getrusage(RUSAGE_SELF, &r);
    return r.ru_utime.tv_sec + r.ru_utime.tv_usec / 1e6 + r.ru_stime.tv_sec + r.ru_stime.tv_usec / 1e6;
}

/* The child: read a message, answer with a short reply, until EOF. */
static void echo(int in, int out) {
    char buf[4096];
    static const char reply[] = "{\"type\":\"move\",\"c\":1}\n";
    for (;;) {
        ssize_t n = read(in, buf, sizeof buf);
        if (n <= 0) _exit(0);
        if (write(out, reply, sizeof reply - 1) < 0) _exit(1);
    }
}

static void measure(const char *name, int to, int from, int iters) {
    char msg[200], buf[4096];
    memset(msg, 'x', sizeof msg);
    msg[sizeof msg - 1] = '\n';
    for (int i = 0; i < 1000; i++) {
        if (write(to, msg, sizeof msg) < 0 || read(from, buf, sizeof buf) <= 0) exit(1);
    }
    double t0 = now(), c0 = cpu();
    for (int i = 0; i < iters; i++) {
        if (write(to, msg, sizeof msg) < 0 || read(from, buf, sizeof buf) <= 0) exit(1);
    }
    double t1 = now(), c1 = cpu();
    printf("%-12s %10.1f wall us/round trip %10.1f CPU us/round trip (this side)\n", name,
           (t1 - t0) * 1e6 / iters, (c1 - c0) * 1e6 / iters);
}

int main(int argc, char **argv) {
    int iters = argc > 1 ? atoi(argv[1]) : 20000;
    /* pipes */
    int a[2], b[2];
    if (pipe(a) || pipe(b)) return 1;
    if (fork() == 0) { close(a[1]); close(b[0]); echo(a[0], b[1]); }
    close(a[0]); close(b[1]);
    measure("pipe", a[1], b[0], iters);
    close(a[1]); close(b[0]); wait(NULL);
    /* unix socket pair */
    int s[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, s)) return 1;
    if (fork() == 0) { close(s[0]); echo(s[1], s[1]); }
    close(s[1]);
    measure("unix socket", s[0], s[0], iters);
    close(s[0]); wait(NULL);
    /* loopback TCP */
    int l = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof addr;
    if (bind(l, (struct sockaddr *)&addr, sizeof addr) || listen(l, 1) ||
        getsockname(l, (struct sockaddr *)&addr, &len)) return 1;
    if (fork() == 0) {
        int c = socket(AF_INET, SOCK_STREAM, 0);
        if (connect(c, (struct sockaddr *)&addr, sizeof addr)) _exit(1);
        setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        echo(c, c);
    }
    int c = accept(l, NULL, NULL);
    setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    measure("loopback TCP", c, c, iters);
    close(c); wait(NULL);
    return 0;
}
