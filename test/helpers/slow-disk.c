/*
 * A slow disk for one folder, preloaded into a Node process (LD_PRELOAD; test/helpers/slow-disk.ts builds
 * it): every fsync and fdatasync of a file under SLOW_DISK_DIR (SQLite's commits, the work journal's
 * flush, Node's fs.fsync on libuv's threads) is noted in SLOW_DISK_LOG, a line each: "main" or "pool" (the
 * process's main thread, whose every answer waits behind it, or another), a space, the file's path. Each
 * waits SLOW_DISK_MS first, as a busy laptop disk makes a flush wait. Other files are untouched.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void slow(int fd) {
  const char *dir = getenv("SLOW_DISK_DIR");
  if (!dir || !*dir) return;
  char link[64], target[PATH_MAX + 1];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, target, PATH_MAX - 1);
  if (n < 0) return;
  target[n] = 0;
  if (strncmp(target, dir, strlen(dir)) != 0) return;
  const char *log = getenv("SLOW_DISK_LOG");
  if (log && *log) {
    int out = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (out >= 0) {
      char line[PATH_MAX + 8];
      int length = snprintf(line, sizeof line, "%s %s\n", gettid() == getpid() ? "main" : "pool", target);
      ssize_t ignored = write(out, line, (size_t)length);
      (void)ignored;
      close(out);
    }
  }
  const char *ms = getenv("SLOW_DISK_MS");
  long wait = ms ? atol(ms) : 0;
  if (wait <= 0) return;
  struct timespec pause = {wait / 1000, (wait % 1000) * 1000000L};
  nanosleep(&pause, NULL);
}

int fsync(int fd) {
  static int (*real)(int);
  if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
  slow(fd);
  return real(fd);
}

int fdatasync(int fd) {
  static int (*real)(int);
  if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
  slow(fd);
  return real(fd);
}
