import fs from 'node:fs';
import path from 'node:path';
import {
  type AgentPublish,
  type AgentPublishProgress,
  PUBLISH_RUN_MESSAGES,
  type PublishOutput,
  publishModule,
} from '@media/contract';
import {
  exportIntoFolder,
  type ProcessedFile,
  ProcessRefused,
  probe,
  runProcessStep,
  safeFolder,
} from '@media/media-tools';
import { type CloudClient, CloudError } from './cloud.ts';

/** Progress goes to the cloud at most this often (log lines go with it, or with the final report). */
const REPORT_EVERY_MS = 1000;

export type PublishEnvironment = {
  cloud: CloudClient;
  /** The agent's own folder: a publish works in `work/publish-{id}` under it, removed when it ends. */
  stateDir: string;
  /** The folder of this edge server that folder exports write into (their Folder option is a sub-folder). */
  exportsDir: string;
  log: (level: 'info' | 'warn' | 'error', message: string) => void;
};

/** The publish is no longer this agent's to run (a person deleted it, or the agent is stopping). */
class Stopped extends Error {}
/** A failure the publish ends with, as it says. */
class ProcessFailed extends Error {}
/** A report the cloud did not take: the publish stays running there and is started again at a next round. */
class ReportLost extends Error {}

const moduleName = (moduleId: string) => publishModule(moduleId)?.name ?? moduleId;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Sends a publish's percentage and log lines at most every REPORT_EVERY_MS; a 404 or 409 stops the run. */
class PublishReporter {
  private percent = 0;
  private sent = 0;
  private lines: string[] = [];
  private sending: Promise<void> = Promise.resolve();
  private readonly timer = setInterval(() => this.flush(), REPORT_EVERY_MS);

  constructor(
    private readonly cloud: CloudClient,
    private readonly id: number,
    private readonly controller: AbortController,
  ) {}

  set(percent: number) {
    this.percent = Math.max(this.percent, Math.min(99, Math.floor(percent)));
  }

  note(line: string) {
    this.lines.push(line);
  }

  private flush() {
    if (this.controller.signal.aborted || (this.percent === this.sent && this.lines.length === 0)) return;
    const report = { progress: this.percent, ...this.take() };
    this.sent = this.percent;
    this.sending = this.sending
      .then(() => this.cloud.reportPublish(this.id, report))
      .then(
        () => undefined,
        (error: unknown) => {
          if (error instanceof CloudError && (error.status === 404 || error.status === 409))
            this.controller.abort(new Stopped(error.message));
        },
      );
  }

  private take() {
    const log = this.lines;
    this.lines = [];
    return log.length ? { log } : {};
  }

  /** The last report, with the log lines not sent yet; a failure to send it is a lost report. */
  async end(report: AgentPublishProgress) {
    clearInterval(this.timer);
    await this.sending;
    const log = [...this.lines, ...(report.log ?? [])];
    this.lines = [];
    await this.cloud.reportPublish(this.id, { ...report, ...(log.length ? { log } : {}) }).catch((error) => {
      if (error instanceof CloudError && error.status < 500) throw error;
      throw new ReportLost(messageOf(error));
    });
  }

  async stop() {
    clearInterval(this.timer);
    await this.sending;
  }
}

/**
 * Carries out one publish of this edge server (DESIGN "Publishing"): claims it, downloads the node's file into
 * its work folder, runs the process steps with the cloud's code (runProcessStep), writes folder exports into
 * the edge server's exports folder, and reports done with where the results went, or failed with why. Answers
 * whether the cloud has the outcome; when not (the agent stops, or a report did not get through) the publish
 * is still running in the cloud, and the next claim starts it again from the beginning.
 */
export const carryOutPublish = async (
  env: PublishEnvironment,
  listed: AgentPublish,
  stopping: AbortSignal,
): Promise<boolean> => {
  const { cloud } = env;
  if (stopping.aborted) return false;
  const publish = await cloud.claimPublish(listed.id).catch((error: unknown) => {
    if (error instanceof CloudError && (error.status === 404 || error.status === 409)) return undefined;
    throw error;
  });
  if (!publish) return true;
  const controller = new AbortController();
  const onStop = () => controller.abort(new Stopped('The agent is stopping'));
  stopping.addEventListener('abort', onStop, { once: true });
  const { signal } = controller;
  const reporter = new PublishReporter(cloud, publish.id, controller);
  const workDir = path.join(env.stateDir, 'work', `publish-${publish.id}`);
  try {
    // Whatever an earlier start left here is not trusted: a publish starts again from the beginning.
    await fs.promises.rm(workDir, { recursive: true, force: true });
    await fs.promises.mkdir(workDir, { recursive: true });
    const source = path.join(workDir, 'source');
    await cloud.downloadPublishSource(publish.id, source, signal);
    const info = await probe(source, { signal });
    if (!info) throw new ProcessFailed(PUBLISH_RUN_MESSAGES.noSource);
    const total = publish.chains.reduce((sum, chain) => sum + chain.processes.length + 1, 0) || 1;
    let done = 0;
    const onProgress = (percent: number) => reporter.set(((done + percent / 100) / total) * 100);
    const outputs: PublishOutput[] = [];
    for (const [chainIndex, chain] of publish.chains.entries()) {
      let current: ProcessedFile = { file: source, duration: info.duration, hasAudio: info.hasAudio };
      for (const [stepIndex, step] of chain.processes.entries()) {
        current = await runProcessStep(step, current, path.join(workDir, `${chainIndex}-${stepIndex}`), {
          signal,
          onProgress,
        });
        done++;
        reporter.note(`${moduleName(step.moduleId)}: done`);
      }
      const location = await deliver(env, chain.destination, current.file, publish.nodeName);
      outputs.push({ moduleId: chain.destination.moduleId, location });
      done++;
      reporter.set((done / total) * 100);
      reporter.note(`${moduleName(chain.destination.moduleId)}: ${location}`);
    }
    if (signal.aborted) throw signal.reason;
    await reporter.end({ status: 'done', outputs });
    return true;
  } catch (error) {
    await reporter.stop();
    // The agent is stopping: the publish stays running in the cloud, started again by the next agent.
    if (stopping.aborted) return false;
    // A person deleted it, or the cloud ended it otherwise: nothing more to say.
    if (signal.aborted) return true;
    if (error instanceof ReportLost) return false;
    if (error instanceof CloudError && (error.status === 404 || error.status === 409)) return true;
    const reason =
      error instanceof ProcessRefused ? PUBLISH_RUN_MESSAGES.unknownModule(moduleName(error.message)) : error;
    return reporter.end({ status: 'failed', error: messageOf(reason).slice(0, 2000) }).then(
      () => true,
      (failure: unknown) => {
        env.log('warn', `publish ${publish.id}: the failure was not reported: ${messageOf(failure)}`);
        return false;
      },
    );
  } finally {
    stopping.removeEventListener('abort', onStop);
    await fs.promises.rm(workDir, { recursive: true, force: true });
  }
};

/**
 * The destinations an edge server runs: a folder export into its exports folder, the Folder option as a
 * sub-folder that never climbs out, never over an earlier export (' (2)' names). Answers the file's path.
 */
const deliver = async (
  env: PublishEnvironment,
  destination: AgentPublish['chains'][number]['destination'],
  file: string,
  nodeName: string,
) => {
  if (destination.moduleId !== 'folder-export')
    throw new ProcessFailed(PUBLISH_RUN_MESSAGES.unknownModule(moduleName(destination.moduleId)));
  const folder = path.join(env.exportsDir, ...safeFolder(String(destination.options.folder ?? '')));
  return exportIntoFolder(file, folder, nodeName);
};

/**
 * Runs this edge server's publishes one at a time, as they are listed: `poll` (each heartbeat) looks for
 * work unless a publish is under way; after one ends it looks again at once.
 */
export class PublishWorker {
  private working?: Promise<void>;

  constructor(
    private readonly env: PublishEnvironment,
    private readonly stopping: AbortSignal,
  ) {}

  poll() {
    if (this.working || this.stopping.aborted) return;
    this.working = this.work()
      .catch((error: unknown) => this.env.log('warn', `publishing: ${messageOf(error)}`))
      .finally(() => {
        this.working = undefined;
      });
  }

  private async work() {
    while (!this.stopping.aborted) {
      const [next] = await this.env.cloud.publishes(1);
      // Nothing to do, or a publish whose outcome did not reach the cloud: the next round tries again.
      if (!next || !(await carryOutPublish(this.env, next, this.stopping))) return;
    }
  }

  /** Resolves when the publish under way (if any) has ended. */
  async idle() {
    await this.working;
  }
}
