import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';

/** Who holds a data directory: written into the lock file for people to read, never trusted. */
type Owner = { pid: number; hostname: string; since: string };

/** flock's exit code when the file is locked by another (its --conflict-exit-code). */
const LOCKED_EXIT = 75;
/** Without flock(1): a lock whose holder stopped refreshing it for this long has no holder. */
const STALE_MS = 30_000;

/** A second process asked for a data directory that a running one holds. */
export class DataDirInUseError extends Error {}

type Held = { release: () => Promise<void> };

const readOwner = (lockPath: string): Owner | undefined => {
  try {
    const owner = JSON.parse(fs.readFileSync(lockPath, 'utf8')) as Partial<Owner>;
    return typeof owner.pid === 'number' && typeof owner.hostname === 'string' ? (owner as Owner) : undefined;
  } catch {
    return undefined;
  }
};

const inUseMessage = (dataDir: string, owner: Owner | undefined, after = '') => {
  const holder = owner
    ? `process ${owner.pid}${owner.hostname === os.hostname() ? '' : ` on ${owner.hostname}`}, running since ${owner.since}`
    : 'another process that is starting';
  return (
    `The data directory ${dataDir} is in use by ${holder}. One server process owns an embedded database: ` +
    `stop that one first, or give this one another DATA_DIR.${after}`
  );
};

/** util-linux's flock(1) on this system's PATH (Linux; util-linux is an Essential package of Debian). */
const flockCommand = () => {
  if (process.platform !== 'linux') return undefined;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = dir && path.join(dir, 'flock');
    if (!candidate) continue;
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {}
  }
  return undefined;
};

/**
 * The kernel's lock (flock(2)) on the lock file, held by a helper process: `flock --nonblock <file> cat`. flock
 * takes the lock or ends at once with LOCKED_EXIT; `cat` echoes a line back once it holds it, then waits on
 * its standard input, a pipe from this process. When this process ends, however it ends (kill -9 too), the
 * kernel closes the pipe, cat and flock end and the kernel frees the lock: no recorded id is ever trusted, so
 * a reused process id (any container restart) cannot keep a data directory locked. The helper runs in a
 * session of its own, so that a terminal's Ctrl-C reaches the server, which stops cleanly, and not the lock.
 */
const lockWithFlock = async (
  flock: string,
  dataDir: string,
  lockPath: string,
  onLost: ((error: Error) => void) | undefined,
): Promise<Held | undefined> => {
  const holder = spawn(flock, ['--nonblock', '--conflict-exit-code', String(LOCKED_EXIT), lockPath, 'cat'], {
    stdio: ['pipe', 'pipe', 'ignore'],
    detached: true,
  });
  // flock that found the lock taken ends before it reads a byte: the write then fails (EPIPE), as expected.
  holder.stdin.on('error', () => undefined);
  const outcome = await new Promise<'held' | 'in use' | 'cannot lock'>((resolve) => {
    holder.stdout.once('data', () => resolve('held'));
    holder.once('error', () => resolve('cannot lock'));
    holder.once('exit', (code) => resolve(code === LOCKED_EXIT ? 'in use' : 'cannot lock'));
    holder.stdin.write('held\n');
  });
  if (outcome === 'in use') throw new DataDirInUseError(inUseMessage(dataDir, readOwner(lockPath)));
  // A file system without flock(2) (some network and FUSE ones): the lock of its time is what remains.
  if (outcome === 'cannot lock') return undefined;
  let released = false;
  holder.once('exit', (code, signal) => {
    if (!released)
      onLost?.(new Error(`the process holding the lock of ${dataDir} ended (${signal ?? `exit ${code}`})`));
  });
  // The lock lasts as long as this process, and keeps it from ending no more than a timer would.
  holder.unref();
  for (const stream of [holder.stdin, holder.stdout]) (stream as unknown as Socket).unref();
  return {
    release: async () => {
      if (released) return;
      released = true;
      const ended = new Promise((resolve) => {
        if (holder.exitCode !== null || holder.signalCode !== null) resolve(undefined);
        else holder.once('exit', resolve);
      });
      holder.stdin.end();
      const timer = setTimeout(() => holder.kill('SIGKILL'), 2000);
      await ended;
      clearTimeout(timer);
    },
  };
};

/**
 * Without flock(1) (macOS, a system without util-linux) or flock(2) on the file system: proper-lockfile's
 * lock directory beside the lock file, kept fresh by its holder. It is judged by its time alone, never by a
 * process id: a lock left by a killed holder is taken over once it has not been refreshed for STALE_MS.
 */
const lockWithTime = async (
  dataDir: string,
  lockPath: string,
  onLost: ((error: Error) => void) | undefined,
): Promise<Held> => {
  try {
    const unlock = await lockfile.lock(dataDir, {
      lockfilePath: `${lockPath}.d`,
      stale: STALE_MS,
      realpath: false,
      onCompromised: (error) => onLost?.(error),
    });
    return { release: () => unlock().catch(() => undefined) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    throw new DataDirInUseError(
      inUseMessage(
        dataDir,
        readOwner(lockPath),
        ` If that process has stopped, its lock frees itself within ${STALE_MS / 1000} s.`,
      ),
    );
  }
};

/**
 * Makes this process the one owner of an embedded (PGlite) data directory (DESIGN "Persistence and faults"):
 * an operating-system lock on the file `<dataDir>.lock`, which the kernel frees when this process ends
 * (lockWithFlock; lockWithTime where flock(1) is missing or the file system has no flock(2)). A second
 * process, or a second open in this one, stops with DataDirInUseError naming the directory and the holder.
 * The file also names the holder's pid for people to read; the lock, not that pid, decides. `onLost` is
 * called if the lock goes while held (its helper process was killed): continuing would let two processes
 * write one directory.
 */
export const lockDataDir = async (
  dataDir: string,
  options: { onLost?: (error: Error) => void } = {},
): Promise<Held> => {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = `${dataDir}.lock`;
  // Before this lock, `<dataDir>.lock` was proper-lockfile's directory, which a killed server left behind.
  if (fs.lstatSync(lockPath, { throwIfNoEntry: false })?.isDirectory())
    fs.rmSync(lockPath, { recursive: true, force: true });
  const flock = flockCommand();
  const held =
    (flock ? await lockWithFlock(flock, dataDir, lockPath, options.onLost) : undefined) ??
    (await lockWithTime(dataDir, lockPath, options.onLost));
  const owner: Owner = { pid: process.pid, hostname: os.hostname(), since: new Date().toISOString() };
  // Written in place (never replaced: the lock is on this file's inode), and emptied before the lock goes.
  try {
    fs.writeFileSync(lockPath, `${JSON.stringify(owner)}\n`);
  } catch (error) {
    await held.release();
    throw error;
  }
  const clearOwner = () => {
    if (readOwner(lockPath)?.pid === owner.pid) fs.writeFileSync(lockPath, '');
  };
  process.once('exit', clearOwner);
  let released = false;
  return {
    release: async () => {
      if (released) return;
      released = true;
      process.off('exit', clearOwner);
      clearOwner();
      await held.release();
    },
  };
};
