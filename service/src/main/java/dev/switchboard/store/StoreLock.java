package dev.switchboard.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * One Switchboard per SQLite file (issue 12): a second one on the same file would run the same sessions twice. The
 * first takes an exclusive lock on {@code <db>.lock} for its whole life; a second process (or a second app in the
 * same JVM) is refused at start. The lock is the operating system's (fcntl on Linux): it goes with the process,
 * even one killed with SIGKILL, so a crashed Switchboard never leaves a stale lock behind. Several replicas need a
 * PostgreSQL store.
 */
public final class StoreLock implements AutoCloseable {

    private final FileChannel channel;
    private final FileLock lock;

    private StoreLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Locks {@code sqlite:PATH}'s lock file; null for a store that is not a SQLite file. */
    public static StoreLock acquire(String store) {
        if (store == null || !store.startsWith("sqlite:")) {
            return null;
        }
        Path file = Path.of(store.substring("sqlite:".length())).toAbsolutePath();
        Path lockFile = file.resolveSibling(file.getFileName() + ".lock");
        FileChannel channel;
        try {
            if (!Files.isDirectory(lockFile.getParent())) {
                // the store's folder, made as the store makes it: owner only
                Files.createDirectories(lockFile.getParent());
                if (lockFile.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                    Files.setPosixFilePermissions(lockFile.getParent(), PosixFilePermissions.fromString("rwx------"));
                }
            }
            if (!Files.exists(lockFile) && lockFile.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                try {
                    Files.createFile(lockFile, PosixFilePermissions.asFileAttribute(
                            PosixFilePermissions.fromString("rw-------")));
                } catch (java.nio.file.FileAlreadyExistsException raced) {
                    // another start made it first: lock it below
                }
            }
            channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new IllegalStateException("cannot open the store's lock file " + lockFile + ": " + e.getMessage(), e);
        }
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null; // held by this JVM: another Switchboard in this process
        } catch (IOException e) {
            close(channel);
            throw new IllegalStateException("cannot lock the store's lock file " + lockFile + ": " + e.getMessage(), e);
        }
        if (lock == null) {
            close(channel);
            throw new IllegalStateException("another Switchboard is already running on the store " + file + " (it holds "
                    + lockFile + "). A SQLite store serves one process only: stop the other one, or, to run several "
                    + "replicas, use a PostgreSQL store (store: postgresql://host:5432/db).");
        }
        return new StoreLock(channel, lock);
    }

    private static void close(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // nothing held
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException e) {
            // the channel's close releases it too
        }
        close(channel);
    }
}
