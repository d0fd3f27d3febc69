/*
 * chdb-server: runs clickhouse-local from libchdb.so with the given arguments.
 * Sluice passes a never-ending query after SYSTEM START LISTEN HTTP/TCP, which turns
 * clickhouse-local into a real ClickHouse server (see ../shared/notes/infrastructure.md).
 *
 * usage: chdb-server LIBCHDB_SO [clickhouse-local arguments...]
 *
 * A watcher thread ends the server when the process that started it dies (even by SIGKILL),
 * so a crashed test JVM or dev stack never leaves a ClickHouse behind.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static pid_t parent;

static void *stop_when_orphaned(void *unused) {
  (void) unused;
  while (getppid() == parent) sleep(1);
  kill(getpid(), SIGTERM); /* ClickHouse's own graceful stop */
  sleep(10);
  _exit(1);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s LIBCHDB_SO [clickhouse-local arguments...]\n", argv[0]);
    return 2;
  }
  parent = getppid();
  pthread_t watcher;
  pthread_create(&watcher, NULL, stop_when_orphaned, NULL);

  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL);
  if (!lib) {
    fprintf(stderr, "chdb-server: cannot load %s: %s\n", argv[1], dlerror());
    return 2;
  }
  void *(*query_cmdline)(int, char **) = (void *(*)(int, char **)) dlsym(lib, "chdb_query_cmdline");
  if (!query_cmdline) {
    fprintf(stderr, "chdb-server: %s has no chdb_query_cmdline\n", argv[1]);
    return 2;
  }
  argv[1] = "clickhouse";
  query_cmdline(argc - 1, argv + 1);
  return 0;
}
