import { fdatasyncSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { dirname } from "node:path";

/** A database's `-wal` file, synced from libuv's thread pool: never on the event loop. */
export interface WalFile {
  /**
   * fdatasync of the WAL: every frame written to it so far, by any connection of any process (they
   * all write the one file), is on disk when this resolves.
   */
  sync(): Promise<void>;
  /**
   * The same fdatasync, on the calling thread; false, without syncing, when the file is not open yet (its
   * first sync opens it) or cannot be synced this way. Throws what the sync threw.
   */
  syncNow(): boolean;
  /** Closes the file (after the last sync: the caller waits for those). */
  close(): Promise<void>;
}

/** An open WAL: `datasyncNow` syncs on the calling thread, where the file system can. */
export type OpenWal = Pick<FileHandle, "datasync" | "close"> & { readonly datasyncNow?: () => void };

/** The file operations a WalFile uses; tests pass their own to see the calls. */
export interface WalFileSystem {
  open(path: string): Promise<OpenWal>;
  /** Makes a directory's entries (a newly created file's name) durable. */
  syncDirectory(path: string): Promise<void>;
}

const nodeFileSystem: WalFileSystem = {
  // "r": never creates the file; SQLite creates it, and removes it only when its last connection closes.
  open: async (path) => {
    const handle = await open(path, "r");
    return {
      datasync: () => handle.datasync(),
      close: () => handle.close(),
      datasyncNow: () => fdatasyncSync(handle.fd),
    };
  },
  syncDirectory: async (path) => {
    // Windows neither opens directories nor needs it (NTFS journals its metadata); SQLite skips it too.
    if (process.platform === "win32") return;
    const directory = await open(path, "r");
    try {
      await directory.sync();
    } finally {
      await directory.close();
    }
  },
};

/**
 * The WAL of `databaseFile`, opened lazily at the first sync after a commit. A checkpoint resets or
 * truncates the WAL in place (same inode), so the handle stays valid for the life of the connection;
 * SQLite deletes the WAL only when the last connection to the database closes, after checkpointing it
 * into the database file and syncing that, and the store's own connection is open until `close()`.
 */
export function walFile(databaseFile: string, fileSystem: WalFileSystem = nodeFileSystem): WalFile {
  const path = `${databaseFile}-wal`;
  let handle: OpenWal | undefined;
  let closed = false;
  return {
    async sync() {
      if (closed) throw new Error(`${path} is closed`);
      if (handle === undefined) {
        let opened: OpenWal;
        try {
          opened = await fileSystem.open(path);
        } catch (error) {
          // No WAL: nothing was ever written to one since the last connection checkpointed and removed it.
          if ((error as { code?: unknown }).code === "ENOENT") return;
          throw error;
        }
        // The file's name must survive a power loss too. SQLite with synchronous=FULL syncs the directory
        // after creating a WAL; with NORMAL it would not until a checkpoint, so this does, once.
        try {
          await fileSystem.syncDirectory(dirname(path));
        } catch (error) {
          await opened.close().catch(() => undefined);
          throw error;
        }
        handle = opened;
      }
      await handle.datasync();
    },
    syncNow() {
      if (closed || handle?.datasyncNow === undefined) return false;
      handle.datasyncNow();
      return true;
    },
    async close() {
      closed = true;
      const open = handle;
      handle = undefined;
      await open?.close();
    },
  };
}
