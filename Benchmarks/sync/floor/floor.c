/*
 * floor: the "format floor" of a first sync.
 *
 * What it measures: only the file-system work that the mirror format itself asks for
 * (docs/MIRROR-FORMAT.md) when a folder is synced for the first time to an empty mirror,
 * with no daemon, no database, no batches and no bookkeeping of its own. Its time is how
 * fast any implementation of the format could be on this machine; it is set beside
 * `rsync -a`, which does less (no hashing, no store, no view, no log, no syncfs), to judge
 * whether a performance target for ubqd is reachable at all. So it is written to be as fast
 * as careful C makes it: anything slower here would flatter the daemon.
 *
 * The phases, in the order the format requires (each one timed):
 *   1 list       walk SOURCE (one thread, openat/fdopendir/readdir, d_type)
 *   2 copy+hash  THREADS threads, chunks of 128 files: read each file once, SHA-256 it and
 *                write it to MIRROR/store/incoming/t<thread>-<chunk>/<n>.part
 *   3 syncfs     the staged objects are durable before any is named
 *   4 store      rename each into MIRROR/store/sha256/<h2>/<hash> (one thread: cross-folder
 *                renames serialize in the kernel anyway); a duplicate's copy is unlinked
 *   5 view       MIRROR/containers/C/current/D/: the folder tree, and a hard link of each
 *                file's object (THREADS threads, by folder)
 *   6 log        MIRROR/containers/C/log/D.ndjson: one line per folder and file, written
 *                from memory in a few large writes
 *   7 syncfs     renames, links and log durable
 *
 * With -o ("overlap"), phases 4 and 5 run at the same time: one thread renames as in 4
 * while THREADS threads build the view, each linking a file from wherever its object is
 * named at that moment (its staging name, or its final name once renamed). Both phases
 * only need the objects durable, which the syncfs before them gives; the renames take a
 * kernel mutex that the view's mkdir and linkat do not. Without -o the phases run one
 * after the other.
 *
 * Build: cc -O2 -Wall -Wextra -o floor floor.c -lcrypto -lpthread
 * Usage: floor [-o] [-j THREADS] SOURCE MIRROR   (MIRROR empty or absent; see README.md)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>

#define CONTAINER "C"
#define DEVICE "D"
#define VIEW "containers/" CONTAINER "/current/" DEVICE
#define CHUNK 128               /* files per staging folder, as the daemon's StagingFolders */
#define BUF_SIZE (1 << 20)      /* per thread; most files fit in one read */
#define MAX_THREADS 256
#define LOG_FLUSH (8u << 20)    /* the log goes out in writes of about this size */
#define ARENA_BLOCK (1u << 20)

struct folder {
    const char *name;           /* last component; "" for SOURCE itself */
    const char *rel;            /* relative to SOURCE; "" for SOURCE itself */
    uint32_t parent;
    uint32_t mode;              /* st_mode & 07777 */
    size_t first_file, nfiles;  /* a folder's files are contiguous in g.files */
};

struct file {
    const char *name;
    uint32_t folder;
    uint32_t mode;
    uint64_t size;
    unsigned char hash[32];
};

struct worker {
    unsigned id;
    pthread_t thread;
    unsigned char *buf;
    EVP_MD_CTX *md;
    uint32_t src_folder;        /* the source folder src_fd is open on, if src_fd >= 0 */
    int src_fd;
};

static struct {
    const char *source, *mirror;
    unsigned threads;
    bool overlap;               /* -o: store and view at the same time */
    struct folder *folders;
    size_t nfolders, cap_folders;
    struct file *files;
    size_t nfiles, cap_files;
    size_t skipped;             /* symlinks, devices, sockets, fifos: counted, not synced */
    EVP_MD *sha256;
    int source_fd, mirror_fd, incoming_fd, objects_fd, view_fd;
    int h2_fd[256];
    unsigned *chunk_thread;     /* which thread staged chunk c: its folder is t<thread>-<c> */
    size_t *owner;              /* per file: the first file with its hash (its copy is kept) */
    size_t nchunks;
    atomic_int noatime;         /* O_NOATIME until the kernel refuses it (not our file) */
    atomic_size_t next;         /* the parallel phases' shared work counter */
    atomic_uchar *made;         /* view folder made: its children may be made below it */
    void (*phase)(struct worker *);
    struct worker workers[MAX_THREADS];
} g;

/* ---- errors ---------------------------------------------------------------------- */

static void die(const char *what, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 2, 3)));

/* Prints `floor: <what> <path>: <strerror>` and exits 1 (from any thread: a one-shot
 * program has nothing to unwind). */
static void die(const char *what, const char *fmt, ...)
{
    int e = errno;
    char path[3 * PATH_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(path, sizeof path, fmt, ap);
    va_end(ap);
    fprintf(stderr, "floor: %s %s: %s\n", what, path, strerror(e));
    exit(1);
}

static const char *sep(const char *rel) { return *rel ? "/" : ""; }

/* A source file or folder (name NULL) in an error message. */
static void die_source(const char *what, uint32_t folder, const char *name)
    __attribute__((noreturn));
static void die_source(const char *what, uint32_t folder, const char *name)
{
    const char *rel = g.folders[folder].rel;
    die(what, "%s%s%s%s%s", g.source, *rel ? "/" : "", rel, name ? "/" : "", name ? name : "");
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p) {
        errno = ENOMEM;
        die("allocate", "%zu bytes", n);
    }
    return p;
}

static void *grow(void *p, size_t *cap, size_t elem)
{
    *cap = *cap ? *cap * 2 : 1024;
    p = realloc(p, *cap * elem);
    if (!p) {
        errno = ENOMEM;
        die("allocate", "%zu bytes", *cap * elem);
    }
    return p;
}

/* ---- names: one arena, freed at exit (100,000 mallocs would be measurable) -------- */

static struct block { struct block *next; } *arena_blocks;
static char *arena_at;
static size_t arena_left;

static char *arena_alloc(size_t n)
{
    if (n > arena_left) {
        size_t size = n > ARENA_BLOCK ? n : ARENA_BLOCK;
        struct block *b = xmalloc(sizeof *b + size);
        b->next = arena_blocks;
        arena_blocks = b;
        arena_at = (char *)(b + 1);
        arena_left = size;
    }
    char *p = arena_at;
    arena_at += n;
    arena_left -= n;
    return p;
}

/* a, then "/" and b when both are non-empty, as one string in the arena. */
static const char *arena_join(const char *a, const char *b, size_t blen)
{
    size_t alen = strlen(a);
    char *p = arena_alloc(alen + blen + 2), *o = p;
    memcpy(o, a, alen);
    o += alen;
    if (alen && blen)
        *o++ = '/';
    memcpy(o, b, blen);
    o[blen] = 0;
    return p;
}

static void arena_free(void)
{
    while (arena_blocks) {
        struct block *next = arena_blocks->next;
        free(arena_blocks);
        arena_blocks = next;
    }
}

/* ---- small helpers --------------------------------------------------------------- */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void to_hex(const unsigned char *hash, char hex[65])
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        hex[2 * i] = digits[hash[i] >> 4];
        hex[2 * i + 1] = digits[hash[i] & 15];
    }
    hex[64] = 0;
}

static int write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

static int open_dir(int at, const char *rel)
{
    return openat(at, *rel ? rel : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
}

/* mkdirat, then an O_PATH fd on the new folder for the *at calls below it. */
static int make_dir(int at, const char *name, const char *shown)
{
    if (mkdirat(at, name, 0755))
        die("mkdir", "%s/%s", g.mirror, shown);
    int fd = open_dir(at, name);
    if (fd < 0)
        die("open", "%s/%s", g.mirror, shown);
    return fd;
}

/* Runs fn on every worker: threads 1.. as pthreads, worker 0 on this thread. */
static void *thread_main(void *arg)
{
    g.phase(arg);
    return NULL;
}

static void run_parallel(void (*fn)(struct worker *))
{
    g.phase = fn;
    atomic_store(&g.next, 0);
    for (unsigned t = 1; t < g.threads; t++) {
        int rc = pthread_create(&g.workers[t].thread, NULL, thread_main, &g.workers[t]);
        if (rc) {
            errno = rc;
            die("start", "thread %u", t);
        }
    }
    fn(&g.workers[0]);
    for (unsigned t = 1; t < g.threads; t++)
        pthread_join(g.workers[t].thread, NULL);
}

/* SHA-256 through one context per thread on a digest fetched once: EVP_Digest() would
 * allocate a context and look the algorithm up again for every file. */
static void hash_start(struct worker *w)
{
    if (!EVP_DigestInit_ex2(w->md, g.sha256, NULL)) {
        errno = EIO;
        die("OpenSSL", "%s", "EVP_DigestInit_ex2");
    }
}

/* ---- 0. the mirror: empty or absent --------------------------------------------- */

static void open_mirror(void)
{
    if (mkdir(g.mirror, 0755) && errno != EEXIST)
        die("mkdir", "%s", g.mirror);
    g.mirror_fd = open(g.mirror, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (g.mirror_fd < 0)
        die("open", "%s", g.mirror);
    int fd = dup(g.mirror_fd);
    DIR *d = fd < 0 ? NULL : fdopendir(fd);
    if (!d)
        die("open", "%s", g.mirror);
    for (struct dirent *e; (e = readdir(d));) {
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            errno = ENOTEMPTY;
            die("mirror not empty", "%s", g.mirror);
        }
    }
    closedir(d);
}

/* ---- 1. list --------------------------------------------------------------------- */

static uint32_t add_folder(uint32_t parent, const char *name, size_t len)
{
    if (g.nfolders == g.cap_folders)
        g.folders = grow(g.folders, &g.cap_folders, sizeof *g.folders);
    struct folder *f = &g.folders[g.nfolders];
    f->name = arena_join("", name, len);
    f->rel = g.nfolders ? arena_join(g.folders[parent].rel, name, len) : f->name;
    f->parent = parent;
    f->mode = 0;
    f->first_file = f->nfiles = 0;
    return (uint32_t)g.nfolders++;
}

static void add_file(uint32_t folder, const char *name, size_t len)
{
    if (g.nfiles == g.cap_files)
        g.files = grow(g.files, &g.cap_files, sizeof *g.files);
    struct file *f = &g.files[g.nfiles++];
    memset(f, 0, sizeof *f);
    f->name = arena_join("", name, len);
    f->folder = folder;
}

/* d_type for file systems that do not fill it in. */
static unsigned type_by_stat(int dfd, uint32_t folder, const char *name)
{
    struct stat st;
    if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW))
        die_source("stat", folder, name);
    return S_ISREG(st.st_mode) ? DT_REG : S_ISDIR(st.st_mode) ? DT_DIR : DT_LNK;
}

/* Lists the folder open on fd (and takes fd): its files go to g.files in one contiguous
 * run, its subfolders to g.folders after every folder known so far, so a parent always
 * comes before its children; then each subfolder, through an fd opened at this one (no
 * path walks from the top). */
static void list_folder(uint32_t idx, int fd)
{
    struct stat st;
    if (fstat(fd, &st))
        die_source("stat", idx, NULL);
    g.folders[idx].mode = st.st_mode & 07777;
    DIR *d = fdopendir(fd);
    if (!d)
        die_source("open", idx, NULL);
    size_t first_child = g.nfolders;
    g.folders[idx].first_file = g.nfiles;
    errno = 0;
    for (struct dirent *e; (e = readdir(d)); errno = 0) {
        const char *n = e->d_name;
        if (n[0] == '.' && (!n[1] || (n[1] == '.' && !n[2])))
            continue;
        unsigned type = e->d_type == DT_UNKNOWN ? type_by_stat(dirfd(d), idx, n) : e->d_type;
        if (type == DT_REG)
            add_file(idx, n, strlen(n));
        else if (type == DT_DIR)
            add_folder(idx, n, strlen(n));
        else
            g.skipped++;
    }
    if (errno)
        die_source("read folder", idx, NULL);
    g.folders[idx].nfiles = g.nfiles - g.folders[idx].first_file;
    size_t end_child = g.nfolders;
    for (size_t c = first_child; c < end_child; c++) {
        int cfd = openat(dirfd(d), g.folders[c].name,
                         O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (cfd < 0)
            die_source("open", (uint32_t)c, NULL);
        list_folder((uint32_t)c, cfd);
    }
    closedir(d);
}

static void list_source(void)
{
    add_folder(0, "", 0);
    int fd = openat(g.source_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        die("open", "%s", g.source);
    list_folder(0, fd);
}

/* ---- 2. copy and hash ------------------------------------------------------------ */

/* The source folder of the worker's current file, kept open while the chunk stays in it
 * (a folder's files are contiguous, so this is one open per folder per chunk). */
static int source_folder(struct worker *w, uint32_t folder)
{
    if (w->src_fd >= 0 && w->src_folder == folder)
        return w->src_fd;
    if (w->src_fd >= 0)
        close(w->src_fd);
    w->src_fd = open_dir(g.source_fd, g.folders[folder].rel);
    if (w->src_fd < 0)
        die_source("open", folder, NULL);
    w->src_folder = folder;
    return w->src_fd;
}

/* O_NOATIME: reading a file would otherwise dirty its inode (relatime updates atime when
 * it is not newer than mtime, as for a new file), and the syncfs would write it back.
 * O_NONBLOCK: a fifo put in a file's place since the listing must not hang the open (the
 * fstat then refuses it); it changes nothing for a regular file. */
static int open_source(int dfd, struct file *f)
{
    int flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
    int fd = openat(dfd, f->name, flags | atomic_load(&g.noatime));
    if (fd < 0 && errno == EPERM && atomic_load(&g.noatime)) {
        atomic_store(&g.noatime, 0); /* not our file: the kernel refuses O_NOATIME */
        fd = openat(dfd, f->name, flags);
    }
    if (fd < 0)
        die_source("open", f->folder, f->name);
    return fd;
}

struct staging {
    int fd;
    char name[48];              /* t<thread>-<chunk> */
};

/* Reads the file once: the same bytes go to the hash and to the staging copy. */
static void copy_file(struct worker *w, size_t i, const struct staging *s, size_t n)
{
    struct file *f = &g.files[i];
    int in = open_source(source_folder(w, f->folder), f);
    struct stat st;
    if (fstat(in, &st))
        die_source("stat", f->folder, f->name);
    if (!S_ISREG(st.st_mode)) {
        errno = EINVAL;
        die_source("not a regular file", f->folder, f->name);
    }
    f->mode = st.st_mode & 07777;
    char part[32];
    snprintf(part, sizeof part, "%zu.part", n);
    /* 0444 at creation: the object's final mode, no fchmod; the fd is writable anyway. */
    int out = openat(s->fd, part, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
    if (out < 0)
        die("create", "%s/store/incoming/%s/%s", g.mirror, s->name, part);
    hash_start(w);
    uint64_t size = 0;
    for (;;) {
        ssize_t r = read(in, w->buf, BUF_SIZE);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            die_source("read", f->folder, f->name);
        if (r == 0)
            break;
        EVP_DigestUpdate(w->md, w->buf, (size_t)r);
        if (write_all(out, w->buf, (size_t)r))
            die("write", "%s/store/incoming/%s/%s", g.mirror, s->name, part);
        size += (uint64_t)r;
        /* A regular file's short read is its end: no second read() to see 0 (most files
         * are one read). */
        if (r < BUF_SIZE)
            break;
    }
    if (!EVP_DigestFinal_ex(w->md, f->hash, NULL)) {
        errno = EIO;
        die_source("sha256", f->folder, f->name);
    }
    f->size = size;
    close(in);
    if (close(out))
        die("close", "%s/store/incoming/%s/%s", g.mirror, s->name, part);
}

static void copy_chunk(struct worker *w, size_t c)
{
    struct staging s;
    snprintf(s.name, sizeof s.name, "t%u-%zu", w->id, c);
    g.chunk_thread[c] = w->id;
    char shown[64];
    snprintf(shown, sizeof shown, "store/incoming/%s", s.name);
    s.fd = make_dir(g.incoming_fd, s.name, shown);
    size_t first = c * CHUNK, end = first + CHUNK < g.nfiles ? first + CHUNK : g.nfiles;
    for (size_t i = first; i < end; i++)
        copy_file(w, i, &s, i - first);
    close(s.fd);
}

static void copy_worker(struct worker *w)
{
    for (size_t c; (c = atomic_fetch_add(&g.next, 1)) < g.nchunks;)
        copy_chunk(w, c);
    if (w->src_fd >= 0)
        close(w->src_fd);
    w->src_fd = -1;
}

static void copy_and_hash(void)
{
    int store = make_dir(g.mirror_fd, "store", "store");
    g.incoming_fd = make_dir(store, "incoming", "store/incoming");
    g.objects_fd = make_dir(store, "sha256", "store/sha256");
    close(store);
    g.nchunks = (g.nfiles + CHUNK - 1) / CHUNK;
    g.chunk_thread = xmalloc((g.nchunks ? g.nchunks : 1) * sizeof *g.chunk_thread);
    run_parallel(copy_worker);
}

/* ---- 3, 7. syncfs ---------------------------------------------------------------- */

/* Phase 3 waits for the disk to write every copy: the kernel starts no writeback of its
 * own for a few hundred MB on a machine with GiBs of memory. Starting it during phase 2
 * does not make the floor faster, so it is not done: on this project's machine's disk, a
 * thread calling syncfs every 0.2 s during the copy made the floor 4.79 and 4.40 s
 * against 4.82 and 4.66 s, and sync_file_range on each copy 5.30 and 5.22 s (the writing
 * slows the copy by about what it saves in the wait). */

static void sync_mirror(void)
{
    if (syncfs(g.mirror_fd))
        die("syncfs", "%s", g.mirror);
}

/* ---- 4. store -------------------------------------------------------------------- */

/* The <h2> folders the files need, each with an fd kept for renameat and linkat. */
static void make_object_folders(void)
{
    bool used[256] = {false};
    for (size_t i = 0; i < g.nfiles; i++)
        used[g.files[i].hash[0]] = true;
    for (int h = 0; h < 256; h++) {
        g.h2_fd[h] = -1;
        if (!used[h])
            continue;
        char name[3], shown[32];
        snprintf(name, sizeof name, "%02x", h);
        snprintf(shown, sizeof shown, "store/sha256/%s", name);
        g.h2_fd[h] = make_dir(g.objects_fd, name, shown);
    }
}

/* The first file (in index order) with file i's hash, i itself if none came before it (an
 * open-addressing set of file indices + 1; the hash's first bytes are already uniform). */
static size_t first_with_hash(size_t *table, size_t mask, size_t i)
{
    uint64_t key;
    memcpy(&key, g.files[i].hash, sizeof key);
    for (size_t s = key & mask;; s = (s + 1) & mask) {
        if (!table[s]) {
            table[s] = i + 1;
            return i;
        }
        if (!memcmp(g.files[table[s] - 1].hash, g.files[i].hash, 32))
            return table[s] - 1;
    }
}

/* g.owner: whose staging copy becomes each file's object. Decided for all files before any
 * rename, so that with -o the view workers know it too while the store thread runs: a
 * duplicate's own copy is another inode, which store unlinks, so a view must never link it
 * (the view entry would not be the object); it links its owner's copy or object instead. */
static void find_owners(void)
{
    size_t slots = 1024;
    while (slots < 2 * g.nfiles)
        slots *= 2;
    size_t *table = calloc(slots, sizeof *table);
    if (!table) {
        errno = ENOMEM;
        die("allocate", "%zu slots", slots);
    }
    g.owner = xmalloc((g.nfiles ? g.nfiles : 1) * sizeof *g.owner);
    for (size_t i = 0; i < g.nfiles; i++)
        g.owner[i] = first_with_hash(table, slots - 1, i);
    free(table);
}

static void staging_name(size_t c, char name[48])
{
    snprintf(name, 48, "t%u-%zu", g.chunk_thread[c], c);
}

/* Moves chunk c's copies into the store (an owner's) or drops them (a duplicate's). Without
 * -o its folder goes too; with -o a view worker may still link from a name in it, so the
 * folders go after every thread is done (remove_staging_folders). */
static void store_chunk(size_t c)
{
    char name[48];
    staging_name(c, name);
    int sfd = open_dir(g.incoming_fd, name);
    if (sfd < 0)
        die("open", "%s/store/incoming/%s", g.mirror, name);
    size_t first = c * CHUNK, end = first + CHUNK < g.nfiles ? first + CHUNK : g.nfiles;
    for (size_t i = first; i < end; i++) {
        const unsigned char *h = g.files[i].hash;
        char part[32], hex[65];
        snprintf(part, sizeof part, "%zu.part", i - first);
        to_hex(h, hex);
        if (g.owner[i] == i) {
            if (renameat(sfd, part, g.h2_fd[h[0]], hex))
                die("rename", "%s/store/incoming/%s/%s", g.mirror, name, part);
        } else if (unlinkat(sfd, part, 0)) {
            die("unlink", "%s/store/incoming/%s/%s", g.mirror, name, part);
        }
    }
    close(sfd);
    if (!g.overlap && unlinkat(g.incoming_fd, name, AT_REMOVEDIR))
        die("rmdir", "%s/store/incoming/%s", g.mirror, name);
}

/* What store needs before its first rename, and the view before its first link. */
static void store_setup(void)
{
    make_object_folders();
    find_owners();
}

/* One thread: cross-folder renames serialize on the kernel's rename mutex anyway. */
static void store_chunks(void)
{
    for (size_t c = 0; c < g.nchunks; c++)
        store_chunk(c);
}

static void remove_staging_folders(void)
{
    for (size_t c = 0; c < g.nchunks; c++) {
        char name[48];
        staging_name(c, name);
        if (unlinkat(g.incoming_fd, name, AT_REMOVEDIR))
            die("rmdir", "%s/store/incoming/%s", g.mirror, name);
    }
}

static void store(void)
{
    store_setup();
    store_chunks();
}

/* ---- 5. view --------------------------------------------------------------------- */

/* With -o, file f's object may not be renamed yet: then it is its owner's staging copy (the
 * same inode under another name), as a path below store/incoming/. The store thread only
 * ever renames an owner's copy, never unlinks it, and rename(2) is atomic, so at every
 * moment one of the two names exists: ENOENT on this one means the final name is there. A
 * duplicate's own copy is never used (see find_owners), so it does not matter when store
 * unlinks it. */
static void staging_path(const struct file *f, char path[96])
{
    size_t o = g.owner[f - g.files], c = o / CHUNK;
    char name[48];
    staging_name(c, name);
    snprintf(path, 96, "%s/%zu.part", name, o - c * CHUNK);
}

/* linkat from file f's object under the name it has now (with -o, see staging_path). */
static int link_object(const struct file *f, const char *hex, int vfd)
{
    if (g.overlap) {
        char path[96];
        staging_path(f, path);
        int r = linkat(g.incoming_fd, path, vfd, f->name, 0);
        if (!r || errno != ENOENT)
            return r;
    }
    return linkat(g.h2_fd[f->hash[0]], hex, vfd, f->name, 0);
}

/* openat of file f's object under the name it has now (with -o, see staging_path). */
static int open_object(const struct file *f, const char *hex)
{
    if (g.overlap) {
        char path[96];
        staging_path(f, path);
        int fd = openat(g.incoming_fd, path, O_RDONLY | O_CLOEXEC);
        if (fd >= 0 || errno != ENOENT)
            return fd;
    }
    return openat(g.h2_fd[f->hash[0]], hex, O_RDONLY | O_CLOEXEC);
}

/* Where the object has as many links as the file system allows (ext4: 65,000), the
 * format wants a checked copy, mode 0444, with the object's modification time. */
static void copy_object(struct worker *w, const struct file *f, const char *hex, int vfd)
{
    const char *rel = g.folders[f->folder].rel;
    int in = open_object(f, hex);
    if (in < 0)
        die("open", "%s/store/sha256/%.2s/%s", g.mirror, hex, hex);
    int out = openat(vfd, f->name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
    if (out < 0)
        die("create", "%s/" VIEW "/%s%s%s", g.mirror, rel, sep(rel), f->name);
    hash_start(w);
    for (ssize_t r; (r = read(in, w->buf, BUF_SIZE));) {
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            die("read", "%s/store/sha256/%.2s/%s", g.mirror, hex, hex);
        EVP_DigestUpdate(w->md, w->buf, (size_t)r);
        if (write_all(out, w->buf, (size_t)r))
            die("write", "%s/" VIEW "/%s%s%s", g.mirror, rel, sep(rel), f->name);
    }
    unsigned char got[32];
    struct stat st;
    if (!EVP_DigestFinal_ex(w->md, got, NULL) || memcmp(got, f->hash, 32)) {
        errno = EIO;
        die("object does not match its name", "%s/store/sha256/%.2s/%s", g.mirror, hex, hex);
    }
    if (fstat(in, &st) || futimens(out, (struct timespec[2]){st.st_atim, st.st_mtim}))
        die("set time", "%s/" VIEW "/%s%s%s", g.mirror, rel, sep(rel), f->name);
    close(in);
    if (close(out))
        die("close", "%s/" VIEW "/%s%s%s", g.mirror, rel, sep(rel), f->name);
}

static void link_file(struct worker *w, const struct file *f, int vfd)
{
    char hex[65];
    to_hex(f->hash, hex);
    if (!link_object(f, hex, vfd))
        return;
    if (errno != EMLINK) {
        const char *rel = g.folders[f->folder].rel;
        die("link", "%s/" VIEW "/%s%s%s", g.mirror, rel, sep(rel), f->name);
    }
    copy_object(w, f, hex, vfd);
}

/* One folder of the view: made once its parent is (folders are handed out in order and a
 * parent comes first, so the wait is for a mkdir in flight on another thread, at most),
 * then its files linked through one fd on it. */
static void view_folder(struct worker *w, size_t idx)
{
    const struct folder *d = &g.folders[idx];
    int vfd = g.view_fd;
    if (idx) {
        while (!atomic_load_explicit(&g.made[d->parent], memory_order_acquire))
            sched_yield();
        if (mkdirat(g.view_fd, d->rel, 0755))
            die("mkdir", "%s/" VIEW "/%s", g.mirror, d->rel);
        atomic_store_explicit(&g.made[idx], 1, memory_order_release);
        if (!d->nfiles)
            return;
        vfd = open_dir(g.view_fd, d->rel);
        if (vfd < 0)
            die("open", "%s/" VIEW "/%s", g.mirror, d->rel);
    }
    for (size_t i = d->first_file; i < d->first_file + d->nfiles; i++)
        link_file(w, &g.files[i], vfd);
    if (idx)
        close(vfd);
}

static void view_worker(struct worker *w)
{
    for (size_t f; (f = atomic_fetch_add(&g.next, 1)) < g.nfolders;)
        view_folder(w, f);
}

/* The view's top folders, and the flags its workers wait on. */
static void view_setup(void)
{
    int containers = make_dir(g.mirror_fd, "containers", "containers");
    int container = make_dir(containers, CONTAINER, "containers/" CONTAINER);
    int current = make_dir(container, "current", "containers/" CONTAINER "/current");
    g.view_fd = make_dir(current, DEVICE, VIEW);
    close(current);
    close(container);
    close(containers);
    g.made = calloc(g.nfolders, sizeof *g.made);
    if (!g.made) {
        errno = ENOMEM;
        die("allocate", "%zu flags", g.nfolders);
    }
    atomic_store(&g.made[0], 1);
}

static void view(void)
{
    view_setup();
    run_parallel(view_worker);
}

/* ---- 4 and 5 at once (-o) ---------------------------------------------------------- */

static void *store_main(void *arg)
{
    (void)arg;
    store_chunks();
    return NULL;
}

/* The store thread renames while the THREADS view workers link, each from the name its
 * object has at that moment (link_object). Both need only what the syncfs before them made
 * durable. The staging folders go last: until every worker is done, one may still link
 * from a name in them. */
static void store_and_view(void)
{
    store_setup();
    view_setup();
    pthread_t store_thread;
    int rc = pthread_create(&store_thread, NULL, store_main, NULL);
    if (rc) {
        errno = rc;
        die("start", "%s", "store thread");
    }
    run_parallel(view_worker);
    pthread_join(store_thread, NULL);
    remove_staging_folders();
}

/* ---- 6. log ---------------------------------------------------------------------- */

struct out {
    int fd;
    char *p;
    size_t len, cap;
};

#define PUT(o, lit) (memcpy((o), (lit), sizeof(lit) - 1), (o) + sizeof(lit) - 1)

static char *put_u64(char *o, uint64_t v)
{
    char t[20];
    int n = 0;
    do
        t[n++] = (char)('0' + v % 10);
    while (v /= 10);
    while (n)
        *o++ = t[--n];
    return o;
}

/* JSON string contents, escaped as the daemon's LogLineEncoder (JSONEncoder) does: `"`,
 * `\`, `\b \t \n \f \r` by name, other control characters as \u00XX; bytes >= 0x20 as
 * they are. */
static char *put_escaped(char *o, const char *s)
{
    static const char digits[] = "0123456789abcdef";
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x20 && c != '"' && c != '\\') {
            *o++ = (char)c;
            continue;
        }
        *o++ = '\\';
        switch (c) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '\b': *o++ = 'b'; break;
        case '\t': *o++ = 't'; break;
        case '\n': *o++ = 'n'; break;
        case '\f': *o++ = 'f'; break;
        case '\r': *o++ = 'r'; break;
        default:
            o = PUT(o, "u00");
            *o++ = digits[c >> 4];
            *o++ = digits[c & 15];
        }
    }
    return o;
}

static void out_flush(struct out *b)
{
    if (write_all(b->fd, b->p, b->len))
        die("write", "%s/containers/" CONTAINER "/log/" DEVICE ".ndjson", g.mirror);
    b->len = 0;
}

/* Room for a line of at most need bytes, writing out what is buffered when full. */
static char *out_reserve(struct out *b, size_t need)
{
    if (b->len + need > b->cap)
        out_flush(b);
    if (need > b->cap) {
        b->cap = need;
        free(b->p);
        b->p = xmalloc(b->cap);
    }
    return b->p + b->len;
}

/* {"seq":N,"time":T,"path":"P","parents":[],"op":"put","kind":"KIND","mode":M */
static char *line_start(char *o, uint64_t seq, uint64_t ms, const char *rel,
                        const char *name, const char *kind, uint32_t mode)
{
    o = PUT(o, "{\"seq\":");
    o = put_u64(o, seq);
    o = PUT(o, ",\"time\":");
    o = put_u64(o, ms);
    o = PUT(o, ",\"path\":\"");
    o = put_escaped(o, rel);
    if (name) {
        if (*rel)
            *o++ = '/';
        o = put_escaped(o, name);
    }
    o = PUT(o, "\",\"parents\":[],\"op\":\"put\",\"kind\":\"");
    size_t kind_len = strlen(kind);
    memcpy(o, kind, kind_len);
    o += kind_len;
    o = PUT(o, "\",\"mode\":");
    return put_u64(o, mode);
}

static void log_folder(struct out *b, uint64_t seq, uint64_t ms, const struct folder *d)
{
    char *o = out_reserve(b, 256 + 6 * strlen(d->rel));
    o = line_start(o, seq, ms, d->rel, NULL, "folder", d->mode);
    o = PUT(o, "}\n");
    b->len = (size_t)(o - b->p);
}

static void log_file(struct out *b, uint64_t seq, uint64_t ms, const struct file *f)
{
    const char *rel = g.folders[f->folder].rel;
    char *o = out_reserve(b, 256 + 6 * (strlen(rel) + 1 + strlen(f->name)));
    o = line_start(o, seq, ms, rel, f->name, "file", f->mode);
    o = PUT(o, ",\"sha256\":\"");
    to_hex(f->hash, o);
    o += 64;
    o = PUT(o, "\",\"size\":");
    o = put_u64(o, f->size);
    o = PUT(o, "}\n");
    b->len = (size_t)(o - b->p);
}

/* One line per folder (not SOURCE itself: it is the container) and per file, a folder's
 * line before its files' and its subfolders' lines; one time for the whole batch. */
static void write_log(void)
{
    int container = open_dir(g.mirror_fd, "containers/" CONTAINER);
    if (container < 0)
        die("open", "%s/containers/" CONTAINER, g.mirror);
    int logs = make_dir(container, "log", "containers/" CONTAINER "/log");
    close(container);
    struct out b = {.cap = LOG_FLUSH};
    b.fd = openat(logs, DEVICE ".ndjson",
                  O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0644);
    if (b.fd < 0)
        die("create", "%s/containers/" CONTAINER "/log/" DEVICE ".ndjson", g.mirror);
    close(logs);
    b.p = xmalloc(b.cap);
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    uint64_t ms = (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000, seq = 1;
    for (size_t d = 0; d < g.nfolders; d++) {
        if (d)
            log_folder(&b, seq++, ms, &g.folders[d]);
        const struct folder *f = &g.folders[d];
        for (size_t i = f->first_file; i < f->first_file + f->nfiles; i++)
            log_file(&b, seq++, ms, &g.files[i]);
    }
    out_flush(&b);
    free(b.p);
    if (close(b.fd))
        die("close", "%s/containers/" CONTAINER "/log/" DEVICE ".ndjson", g.mirror);
}

/* ---- main ------------------------------------------------------------------------ */

static void usage(void)
{
    fprintf(stderr, "usage: floor [-o] [-j THREADS] SOURCE MIRROR\n");
    exit(2);
}

static void parse_args(int argc, char **argv)
{
    g.threads = 2;
    for (int opt; (opt = getopt(argc, argv, "j:o")) != -1;) {
        if (opt == 'o') {
            g.overlap = true;
            continue;
        }
        char *end;
        long n = opt == 'j' ? strtol(optarg, &end, 10) : 0;
        if (opt != 'j' || *end || n < 1 || n > MAX_THREADS)
            usage();
        g.threads = (unsigned)n;
    }
    if (argc - optind != 2)
        usage();
    g.source = argv[optind];
    g.mirror = argv[optind + 1];
}

static void start_workers(void)
{
    g.sha256 = EVP_MD_fetch(NULL, "SHA256", NULL);
    if (!g.sha256) {
        errno = ENOSYS;
        die("OpenSSL", "%s", "SHA256");
    }
    for (unsigned t = 0; t < g.threads; t++) {
        struct worker *w = &g.workers[t];
        w->id = t;
        w->buf = xmalloc(BUF_SIZE);
        w->md = EVP_MD_CTX_new();
        w->src_fd = -1;
        if (!w->md) {
            errno = ENOMEM;
            die("OpenSSL", "%s", "EVP_MD_CTX_new");
        }
    }
}

static void clean_up(void)
{
    for (unsigned t = 0; t < g.threads; t++) {
        free(g.workers[t].buf);
        EVP_MD_CTX_free(g.workers[t].md);
    }
    EVP_MD_free(g.sha256);
    for (int h = 0; h < 256; h++)
        if (g.h2_fd[h] >= 0)
            close(g.h2_fd[h]);
    close(g.view_fd);
    close(g.objects_fd);
    close(g.incoming_fd);
    close(g.mirror_fd);
    close(g.source_fd);
    free(g.made);
    free(g.chunk_thread);
    free(g.owner);
    free(g.files);
    free(g.folders);
    arena_free();
}

int main(int argc, char **argv)
{
    const char *names[7];
    double lap[7], t0 = now(), t = t0;
    parse_args(argc, argv);
    atomic_store(&g.noatime, O_NOATIME);
    start_workers();
    g.source_fd = open(g.source, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (g.source_fd < 0)
        die("open", "%s", g.source);
    open_mirror();

    int phase = 0;
#define LAP(name) \
    do { double n = now(); names[phase] = name; lap[phase++] = n - t; t = n; } while (0)
    list_source();
    LAP("list");
    copy_and_hash();
    LAP("copy+hash");
    sync_mirror();
    LAP("syncfs");
    if (g.overlap) {
        store_and_view();
        LAP("store+view");  /* one time: the two phases run at once */
    } else {
        store();
        LAP("store");
        view();
        LAP("view");
    }
    write_log();
    LAP("log");
    sync_mirror();
    LAP("syncfs");
#undef LAP

    double total = now() - t0;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    for (int i = 0; i < phase; i++)
        printf("%s %.3f s; ", names[i], lap[i]);
    printf("total %.3f s; cpu user %.2f s sys %.2f s; files %zu folders %zu skipped %zu\n",
           total, ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6,
           ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6, g.nfiles, g.nfolders, g.skipped);
    clean_up();
    return 0;
}
