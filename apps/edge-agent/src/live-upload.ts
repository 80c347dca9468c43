import fs from 'node:fs';
import path from 'node:path';
import { finishedSegments } from '@media/media-tools';
import { type CloudClient, CloudError } from './cloud.ts';

/**
 * The live rendition of a recording (issue 16): each segment ffmpeg finishes goes to the cloud, in order, so
 * the stream's node plays live while it records. What went up is kept in the recording's folder (an agent
 * restart sends on from there); a failed upload is tried again at the next sync, and a refusal (the item no
 * longer records) ends the uploads.
 */
export class LiveUploader {
  private readonly sentFile: string;
  private sent: Set<number> | undefined;
  private running: Promise<void> | undefined;
  private refused = false;

  constructor(
    private readonly cloud: CloudClient,
    private readonly itemId: number,
    private readonly dir: string,
  ) {
    this.sentFile = path.join(dir, 'live-sent');
  }

  /** Sends what is finished and not sent yet, in the background; a sync under way is not doubled. */
  sync() {
    if (this.running || this.refused) return;
    // A folder that cannot be read now is read again at the next sync.
    this.running = this.send()
      .catch(() => undefined)
      .finally(() => {
        this.running = undefined;
      });
  }

  /** Resolves once the sync under way (if any) is over. */
  async settled() {
    await this.running;
  }

  private async send() {
    this.sent ??= new Set(
      (await fs.promises.readFile(this.sentFile, 'utf8').catch(() => ''))
        .split('\n')
        .filter(Boolean)
        .map(Number),
    );
    for (const segment of await finishedSegments(this.dir)) {
      if (this.sent.has(segment.sequence)) continue;
      try {
        const data = await fs.promises.readFile(segment.file);
        await this.cloud.uploadLiveSegment(this.itemId, segment.sequence, data, segment);
      } catch (error) {
        if (error instanceof CloudError && error.status < 500 && error.status !== 429) this.refused = true;
        return;
      }
      this.sent.add(segment.sequence);
      await fs.promises.appendFile(this.sentFile, `${segment.sequence}\n`);
    }
  }
}
