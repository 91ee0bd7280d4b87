#define _GNU_SOURCE
#include "cstatx.h"
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <locale.h>
#include <pthread.h>
#include <wchar.h>

int ubq_file_status_at(int dirfd, const char *path, ubq_file_status *status) {
    struct statx info;
    unsigned int wanted = STATX_BASIC_STATS | STATX_BTIME;
    if (statx(dirfd, path, AT_SYMLINK_NOFOLLOW | AT_STATX_SYNC_AS_STAT, wanted, &info) != 0) {
        return -1;
    }
    status->mode = info.stx_mode;
    status->device = ((uint64_t)info.stx_dev_major << 32) | info.stx_dev_minor;
    status->inode = info.stx_ino;
    status->size = (int64_t)info.stx_size;
    status->modified_seconds = info.stx_mtime.tv_sec;
    status->modified_nanoseconds = info.stx_mtime.tv_nsec;
    status->changed_seconds = info.stx_ctime.tv_sec;
    status->changed_nanoseconds = info.stx_ctime.tv_nsec;
    status->has_birth_time = (info.stx_mask & STATX_BTIME) != 0;
    status->birth_seconds = info.stx_btime.tv_sec;
    status->birth_nanoseconds = info.stx_btime.tv_nsec;
    status->link_count = info.stx_nlink;
    return 0;
}

#include <sched.h>
#include <sys/prctl.h>
#include <unistd.h>

int ubq_syncfs(int fd) {
    return syncfs(fd);
}

int ubq_schedule_when_idle(void) {
    struct sched_param none = {0};
    return sched_setscheduler(0, SCHED_IDLE, &none);
}

int ubq_name_this_thread(const char *name) {
    return prctl(PR_SET_NAME, name, 0, 0, 0);
}

int ubq_rename_noreplace(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
}

int ubq_start_writeback(int fd, int64_t offset, int64_t length) {
    return sync_file_range(fd, offset, length, SYNC_FILE_RANGE_WRITE);
}

#include <malloc.h>

void ubq_release_free_memory(void) {
    malloc_trim(0);
}

long ubq_copy_file_range(int in_fd, int out_fd, unsigned long length) {
    return (long)copy_file_range(in_fd, NULL, out_fd, NULL, length, 0);
}

int ubq_set_direct_io(int fd, int on) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return -1;
    return fcntl(fd, F_SETFL, on ? (flags | O_DIRECT) : (flags & ~O_DIRECT));
}

#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/vfs.h>

int ubq_clone_file(int dest_fd, int src_fd) {
    return ioctl(dest_fd, FICLONE, src_fd);
}

long ubq_filesystem_type(const char *path) {
    struct statfs info;
    return statfs(path, &info) == 0 ? (long)info.f_type : 0;
}

#include <errno.h>
#include <pthread.h>
#include <signal.h>

static pthread_once_t ignore_lease_breaks_once = PTHREAD_ONCE_INIT;

static void ignore_lease_breaks(void) {
    signal(SIGIO, SIG_IGN);
}

int ubq_fd_has_writer(int fd) {
    pthread_once(&ignore_lease_breaks_once, ignore_lease_breaks);
    if (fcntl(fd, F_SETLEASE, F_RDLCK) == 0) {
        fcntl(fd, F_SETLEASE, F_UNLCK);
        return 0;
    }
    return errno == EAGAIN ? 1 : -1;
}

#include <linux/openat2.h>
#include <string.h>
#include <sys/syscall.h>

/// The folder `parent` below `rootfd`, opened O_PATH with no symlink followed on the way.
static int open_folder_beneath(int rootfd, const char *parent) {
    struct open_how how = {.flags = O_PATH | O_DIRECTORY | O_CLOEXEC, .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS};
    int fd = (int)syscall(SYS_openat2, rootfd, parent, &how, sizeof how);
    if (fd >= 0 || (errno != ENOSYS && errno != EPERM)) return fd;
    // No openat2 (before Linux 5.6, or a seccomp filter): one component at a time.
    char copy[PATH_MAX];
    if (strlen(parent) >= sizeof copy) { errno = ENAMETOOLONG; return -1; }
    strcpy(copy, parent);
    int current = dup(rootfd);
    for (char *save = NULL, *part = strtok_r(copy, "/", &save); part && current >= 0; part = strtok_r(NULL, "/", &save)) {
        int next = strcmp(part, "..") == 0 ? (errno = EXDEV, -1) : openat(current, part, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        int saved = errno;
        close(current);
        errno = saved;
        current = next;
    }
    return current;
}

int ubq_open_folder(const char *path) { return open(path, O_PATH | O_DIRECTORY | O_CLOEXEC); }

int ubq_open_folder_beneath(int rootfd, const char *relative) {
    return *relative ? open_folder_beneath(rootfd, relative) : fcntl(rootfd, F_DUPFD_CLOEXEC, 0);
}

/// The folder holding `relative` below `root`, opened O_PATH with no symlink followed on
/// the way; `leaf` is set to the last component of `relative`.
static int open_parent_beneath(const char *root, const char *relative, const char **leaf) {
    int rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (rootfd < 0) return -1;
    const char *slash = strrchr(relative, '/');
    *leaf = slash ? slash + 1 : relative;
    if (!slash) return rootfd;
    char parent[PATH_MAX];
    size_t length = (size_t)(slash - relative);
    if (length >= sizeof parent) { close(rootfd); errno = ENAMETOOLONG; return -1; }
    memcpy(parent, relative, length);
    parent[length] = 0;
    int folder = open_folder_beneath(rootfd, parent);
    int saved = errno;
    close(rootfd);
    errno = saved;
    return folder;
}

int ubq_file_status_beneath(const char *root, const char *relative, ubq_file_status *status) {
    const char *leaf;
    int folder = open_parent_beneath(root, relative, &leaf);
    if (folder < 0) return -1;
    int result = ubq_file_status_at(folder, leaf, status);
    int saved = errno;
    close(folder);
    errno = saved;
    return result;
}

/// Opens the leaf of `relative` with `opener` in its parent folder below `root`, reached
/// through no symlink (`ubq_open_beneath`).
static int open_leaf_beneath(const char *root, const char *relative, int flags, int (*opener)(int, const char *, int)) {
    const char *leaf;
    int folder = open_parent_beneath(root, relative, &leaf);
    if (folder < 0) return -1;
    int fd = opener(folder, leaf, flags | O_NOFOLLOW | O_CLOEXEC);
    int saved = errno;
    close(folder);
    errno = saved;
    return fd;
}

static int plain_openat(int dirfd, const char *name, int flags) { return openat(dirfd, name, flags); }

int ubq_open_beneath(const char *root, const char *relative, int flags) {
    return open_leaf_beneath(root, relative, flags, plain_openat);
}

int ubq_openat_for_reading(int dirfd, const char *name, int flags) {
    int fd = openat(dirfd, name, flags | O_NOATIME);
    if (fd < 0 && errno == EPERM) fd = openat(dirfd, name, flags);  // another user's file
    return fd;
}

int ubq_open_beneath_for_reading(const char *root, const char *relative, int flags) {
    return open_leaf_beneath(root, relative, flags, ubq_openat_for_reading);
}

/// One component of `ubq_make_folders_beneath`: the folder `name` in `parent`, made if
/// missing (`*made` then set), opened O_PATH without following a symlink.
static int make_folder_at(int parent, const char *name, unsigned int mode, int *made) {
    if (strcmp(name, "..") == 0) { errno = EXDEV; return -1; }
    if (mkdirat(parent, name, (mode_t)mode) == 0) *made = 1;
    else if (errno != EEXIST) return -1;
    int fd = openat(parent, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0 || errno != ENOTDIR) return fd;
    struct stat info;
    if (fstatat(parent, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(info.st_mode)) errno = ELOOP;
    else errno = ENOTDIR;
    return -1;
}

int ubq_make_folders_beneath(const char *root, const char *relative, unsigned int mode) {
    char copy[PATH_MAX];
    if (strlen(relative) >= sizeof copy) { errno = ENAMETOOLONG; return -1; }
    strcpy(copy, relative);
    int current = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
    int depth = 0, shallowest_made = 0;
    for (char *save = NULL, *part = strtok_r(copy, "/", &save); part && current >= 0; part = strtok_r(NULL, "/", &save)) {
        int made = 0;
        int next = make_folder_at(current, part, mode, &made);
        int saved = errno;
        close(current);
        errno = saved;
        current = next;
        depth += 1;
        if (made && shallowest_made == 0) shallowest_made = depth;
    }
    if (current < 0) return -1;
    close(current);
    return shallowest_made;
}

int ubq_is_folder_beneath(const char *root, const char *relative) {
    int rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (rootfd < 0) return 0;
    int fd = *relative ? open_folder_beneath(rootfd, relative) : dup(rootfd);
    int saved = errno;
    close(rootfd);
    if (fd < 0) { errno = saved; return 0; }
    close(fd);
    return 1;
}

long ubq_readlink_beneath(const char *root, const char *relative, char *buffer, unsigned long size) {
    const char *leaf;
    int folder = open_parent_beneath(root, relative, &leaf);
    if (folder < 0) return -1;
    long count = (long)readlinkat(folder, leaf, buffer, size);
    int saved = errno;
    close(folder);
    errno = saved;
    return count;
}

static locale_t utf8_locale = (locale_t)0;

static void make_utf8_locale(void) {
    utf8_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}

int ubq_terminal_columns(uint32_t scalar) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, make_utf8_locale);
    locale_t utf8 = utf8_locale;
    if (utf8 == (locale_t)0) return -2;
    locale_t previous = uselocale(utf8);
    int columns = wcwidth((wchar_t)scalar);
    uselocale(previous);
    return columns;
}
