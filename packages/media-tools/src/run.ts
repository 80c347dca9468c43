import { spawnTool } from './children.ts';

/** The last lines of a tool's stderr, kept to explain a failure. */
const tail = (text: string, lines = 20) => text.trim().split('\n').slice(-lines).join('\n');

/**
 * Runs ffmpeg or ffprobe with an argument list (never a shell), collecting stdout and the tail of stderr.
 * `signal` kills it (SIGTERM, then SIGKILL after a second) and rejects with the signal's reason.
 */
export const runTool = (
  command: 'ffmpeg' | 'ffprobe',
  args: string[],
  options: { signal?: AbortSignal; timeoutMs?: number; onStdout?: (chunk: string) => void } = {},
): Promise<{ stdout: Buffer }> =>
  new Promise((resolve, reject) => {
    const { signal } = options;
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const child = spawnTool(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;
    const kill = () => {
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), 1000);
    };
    const onAbort = () => kill();
    signal?.addEventListener('abort', onAbort, { once: true });
    const timeout = options.timeoutMs ? setTimeout(kill, options.timeoutMs) : undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      if (options.onStdout) options.onStdout(chunk.toString());
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString()).slice(-20_000);
    });
    const finish = (error?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timeout);
      clearTimeout(killTimer);
      signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve({ stdout: Buffer.concat(out) });
    };
    child.on('error', (error) => finish(new Error(`${command} could not start: ${error.message}`)));
    child.on('close', (code, killedBy) => {
      if (signal?.aborted) finish(signal.reason);
      else if (code === 0) finish();
      else
        finish(
          new Error(
            `${command} ${killedBy ? `was stopped (${killedBy})` : `failed (exit ${code})`}: ${tail(err) || 'no output'}`,
          ),
        );
    });
  });

/**
 * Reads ffmpeg's `-progress pipe:1` output and reports the percentage of `duration` (seconds) done, at most
 * four times a second and never 100 (the caller says 100 when the file is in place).
 */
export const progressReader = (
  duration: number | null,
  onProgress: ((percent: number) => void) | undefined,
) => {
  let lastReport = 0;
  let progressText = '';
  return (chunk: string) => {
    if (!onProgress || !duration) return;
    progressText = (progressText + chunk).slice(-4000);
    const last = [...progressText.matchAll(/out_time_us=(\d+)/g)].at(-1)?.[1];
    if (!last) return;
    const now = Date.now();
    if (now - lastReport < 250) return;
    lastReport = now;
    onProgress(Math.min(99, Math.max(0, Math.floor((Number(last) / 1e6 / duration) * 100))));
  };
};
