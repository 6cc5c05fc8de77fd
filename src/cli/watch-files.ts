import { type FSWatcher, watch } from "node:fs";
import { basename, dirname } from "node:path";

/** A set of watched files that can be changed while watching. */
export interface FileWatch {
  /** Watches exactly these files from now on. */
  set(files: Iterable<string>): void;
  close(): void;
}

/**
 * Calls `onChange` when one of the files is written, replaced, renamed or deleted. Editors save by
 * writing, by renaming a temporary file over the old one, or by deleting and creating it again, so each
 * file's folder is watched (one watcher a folder) and events are kept by file name.
 */
export function watchFiles(onChange: () => void): FileWatch {
  const folders = new Map<string, { watcher: FSWatcher; names: Set<string> }>();
  const unwatch = (folder: string) => {
    folders.get(folder)?.watcher.close();
    folders.delete(folder);
  };
  return {
    set(files) {
      const wanted = new Map<string, Set<string>>();
      for (const file of files) {
        const names = wanted.get(dirname(file)) ?? new Set<string>();
        wanted.set(dirname(file), names.add(basename(file)));
      }
      for (const folder of folders.keys()) if (!wanted.has(folder)) unwatch(folder);
      for (const [folder, names] of wanted) {
        const existing = folders.get(folder);
        if (existing !== undefined) {
          existing.names = names;
          continue;
        }
        try {
          const entry = {
            names,
            watcher: watch(folder, (_event, name) => {
              if (name === null || entry.names.has(name.toString())) onChange();
            }),
          };
          // A folder that goes away (or a platform that cannot watch it) stops its watcher, not the server.
          entry.watcher.on("error", () => unwatch(folder));
          folders.set(folder, entry);
        } catch {
          // The folder is gone since the file was loaded: the next load reports the file missing.
        }
      }
    },
    close() {
      for (const folder of [...folders.keys()]) unwatch(folder);
    },
  };
}
