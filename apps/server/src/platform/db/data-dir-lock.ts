import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';

/** Who holds a data directory: written into the lock when it is taken. */
type Owner = { pid: number; hostname: string; since: string };

/** The holder refreshes the lock's time every STALE_MS / 2; a lock left older than this has no holder. */
const STALE_MS = 30_000;
const OWNER_FILE = 'owner.json';

/** The lock files this process holds: a second open in the same process is refused as well. */
const heldHere = new Set<string>();

/** A second process asked for a data directory that a running one holds. */
export class DataDirInUseError extends Error {}

const readOwner = (lockPath: string): Owner | undefined => {
  try {
    const owner = JSON.parse(fs.readFileSync(path.join(lockPath, OWNER_FILE), 'utf8')) as Partial<Owner>;
    return typeof owner.pid === 'number' && typeof owner.hostname === 'string' ? (owner as Owner) : undefined;
  } catch {
    return undefined;
  }
};

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Whether the holder of a lock is gone. On this host the process id says so at once (a kill -9 leaves the
 * lock behind); our own pid there is a previous life of this process (a restarted container). A holder on
 * another host (a shared volume) is judged by the lock's time only, as is a lock whose owner is unknown.
 */
const holderIsGone = (lockPath: string, owner: Owner | undefined) => {
  if (heldHere.has(lockPath)) return false;
  if (owner && owner.hostname === os.hostname()) return owner.pid === process.pid || !isAlive(owner.pid);
  try {
    return fs.statSync(lockPath).mtimeMs < Date.now() - STALE_MS;
  } catch {
    return true;
  }
};

const inUseMessage = (dataDir: string, lockPath: string, owner: Owner | undefined) => {
  const holder = owner
    ? `process ${owner.pid}${owner.hostname === os.hostname() ? '' : ` on ${owner.hostname}`}, running since ${owner.since}`
    : 'another process that is starting';
  return (
    `The data directory ${dataDir} is in use by ${holder}. One server process owns an embedded database: ` +
    `stop that one first, or give this one another DATA_DIR. If no server runs there, remove ${lockPath}.`
  );
};

/**
 * Makes this process the one owner of an embedded (PGlite) data directory (DESIGN "Persistence and faults"):
 * an OS-level lock (a directory made atomically, kept fresh by proper-lockfile) beside it, holding the
 * owner's pid. A second process stops with DataDirInUseError naming the directory and the holder; the lock
 * of a holder that died is taken over. `onLost` is called if the lock is taken away while held (another
 * process removed it as stale): continuing would let two processes write one directory.
 */
export const lockDataDir = async (
  dataDir: string,
  options: { onLost?: (error: Error) => void } = {},
): Promise<{ release: () => Promise<void> }> => {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = `${dataDir}.lock`;
  let unlock: (() => Promise<void>) | undefined;
  for (let attempt = 0; !unlock; attempt++) {
    try {
      unlock = await lockfile.lock(dataDir, {
        lockfilePath: lockPath,
        stale: STALE_MS,
        realpath: false,
        onCompromised: (error) => options.onLost?.(error),
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // ENOTEMPTY: proper-lockfile found the lock stale but cannot remove it with the owner file inside.
      if (code !== 'ELOCKED' && code !== 'ENOTEMPTY') throw error;
      const owner = readOwner(lockPath);
      if (attempt > 0 || !holderIsGone(lockPath, owner))
        throw new DataDirInUseError(inUseMessage(dataDir, lockPath, owner));
      fs.rmSync(lockPath, { recursive: true, force: true });
    }
  }
  const owner: Owner = { pid: process.pid, hostname: os.hostname(), since: new Date().toISOString() };
  // The owner lives inside the lock, so it goes with it; proper-lockfile reads a changed time of the lock as
  // "taken over by another process", so the time a new file gives the directory is put back.
  const { atime, mtime } = fs.statSync(lockPath);
  fs.writeFileSync(path.join(lockPath, OWNER_FILE), JSON.stringify(owner));
  fs.utimesSync(lockPath, atime, mtime);
  heldHere.add(lockPath);
  let released = false;
  // An exit without release (process.exit after a failed start) still frees the directory: proper-lockfile's
  // own exit hook cannot, it removes only an empty lock.
  const removeAtExit = () => {
    const holder = readOwner(lockPath);
    if (holder?.pid === owner.pid && holder.hostname === owner.hostname)
      fs.rmSync(lockPath, { recursive: true, force: true });
  };
  process.once('exit', removeAtExit);
  return {
    release: async () => {
      if (released) return;
      released = true;
      heldHere.delete(lockPath);
      process.off('exit', removeAtExit);
      fs.rmSync(path.join(lockPath, OWNER_FILE), { force: true });
      await unlock().catch(() => {});
    },
  };
};
