/*
 * A slow disk for one folder, preloaded into a Node process (LD_PRELOAD; test/helpers/slow-disk.ts builds
 * it): every fsync and fdatasync of a file under SLOW_DISK_DIR (SQLite's commits, the work journal's
 * flush, Node's fs.fsync on libuv's threads) waits SLOW_DISK_MS first, as a busy laptop disk makes a
 * flush wait, and once done is noted in SLOW_DISK_LOG, a line each: "main" or "pool" (the process's main
 * thread, whose every answer waits behind it, or another), a space, the file's path. Other files are
 * untouched.
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

/* The file under SLOW_DISK_DIR that `fd` is, in `target`; 0 when it is not one. */
static int watched(int fd, char *target) {
  const char *dir = getenv("SLOW_DISK_DIR");
  if (!dir || !*dir) return 0;
  char link[64];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, target, PATH_MAX - 1);
  if (n < 0) return 0;
  target[n] = 0;
  return strncmp(target, dir, strlen(dir)) == 0;
}

static void wait_first(void) {
  const char *ms = getenv("SLOW_DISK_MS");
  long wait = ms ? atol(ms) : 0;
  if (wait <= 0) return;
  struct timespec pause = {wait / 1000, (wait % 1000) * 1000000L};
  nanosleep(&pause, NULL);
}

static void note(const char *target) {
  const char *log = getenv("SLOW_DISK_LOG");
  if (!log || !*log) return;
  int out = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (out < 0) return;
  char line[PATH_MAX + 8];
  int length = snprintf(line, sizeof line, "%s %s\n", gettid() == getpid() ? "main" : "pool", target);
  ssize_t ignored = write(out, line, (size_t)length);
  (void)ignored;
  close(out);
}

static int flush(int fd, const char *name) {
  int (*real)(int) = (int (*)(int))dlsym(RTLD_NEXT, name);
  char target[PATH_MAX + 1];
  int slow = watched(fd, target);
  if (slow) wait_first();
  int result = real(fd);
  if (slow) note(target);
  return result;
}

int fsync(int fd) { return flush(fd, "fsync"); }

int fdatasync(int fd) { return flush(fd, "fdatasync"); }
