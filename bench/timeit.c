/* Runs a command and appends one line "wall_us user_us sys_us csw exit" to OUT, with
 * microsecond resolution (GNU time's %U/%S only has 10 ms). user/sys and csw (voluntary plus
 * involuntary context switches) come from wait4 of the command, so they cover all its threads
 * and every descendant it reaped itself (for `tarneeb play`: its bots).
 *
 *   timeit OUT COMMAND [ARGS...]
 *
 * Exits with the command's exit code. Build: gcc -O2 -o timeit timeit.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long tv_us(struct timeval t) { return (long long)t.tv_sec * 1000000LL + t.tv_usec; }

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: timeit OUT COMMAND [ARGS...]\n");
        return 2;
    }
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 1;
    }
    if (pid == 0) {
        execvp(argv[2], &argv[2]);
        perror(argv[2]);
        _exit(127);
    }
    int status;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0) {
        if (errno != EINTR) {
            perror("wait4");
            return 1;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    long long wall = (long long)(b.tv_sec - a.tv_sec) * 1000000LL + (b.tv_nsec - a.tv_nsec) / 1000;
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    FILE *out = fopen(argv[1], "a");
    if (!out) {
        perror(argv[1]);
        return 1;
    }
    fprintf(out, "%lld %lld %lld %ld %d\n", wall, tv_us(ru.ru_utime), tv_us(ru.ru_stime),
            ru.ru_nvcsw + ru.ru_nivcsw, code);
    fclose(out);
    return code;
}
