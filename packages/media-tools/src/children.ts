import {
  type ChildProcess,
  type ChildProcessByStdio,
  execFileSync,
  type SpawnOptions,
  type SpawnOptionsWithStdioTuple,
  type StdioNull,
  type StdioPipe,
  spawn,
} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * The environment variable that marks a tool process (ffmpeg, ffprobe) with the process that started it and
 * the data directory it works for: `<pid>:<real path of DATA_DIR>`. /proc/<pid>/environ shows it, so a later
 * start on the same directory finds the tools a killed server left (endLeftoverTools).
 */
export const TOOL_MARK_VARIABLE = 'MEDIA_TOOL_OF';

/** The mark of the tools `pid` starts for `dataDir`. */
export const toolMark = (pid: number, dataDir: string) => `${pid}:${realDir(dataDir)}`;

const realDir = (dir: string) => {
  try {
    return fs.realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
};

let markedDir: string | undefined;

/**
 * From now on the tools this process starts are marked as working for `dataDir` (the server calls it at
 * start, with its DATA_DIR): endLeftoverTools finds them after a crash.
 */
export const markToolsOf = (dataDir: string) => {
  markedDir = realDir(dataDir);
};

/** Where `command` is on the PATH, or undefined; looked up once per PATH. */
const found = new Map<string, string | undefined>();
const onPath = (command: string) => {
  const key = `${process.env.PATH ?? ''}\0${command}`;
  if (!found.has(key)) {
    let at: string | undefined;
    for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
      if (!dir) continue;
      const candidate = path.join(dir, command);
      try {
        fs.accessSync(candidate, fs.constants.X_OK);
        if (fs.statSync(candidate).isFile()) {
          at = candidate;
          break;
        }
      } catch {}
    }
    found.set(key, at);
  }
  return found.get(key);
};

let wrapper: { path: string | undefined } | undefined;
/** setpriv, when it is on the PATH and knows --pdeathsig (util-linux 2.33 and later); looked up once. */
const deathSignalWrapper = () => {
  if (!wrapper) {
    const setpriv = process.platform === 'linux' ? onPath('setpriv') : undefined;
    let knows = false;
    try {
      knows =
        setpriv !== undefined &&
        execFileSync(setpriv, ['--help'], { encoding: 'utf8' }).includes('--pdeathsig');
    } catch {}
    wrapper = { path: knows ? setpriv : undefined };
  }
  return wrapper.path;
};

/**
 * Starts a tool so that it dies with this process (DESIGN "Persistence and faults": no ffmpeg outlives its
 * server). On Linux it runs under util-linux's `setpriv --pdeathsig KILL` (util-linux is an Essential package
 * of Debian): setpriv asks the kernel for SIGKILL when its parent dies (prctl PR_SET_PDEATHSIG, kept across
 * the exec) and then becomes the tool, under the same process id. So a kill -9 of the server ends its ffmpegs
 * at once; a pipe would not (ffmpeg reads its stdin for keys, and an end of file does not stop it). Where
 * setpriv is missing (macOS, a system without util-linux) the tool starts as it is, and only the start-time
 * sweep (endLeftoverTools) ends what a crash left. The kernel's "parent" is the thread that started the
 * tool: Node's main thread here; a tool started from a worker thread would end with that thread.
 */
export function spawnTool(
  command: string,
  args: readonly string[],
  options: SpawnOptionsWithStdioTuple<StdioNull, StdioPipe, StdioPipe>,
): ChildProcessByStdio<null, Readable, Readable>;
export function spawnTool(
  command: string,
  args: readonly string[],
  options: SpawnOptionsWithStdioTuple<StdioNull, StdioNull, StdioPipe>,
): ChildProcessByStdio<null, null, Readable>;
export function spawnTool(command: string, args: readonly string[], options?: SpawnOptions): ChildProcess;
export function spawnTool(
  command: string,
  args: readonly string[],
  options: SpawnOptions = {},
): ChildProcess {
  const env = markedDir
    ? { ...(options.env ?? process.env), [TOOL_MARK_VARIABLE]: `${process.pid}:${markedDir}` }
    : options.env;
  const setpriv = deathSignalWrapper();
  // The tool by its full path: a missing one fails as a missing command (ENOENT), not as setpriv's exit 127.
  const tool = setpriv ? onPath(command) : undefined;
  if (setpriv && tool)
    return spawn(setpriv, ['--pdeathsig', 'KILL', '--', tool, ...args], { ...options, env });
  return spawn(command, args, { ...options, env });
}

/** The parent process id and state of `pid`, from /proc/<pid>/stat (the name in brackets may hold spaces). */
const statOf = (pid: number) => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
};

/** The mark of a running process, or undefined (not ours, gone, or not readable by this user). */
const markOf = (pid: number) => {
  let environ: Buffer;
  try {
    environ = fs.readFileSync(`/proc/${pid}/environ`);
  } catch {
    return undefined;
  }
  const prefix = `${TOOL_MARK_VARIABLE}=`;
  for (const entry of environ.toString('utf8').split('\0')) {
    if (!entry.startsWith(prefix)) continue;
    const value = entry.slice(prefix.length);
    const colon = value.indexOf(':');
    const owner = Number(value.slice(0, colon));
    return colon > 0 && Number.isInteger(owner) ? { owner, dir: value.slice(colon + 1) } : undefined;
  }
  return undefined;
};

/**
 * Ends (SIGKILL) the tools that a previous run on `dataDir` left behind: processes marked for the directory
 * whose parent is no longer the process that started them (it died; they were handed to init). The tools of
 * a running server on the same directory (instances sharing a DATA_DIR, WEB_CONCURRENCY's processes) have
 * that server as their parent and are left alone, whatever became of the process ids since. Linux only
 * (/proc); elsewhere it ends nothing. Answers how many it ended.
 */
export const endLeftoverTools = (dataDir: string) => {
  if (process.platform !== 'linux') return 0;
  const dir = realDir(dataDir);
  let names: string[];
  try {
    names = fs.readdirSync('/proc');
  } catch {
    return 0;
  }
  let ended = 0;
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    const mark = markOf(pid);
    if (!mark || mark.dir !== dir) continue;
    const stat = statOf(pid);
    if (!stat || stat.state === 'Z' || stat.ppid === mark.owner) continue;
    try {
      process.kill(pid, 'SIGKILL');
      ended++;
    } catch {}
  }
  return ended;
};
