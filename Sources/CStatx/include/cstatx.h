#ifndef UBIQUITY_CSTATX_H
#define UBIQUITY_CSTATX_H
#include <stdint.h>

/// What the indexer needs to know of an item, from one statx(2) call (Swift's Glibc
/// module does not import statx, which is the only call that gives the birth time).
typedef struct {
    uint32_t mode;
    uint64_t device;
    uint64_t inode;
    int64_t size;
    int64_t modified_seconds;
    uint32_t modified_nanoseconds;
    int64_t changed_seconds;
    uint32_t changed_nanoseconds;
    /// 0 when the filesystem keeps no birth time.
    int has_birth_time;
    int64_t birth_seconds;
    uint32_t birth_nanoseconds;
    /* How many names the item has (hard links). */
    uint32_t link_count;
} ubq_file_status;

/// The status of `path` (relative to `dirfd`, or absolute), not following a final
/// symlink. Returns 0, or -1 with errno set.
int ubq_file_status_at(int dirfd, const char *path, ubq_file_status *status);

/// The status of `relative` below the folder `root`, like `ubq_file_status_at`, but no
/// symlink is followed on the way there (openat2 with RESOLVE_BENEATH and
/// RESOLVE_NO_SYMLINKS, or one component at a time where the kernel lacks it): a folder
/// replaced by a symlink leads nowhere (-1 with ELOOP, ENOTDIR or EXDEV), never outside.
int ubq_file_status_beneath(const char *root, const char *relative, ubq_file_status *status);

/// Opens `relative` below the folder `root` with `flags` (plus O_NOFOLLOW and O_CLOEXEC),
/// following no symlink on the way, as `ubq_file_status_beneath` does: a folder swapped
/// for a symlink after its status was read does not lead out of `root`. Returns the
/// descriptor, or -1 with errno set.
int ubq_open_beneath(const char *root, const char *relative, int flags);

/// openat(2) of a file to read it for sync or indexing: with O_NOATIME where the kernel
/// allows it (the file's owner), else without. Reading a file to sync or index it is not
/// the user using it, and with relatime the first read after a change sets the access
/// time, which dirties the inode for the next `syncfs` to write. Glibc's Swift module
/// leaves O_NOATIME out. `flags` as openat's; returns the descriptor, or -1 with errno set.
int ubq_openat_for_reading(int dirfd, const char *name, int flags);

/// `ubq_open_beneath` for reading, as `ubq_openat_for_reading` opens.
int ubq_open_beneath_for_reading(const char *root, const char *relative, int flags);

/// The folder `path` opened O_PATH (which Glibc's Swift module leaves out), to open
/// what is below it relative to it; -1 with errno set.
int ubq_open_folder(const char *path);

/// The folder `relative` below the open folder `rootfd` ("" for `rootfd` itself, duplicated),
/// opened O_PATH following no symlink on the way, as `ubq_open_beneath` does for its
/// parent. For callers that open many files of one folder: each is then one openat(2).
int ubq_open_folder_beneath(int rootfd, const char *relative);

/// readlink(2) of the symlink `relative` below `root`, with no symlink followed on the way
/// (as `ubq_open_beneath`). Returns the length of the text put in `buffer` (not
/// NUL-terminated), or -1 with errno set.
long ubq_readlink_beneath(const char *root, const char *relative, char *buffer, unsigned long size);

/// `mkdir -p` of the folder `relative` below `root`, one component at a time, each made
/// (with `mode`) or found with no symlink followed: a component that is a symlink fails
/// with ELOOP, one that is a file with ENOTDIR, and nothing is made past it (so nothing
/// is made outside `root` through a link). Returns the depth of the shallowest folder it
/// made (1 for the first component of `relative`), 0 if every one was there already, or
/// -1 with errno set: the caller makes the entries of the folders made durable.
int ubq_make_folders_beneath(const char *root, const char *relative, unsigned int mode);

/// Whether `relative` (a path below `root`, "" for `root` itself) is a folder reached with
/// no symlink followed on the way, itself included: 1 if so, 0 if not (errno says why).
int ubq_is_folder_beneath(const char *root, const char *relative);

/// syncfs(2): commits the whole filesystem holding `fd`. Glibc's Swift module leaves it
/// out (it needs _GNU_SOURCE), so it is wrapped here, like the calls below.
int ubq_syncfs(int fd);

/// sync_file_range(2) with SYNC_FILE_RANGE_WRITE: starts writing the dirty pages of
/// `length` bytes from `offset` (0: to the end) to the disk, without waiting for them. It
/// makes nothing durable (no metadata, no disk cache flush): a later fsync does, and finds
/// most of its work done. Glibc's Swift module leaves it out (it needs _GNU_SOURCE).
int ubq_start_writeback(int fd, int64_t offset, int64_t length);

/// malloc_trim(0): gives the heap's free pages back to the system (glibc keeps them
/// otherwise), after a burst of short-lived allocations. Glibc's Swift module leaves
/// malloc.h out.
void ubq_release_free_memory(void);

/// copy_file_range(2) from the current offsets: an in-kernel copy (a reflink on btrfs and
/// XFS). Glibc's Swift module leaves it out (it needs _GNU_SOURCE), so it is wrapped here.
long ubq_copy_file_range(int in_fd, int out_fd, unsigned long length);

/// Turns O_DIRECT on (`on` nonzero) or off for the open file `fd`: its writes then go from
/// the caller's buffer to the disk, past the page cache, and each waits for its I/O. They
/// must be of whole blocks, from block-aligned memory, at block-aligned offsets. Glibc's
/// Swift module leaves O_DIRECT out. Returns 0, or -1 with errno set (EINVAL where the
/// filesystem has no direct I/O: tmpfs, some FUSE filesystems).
int ubq_set_direct_io(int fd, int on);

/// ioctl(dest_fd, FICLONE, src_fd): makes `dest_fd`'s file share `src_fd`'s extents
/// (a reflink, copy-on-write; btrfs, XFS, bcachefs). Swift cannot call the variadic
/// ioctl. Returns 0, or -1 with errno set (EOPNOTSUPP, EXDEV, EINVAL where it cannot).
int ubq_clone_file(int dest_fd, int src_fd);

/// renameat2(2) with RENAME_NOREPLACE: renames `from` to `to` only if nothing is at `to`
/// (EEXIST otherwise), atomically. Filesystems without it give EINVAL. Glibc's Swift module
/// leaves it out (it needs _GNU_SOURCE).
int ubq_rename_noreplace(const char *from, const char *to);

/// The filesystem type of `path` (statfs f_type), or 0 when it cannot be read.
long ubq_filesystem_type(const char *path);

/// Whether some process has the file open at `fd` (opened read-only) open for writing: 1
/// yes, 0 no, -1 unknown (a filesystem without leases such as NFS, a file of another
/// user). Asked by placing a read lease (F_SETLEASE, F_RDLCK), which Linux refuses with
/// EAGAIN while any writer has the file open, and removing it at once. A writer that
/// opens the file in between waits those microseconds; the lease-break signal (SIGIO) is
/// ignored process-wide from the first call, since its default action would end the process.
int ubq_fd_has_writer(int fd);

/// Puts the calling thread in the SCHED_IDLE class: it runs only on a core nothing else
/// wants, as background indexers do (Tracker, Baloo). A thread cannot leave the class
/// without CAP_SYS_NICE, so it is for threads that stay in the background. Glibc's Swift
/// module leaves SCHED_IDLE out (it needs _GNU_SOURCE). Returns 0, or -1 with errno set.
int ubq_schedule_when_idle(void);

/// Names the calling thread as `top -H` and `perf` show it (the first 15 bytes). Not
/// Foundation's `Thread.name`: on Linux its setter does nothing until `start()` has
/// returned in the starting thread, so a new thread that names itself first keeps its
/// creator's name (a test saw "oot.default-qos", a dispatch worker's). Returns 0, or -1
/// with errno set.
int ubq_name_this_thread(const char *name);

/// The columns a terminal gives Unicode scalar `scalar` (wcwidth(3) under the C.UTF-8
/// locale, whatever the process's): 0 for a combining mark, 2 for a wide East Asian
/// character, -1 for a control or an unassigned one; -2 where the C library has no UTF-8
/// locale. Swift's Glibc module does not import wcwidth.
int ubq_terminal_columns(uint32_t scalar);

#endif
