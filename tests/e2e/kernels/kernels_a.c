/* Test kernels with the _catalyst_pyface_<entry> ABI that
 * cross-compile-targets generates: void(void *results, void *args), args an
 * array of pointers to memref descriptors, results the packed descriptors. */
#define _GNU_SOURCE /* memfd_create, fallocate */
#include "ExecutorRuntime/Plugin.h"
#include "memref.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>


/* k: y = 2 * x */
void _catalyst_pyface_k(void *results, void *args) {
  Memref1D *x = ((Memref1D **)args)[0];
  Memref1D *y = (Memref1D *)results;
  double *data = malloc(sizeof(double) * x->size);
  for (int64_t i = 0; i < x->size; ++i)
    data[i] = 2 * x->aligned[x->offset + i * x->stride];
  *y = (Memref1D){data, data, 0, x->size, 1};
}

/* square: y = x * x */
void _catalyst_pyface_square(void *results, void *args) {
  Memref1D *x = ((Memref1D **)args)[0];
  Memref1D *y = (Memref1D *)results;
  double *data = malloc(sizeof(double) * x->size);
  for (int64_t i = 0; i < x->size; ++i) {
    double v = x->aligned[x->offset + i * x->stride];
    data[i] = v * v;
  }
  *y = (Memref1D){data, data, 0, x->size, 1};
}

/* evens: a strided result, every other element of [x, -x] interleaved
 * (x[0], x[1], ...), as a view with stride 2. */
void _catalyst_pyface_evens(void *results, void *args) {
  Memref1D *x = ((Memref1D **)args)[0];
  Memref1D *y = (Memref1D *)results;
  double *data = malloc(sizeof(double) * 2 * x->size);
  for (int64_t i = 0; i < x->size; ++i) {
    data[2 * i] = x->aligned[x->offset + i * x->stride];
    data[2 * i + 1] = -data[2 * i];
  }
  *y = (Memref1D){data, data, 0, x->size, 2};
}

/* identity: returns its input buffer (the executor must not free it twice). */
void _catalyst_pyface_identity(void *results, void *args) {
  *(Memref1D *)results = *((Memref1D **)args)[0];
}

/* crash: a kernel that segfaults. */
void _catalyst_pyface_crash(void *results, void *args) {
  (void)results;
  (void)args;
  *(volatile int *)(uintptr_t)8 = 1;
}

/* rendezvous: returns once two launches are inside it at the same time;
 * aborts after 10 s otherwise, so launches that do not overlap fail. */
static volatile int arrived;
void _catalyst_pyface_rendezvous(void *results, void *args) {
  (void)results;
  (void)args;
  __atomic_add_fetch(&arrived, 1, __ATOMIC_SEQ_CST);
  for (int i = 0; i < 10000; ++i) {
    if (__atomic_load_n(&arrived, __ATOMIC_SEQ_CST) >= 2)
      return;
    usleep(1000);
  }
  abort();
}

/* nap: sleeps 2 s (to kill the server in the middle of it). */
void _catalyst_pyface_nap(void *results, void *args) {
  (void)results;
  (void)args;
  sleep(2);
}

/* echo_reversed: an ORC wrapper function for executor.call. */
ExecutorWrapperBuffer echo_reversed(const char *data, size_t size) {
  ExecutorWrapperBuffer reply;
  char *out = executor_reply(&reply, size);
  for (size_t i = 0; i < size && out; ++i)
    out[i] = data[size - 1 - i];
  return reply;
}

/* sum: y = {sum of x}: a large input, a one-element result. Four
 * accumulators, so that the loop runs at memory speed and a benchmark's
 * figure is the transfer, not the additions' latency. */
void _catalyst_pyface_sum(void *results, void *args) {
  Memref1D *x = ((Memref1D **)args)[0];
  Memref1D *y = (Memref1D *)results;
  double *data = malloc(sizeof(double));
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  const double *v = x->aligned + x->offset;
  int64_t i = 0;
  if (x->stride == 1)
    for (; i + 4 <= x->size; i += 4) {
      s0 += v[i];
      s1 += v[i + 1];
      s2 += v[i + 2];
      s3 += v[i + 3];
    }
  for (; i < x->size; ++i)
    s0 += v[i * x->stride];
  data[0] = (s0 + s1) + (s2 + s3);
  *y = (Memref1D){data, data, 0, 1, 1};
}

/* iota: y = {0, 1, ..., x[0] - 1}: a one-element input, a large result
 * (32-bit indices convert to doubles in vector registers). */
void _catalyst_pyface_iota(void *results, void *args) {
  Memref1D *x = ((Memref1D **)args)[0];
  Memref1D *y = (Memref1D *)results;
  int32_t n = (int32_t)x->aligned[x->offset];
  double *data = malloc(sizeof(double) * (n > 0 ? n : 1));
  for (int32_t i = 0; i < n; ++i)
    data[i] = (double)i;
  *y = (Memref1D){data, data, 0, n, 1};
}

/* grow: y = {x, x} built with calloc, realloc and free (the allocation
 * functions a Unix-socket session links to the executor's kernel heap). */
void _catalyst_pyface_grow(void *results, void *args) {
  Memref1D *x = ((Memref1D **)args)[0];
  Memref1D *y = (Memref1D *)results;
  int64_t n = x->size;
  double *scratch = malloc(sizeof(double) * (n ? n : 1));
  double *data = calloc((size_t)(n ? n : 1), sizeof(double));
  for (int64_t i = 0; i < n; ++i)
    scratch[i] = data[i] + x->aligned[x->offset + i * x->stride];
  data = realloc(data, sizeof(double) * 2 * (n ? n : 1));
  for (int64_t i = 0; i < n; ++i)
    data[i] = data[n + i] = scratch[i];
  free(scratch);
  *y = (Memref1D){data, data, 0, 2 * n, 1};
}

/* Kernels for the limits and privilege tests (SecurityTest.cpp). */

/* hog: y = [1] when x[0] bytes could be allocated and touched, else [0]. */
void _catalyst_pyface_hog(void *results, void *args) {
  Memref1D *x = ((Memref1D **)args)[0];
  Memref1D *y = (Memref1D *)results;
  size_t bytes = (size_t)x->aligned[x->offset];
  char *block = malloc(bytes);
  if (block)
    memset(block, 1, bytes);
  /* Keeps the compiler from taking the allocation away. */
  __asm__ volatile("" : : "r"(block) : "memory");
  double *data = malloc(sizeof(double));
  data[0] = block ? 1 : 0;
  free(block);
  *y = (Memref1D){data, data, 0, 1, 1};
}

/* spin: never returns. */
void _catalyst_pyface_spin(void *results, void *args) {
  (void)results;
  (void)args;
  for (volatile int forever = 1; forever;)
    ;
}

/* whoami: y = [uid, gid, no_new_privs]. */
#include <sys/prctl.h>
void _catalyst_pyface_whoami(void *results, void *args) {
  (void)args;
  Memref1D *y = (Memref1D *)results;
  double *data = malloc(3 * sizeof(double));
  data[0] = getuid();
  data[1] = getgid();
  data[2] = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
  *y = (Memref1D){data, data, 0, 3, 1};
}

/* stubborn: ignores SIGTERM, then sleeps for ever. */
#include <signal.h>
void _catalyst_pyface_stubborn(void *results, void *args) {
  (void)results;
  (void)args;
  signal(SIGTERM, SIG_IGN);
  for (;;)
    sleep(1);
}

/* scaled: (a: f64, x: memref, n: i32) -> (y = a * x + n, the sum of y: f64,
 * the length of x: i32). Scalars come by pointer; the results are a struct
 * of a descriptor and two scalars, laid out as C lays it out. */
struct ScaledResults {
  Memref1D y;
  double total;
  int32_t count;
};
void _catalyst_pyface_scaled(void *results, void *args) {
  double a = *((double **)args)[0];
  Memref1D *x = ((Memref1D **)args)[1];
  int32_t n = *((int32_t **)args)[2];
  struct ScaledResults *r = (struct ScaledResults *)results;
  double *data = malloc(sizeof(double) * (x->size ? x->size : 1));
  double total = 0;
  for (int64_t i = 0; i < x->size; ++i) {
    data[i] = a * x->aligned[x->offset + i * x->stride] + n;
    total += data[i];
  }
  r->y = (Memref1D){data, data, 0, x->size, 1};
  r->total = total;
  r->count = (int32_t)x->size;
}

/* until_sigterm: y = x * x once the session has had SIGTERM (its server
 * stops). It creates "started" in its working directory (the session's
 * asset directory) when it begins, so a test knows when to send it; the
 * session's own SIGTERM handler still runs (chained). */
static volatile sig_atomic_t termed;
static struct sigaction beforeTerm;
static void onTerm(int signal) {
  termed = 1;
  if (beforeTerm.sa_handler != SIG_DFL && beforeTerm.sa_handler != SIG_IGN)
    beforeTerm.sa_handler(signal);
}
void _catalyst_pyface_until_sigterm(void *results, void *args) {
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = onTerm;
  sigaction(SIGTERM, &sa, &beforeTerm);
  FILE *started = fopen("started", "w");
  if (started)
    fclose(started);
  while (!termed)
    usleep(1000);
  sigaction(SIGTERM, &beforeTerm, NULL);
  _catalyst_pyface_square(results, args);
}

/* open_pipes: y = [the pipes open at fd 3 and above, not counting the one
 * that carries this process's standard output]. */
#include <sys/stat.h>
void _catalyst_pyface_open_pipes(void *results, void *args) {
  (void)args;
  Memref1D *y = (Memref1D *)results;
  double *data = malloc(sizeof(double));
  struct stat out;
  int haveOut = fstat(1, &out) == 0 && S_ISFIFO(out.st_mode);
  int pipes = 0;
  for (int fd = 3; fd < 4096; ++fd) {
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode) &&
        !(haveOut && st.st_ino == out.st_ino && st.st_dev == out.st_dev))
      ++pipes;
  }
  data[0] = pipes;
  *y = (Memref1D){data, data, 0, 1, 1};
}

/* forge: writes lines that look like the server's own log to stderr and
 * stdout; y = [1]. */
void _catalyst_pyface_forge(void *results, void *args) {
  (void)args;
  Memref1D *y = (Memref1D *)results;
  fprintf(stderr, "\nexecutor-server: listener: forged on stderr \x1b[31mred\n");
  fflush(stderr);
  printf("executor-server: listener: forged on stdout\n");
  fflush(stdout);
  double *data = malloc(sizeof(double));
  data[0] = 1;
  *y = (Memref1D){data, data, 0, 1, 1};
}

/* forbidden: y = [errno of ptrace(PTRACE_TRACEME), unshare(CLONE_NEWUSER),
 * process_vm_readv of itself, keyctl, bpf; then fork() (1: a child ran)]. */
#include <errno.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
static double errnoOf(long rc) { return rc < 0 ? errno : 0; }
void _catalyst_pyface_forbidden(void *results, void *args) {
  (void)args;
  Memref1D *y = (Memref1D *)results;
  double *data = malloc(6 * sizeof(double));
  data[0] = errnoOf(ptrace(PTRACE_TRACEME, 0, 0, 0));
  data[1] = errnoOf(syscall(SYS_unshare, 0x10000000 /* CLONE_NEWUSER */));
  char from[8] = "secret", to[8];
  struct iovec local = {to, sizeof(to)}, remote = {from, sizeof(from)};
  data[2] = errnoOf(
      syscall(SYS_process_vm_readv, getpid(), &local, 1, &remote, 1, 0));
  data[3] = errnoOf(syscall(SYS_keyctl, 0 /* KEYCTL_GET_KEYRING_ID */, -1, 0));
  data[4] = errnoOf(syscall(SYS_bpf, 0, 0, 0));
  pid_t child = fork();
  if (child == 0)
    _exit(7);
  int status = 0;
  data[5] = child > 0 && waitpid(child, &status, 0) == child &&
            WIFEXITED(status) && WEXITSTATUS(status) == 7;
  *y = (Memref1D){data, data, 0, 6, 1};
}

/* Kernels for the session sandbox tests (issue 22, item 2). */
#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>

static double *results1(Memref1D *y, int n) {
  double *data = calloc((size_t)n, sizeof(double));
  *y = (Memref1D){data, data, 0, n, 1};
  return data;
}

/* detach: forks a process that leaves the session's process tree (a second
 * fork, a session of its own, SIGTERM and SIGHUP ignored) and sleeps for
 * ever, named "exorphan<x[0]>" (what a test looks for in the host's /proc);
 * y = [1] once it runs. */
void _catalyst_pyface_detach(void *results, void *args) {
  Memref1D *x = ((Memref1D **)args)[0];
  double *data = results1((Memref1D *)results, 1);
  char name[16];
  snprintf(name, sizeof(name), "exorphan%d", (int)x->aligned[x->offset]);
  int ready[2];
  if (pipe(ready) != 0)
    return;
  pid_t child = fork();
  if (child == 0) {
    setsid();
    if (fork() != 0)
      _exit(0);
    signal(SIGTERM, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    prctl(PR_SET_NAME, name, 0, 0, 0);
    (void)!write(ready[1], "r", 1);
    for (;;)
      pause();
  }
  close(ready[1]);
  char c;
  data[0] = child > 0 && read(ready[0], &c, 1) == 1;
  close(ready[0]);
  if (child > 0)
    waitpid(child, NULL, 0);
}

/* fork_bomb: forks up to x[0] children that wait, until fork fails;
 * y = [the children forked, the errno of the fork that failed (0: none)];
 * the children are ended and reaped before it returns. */
void _catalyst_pyface_fork_bomb(void *results, void *args) {
  Memref1D *x = ((Memref1D **)args)[0];
  double *data = results1((Memref1D *)results, 2);
  int wanted = (int)x->aligned[x->offset];
  pid_t *children = calloc((size_t)wanted + 1, sizeof(pid_t));
  int count = 0;
  while (count < wanted) {
    pid_t child = fork();
    if (child == 0) {
      for (;;)
        pause();
    }
    if (child < 0) {
      data[1] = errno;
      break;
    }
    children[count++] = child;
  }
  data[0] = count;
  for (int i = 0; i < count; ++i) {
    kill(children[i], SIGKILL);
    waitpid(children[i], NULL, 0);
  }
  free(children);
}

/* shm_hog: y = [1] when x[0] bytes of MAP_SHARED | MAP_ANONYMOUS memory
 * could be mapped and every page written, else [0]. */
void _catalyst_pyface_shm_hog(void *results, void *args) {
  Memref1D *x = ((Memref1D **)args)[0];
  double *data = results1((Memref1D *)results, 1);
  size_t bytes = (size_t)x->aligned[x->offset];
  char *block = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (block == MAP_FAILED)
    return;
  for (size_t at = 0; at < bytes; at += 4096)
    block[at] = 1;
  data[0] = 1;
  munmap(block, bytes);
}

/* mark_tmp: creates /tmp/executor-mark-<x[0]>; y = [1] when it could. */
void _catalyst_pyface_mark_tmp(void *results, void *args) {
  Memref1D *x = ((Memref1D **)args)[0];
  double *data = results1((Memref1D *)results, 1);
  char path[64];
  snprintf(path, sizeof(path), "/tmp/executor-mark-%d",
           (int)x->aligned[x->offset]);
  int fd = open(path, O_WRONLY | O_CREAT, 0600);
  data[0] = fd >= 0;
  if (fd >= 0)
    close(fd);
}

/* trespass: what another session can reach of session A, given A's PID as
 * the host sees it (x[0]) and the mark A made in its /tmp (x[1]):
 * y = [asset directories of other sessions it sees next to its own, files
 * in them it could open for reading, files it overwrote ("pwned"),
 * 1 if kill(A, SIGKILL) succeeded, processes it sees in /proc,
 * 1 if A's /tmp mark is visible]. */
void _catalyst_pyface_trespass(void *results, void *args) {
  Memref1D *x = ((Memref1D **)args)[0];
  double *data = results1((Memref1D *)results, 6);
  pid_t victim = (pid_t)x->aligned[x->offset];
  int mark = (int)x->aligned[x->offset + x->stride];
  const char *own = getenv("EXECUTOR_ASSET_DIR");
  if (own) {
    char root[4096];
    snprintf(root, sizeof(root), "%s", own);
    char *slash = strrchr(root, '/');
    const char *ownName = slash ? slash + 1 : root;
    char ownCopy[256];
    snprintf(ownCopy, sizeof(ownCopy), "%s", ownName);
    if (slash)
      *slash = 0;
    DIR *dir = opendir(root);
    struct dirent *entry;
    while (dir && (entry = readdir(dir))) {
      if (strncmp(entry->d_name, "executor-assets-", 16) != 0 ||
          strcmp(entry->d_name, ownCopy) == 0)
        continue;
      data[0] += 1;
      char other[4400];
      snprintf(other, sizeof(other), "%s/%s", root, entry->d_name);
      DIR *inner = opendir(other);
      struct dirent *file;
      while (inner && (file = readdir(inner))) {
        if (file->d_name[0] == '.')
          continue;
        char path[4700];
        snprintf(path, sizeof(path), "%s/%s", other, file->d_name);
        int fd = open(path, O_RDONLY);
        if (fd >= 0) {
          data[1] += 1;
          close(fd);
        }
        fd = open(path, O_WRONLY);
        if (fd >= 0) {
          data[2] += pwrite(fd, "pwned", 5, 0) == 5;
          close(fd);
        }
      }
      if (inner)
        closedir(inner);
    }
    if (dir)
      closedir(dir);
  }
  data[3] = kill(victim, SIGKILL) == 0;
  DIR *proc = opendir("/proc");
  struct dirent *entry;
  while (proc && (entry = readdir(proc)))
    if (entry->d_name[0] >= '0' && entry->d_name[0] <= '9')
      data[4] += 1;
  if (proc)
    closedir(proc);
  char path[64];
  snprintf(path, sizeof(path), "/tmp/executor-mark-%d", mark);
  data[5] = access(path, F_OK) == 0;
}

/* Kernels for the sandbox's third round (issue 41). */
#include <sys/ioctl.h>
#include <termios.h>

/* terminal: what a kernel can do to the terminal the server was started
 * from. y = [errno of open("/dev/tty") (0: it opened), descriptors it holds
 * that are terminals, TIOCSTI pushes that succeeded on any of them or on
 * /dev/tty, errno of TIOCSTI and of TIOCLINUX on standard input]. It also
 * writes an escape sequence (ESC ] 0 ; ... BEL, a window title) to every
 * terminal and pipe it holds, which a test looks for on the terminal. */
void _catalyst_pyface_terminal(void *results, void *args) {
  (void)args;
  double *data = results1((Memref1D *)results, 5);
  static const char pushed[] = "echo executor-pwned\n";
  static const char title[] = "\033]0;executor-pwned\007\n";
  int tty = open("/dev/tty", O_RDWR | O_NOCTTY);
  data[0] = tty < 0 ? errno : 0;
  for (int fd = 0; fd < 1024; ++fd) {
    struct stat st;
    if (fd == tty || fstat(fd, &st) != 0)
      continue;
    if (isatty(fd)) {
      data[1] += 1;
      for (const char *c = pushed; *c; ++c)
        data[2] += ioctl(fd, TIOCSTI, c) == 0;
    }
    if (isatty(fd) || S_ISFIFO(st.st_mode))
      (void)!write(fd, title, sizeof(title) - 1);
  }
  if (tty >= 0) {
    for (const char *c = pushed; *c; ++c)
      data[2] += ioctl(tty, TIOCSTI, c) == 0;
    (void)!write(tty, title, sizeof(title) - 1);
    close(tty);
  }
  char c = 'x';
  data[3] = ioctl(0, TIOCSTI, &c) == 0 ? 0 : errno;
  char console = 0; /* TIOCL_GETSHIFTSTATE's buffer */
  data[4] = ioctl(0, TIOCLINUX, &console) == 0 ? 0 : errno;
}

/* reach_host: y = [errno of a TCP connect to 127.0.0.1:x[0] (0: it
 * connected), errno of a raw ICMP socket (0: made), errno of a netlink
 * socket (0: made)]. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
void _catalyst_pyface_reach_host(void *results, void *args) {
  Memref1D *x = ((Memref1D **)args)[0];
  double *data = results1((Memref1D *)results, 3);
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in to = {0};
  to.sin_family = AF_INET;
  to.sin_port = htons((uint16_t)x->aligned[x->offset]);
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  data[0] = fd < 0 ? errno
            : connect(fd, (struct sockaddr *)&to, sizeof(to)) == 0 ? 0
                                                                    : errno;
  if (fd >= 0)
    close(fd);
  int raw = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
  data[1] = raw < 0 ? errno : 0;
  if (raw >= 0)
    close(raw);
  int link = socket(AF_NETLINK, SOCK_RAW, 0);
  data[2] = link < 0 ? errno : 0;
  if (link >= 0)
    close(link);
}

/* flood: writes x[0] MiB of output lines to standard output and the same
 * to every pipe it holds (its log's among them); y = [1]. */
void _catalyst_pyface_flood(void *results, void *args) {
  Memref1D *x = ((Memref1D **)args)[0];
  double *data = results1((Memref1D *)results, 1);
  static char line[1024];
  memset(line, 'f', sizeof(line) - 1);
  line[sizeof(line) - 1] = '\n';
  long lines = (long)x->aligned[x->offset] * 1024;
  for (int fd = 1; fd < 1024; ++fd) {
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode))
      continue;
    for (long i = 0; i < lines; ++i)
      if (write(fd, line, sizeof(line)) != (ssize_t)sizeof(line))
        break;
  }
  data[0] = 1;
}

/* hoard: memory and files no mapping holds. x = [MiB of memfd to grow with
 * fallocate and never map, MiB of SysV shared memory to make, touch and
 * detach, MiB to write to a file in the host's /run/lock, MiB to write to a
 * file in the asset directory]; y = [MiB of memfd it got, MiB of SysV shared
 * memory it got, errno of the host file (0: all written), MiB of the asset
 * file it wrote]. The memfd stays open and the segments stay until the
 * session ends. */
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
static double write_mib(int fd, long mib, int *error) {
  static char chunk[1 << 20];
  long done = 0;
  *error = 0;
  for (; done < mib; ++done)
    if (write(fd, chunk, sizeof(chunk)) != (ssize_t)sizeof(chunk)) {
      *error = errno;
      break;
    }
  return (double)done;
}
void _catalyst_pyface_hoard(void *results, void *args) {
  Memref1D *x = ((Memref1D **)args)[0];
  double *data = results1((Memref1D *)results, 4);
  const long step = 64;
  long memfdMib = (long)x->aligned[x->offset];
  long sysvMib = (long)x->aligned[x->offset + x->stride];
  long hostMib = (long)x->aligned[x->offset + 2 * x->stride];
  long assetMib = (long)x->aligned[x->offset + 3 * x->stride];
  long got = 0;
  int fd = memfd_create("hoard", MFD_CLOEXEC);
  while (fd >= 0 && got < memfdMib &&
         fallocate(fd, 0, (off_t)got << 20, (off_t)step << 20) == 0)
    got += step;
  data[0] = (double)got;
  got = 0;
  while (got < sysvMib) {
    int id = shmget(IPC_PRIVATE, (size_t)step << 20, IPC_CREAT | 0600);
    if (id < 0)
      break;
    void *at = shmat(id, NULL, 0);
    if (at == (void *)-1)
      break;
    memset(at, 1, (size_t)step << 20);
    shmdt(at);
    got += step;
  }
  data[1] = (double)got;
  int error = 0;
  int host = open("/run/lock/executor-hoard", O_WRONLY | O_CREAT | O_TRUNC,
                  0600);
  if (host < 0)
    error = errno;
  else {
    write_mib(host, hostMib, &error);
    close(host);
  }
  data[2] = (double)error;
  int asset = open("hoard", O_WRONLY | O_CREAT | O_TRUNC, 0600);
  data[3] = asset < 0 ? -1 : write_mib(asset, assetMib, &error);
  if (asset >= 0)
    close(asset);
  unlink("hoard");
}

/* unlisted: y = [errno of ioprio_get (a call outside the seccomp filter's
 * allow-list), perf_event_open, userfaultfd, io_uring_setup, mount]. */
void _catalyst_pyface_unlisted(void *results, void *args) {
  (void)args;
  double *data = results1((Memref1D *)results, 5);
  data[0] = errnoOf(syscall(SYS_ioprio_get, 1 /* IOPRIO_WHO_PROCESS */, 0));
  data[1] = errnoOf(syscall(SYS_perf_event_open, NULL, 0, -1, -1, 0));
  data[2] = errnoOf(syscall(SYS_userfaultfd, 0));
  data[3] = errnoOf(syscall(SYS_io_uring_setup, 1, NULL));
  data[4] = errnoOf(syscall(SYS_mount, "none", "/tmp", "tmpfs", 0, NULL));
}
