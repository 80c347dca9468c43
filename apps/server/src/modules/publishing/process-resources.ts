import {
  isSubtitleLanguage,
  type NetworkNode,
  PUBLISH_RUN_MESSAGES,
  SUBTITLE_LANGUAGE_NAMES,
  watermarkIconIdOf,
  watermarkImageOf,
} from '@media/contract';
import type { ProcessResources } from '@media/media-tools';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.ts';
import { findSubtitle } from '../nodes/service.ts';
import { accounts } from '../organisation/tables.ts';
import { PublishRefused } from './destinations/index.ts';
import * as repo from './repo.ts';
import { publishButtons } from './tables.ts';

type Work = {
  publish: { buttonId: number; accountId: number };
  button: { name: string };
  node: { name: string };
  mediaId: number;
};

const isEmpty = (value: unknown) => typeof value !== 'string' || value.trim() === '';

/** The stored PNG of the icon a watermark burns in: the button's own, or an uploaded one of the account's. */
const watermarkIcon = async (ctx: AppContext, work: Work, options: Record<string, unknown>) => {
  const image = watermarkImageOf(options);
  if (image === 'none') {
    if (isEmpty(options.text)) throw new PublishRefused(PUBLISH_RUN_MESSAGES.watermarkEmpty);
    return undefined;
  }
  if (image === 'button-icon') {
    const [button] = await ctx.db
      .select({ iconId: publishButtons.iconId })
      .from(publishButtons)
      .where(eq(publishButtons.id, work.publish.buttonId));
    const icon = button?.iconId ? await repo.findIcon(ctx.db, button.iconId) : undefined;
    if (!icon) throw new PublishRefused(PUBLISH_RUN_MESSAGES.noButtonIcon(work.button.name));
    return icon.storagePath;
  }
  // An uploaded icon of the publishing account or of its site; another account's is never read.
  const id = watermarkIconIdOf(options);
  const icon = id ? await repo.findIcon(ctx.db, id) : undefined;
  const [account] = await ctx.db
    .select({ siteId: accounts.siteId })
    .from(accounts)
    .where(eq(accounts.id, work.publish.accountId));
  if (!icon || !(icon.accountId === work.publish.accountId || icon.siteId === account?.siteId))
    throw new PublishRefused(PUBLISH_RUN_MESSAGES.iconNotFound);
  return icon.storagePath;
};

/** The stored subtitles a burn-subtitles node draws in, with their format. */
const subtitles = async (ctx: AppContext, work: Work, options: Record<string, unknown>) => {
  const language = isSubtitleLanguage(options.language) ? options.language : 'en';
  const found = await findSubtitle(ctx.db, work.mediaId, language);
  if (!found)
    throw new PublishRefused(
      PUBLISH_RUN_MESSAGES.noSubtitles(work.node.name, SUBTITLE_LANGUAGE_NAMES[language]),
    );
  return found;
};

/**
 * The files the process nodes of a run use besides the media (the watermark's image, the subtitles), made
 * local before any step runs: a missing one fails the publish at once, with its reason, before minutes
 * of work. `release` lets go of the local copies (S3 storage downloads them).
 */
export const processResources = async (ctx: AppContext, work: Work, processes: readonly NetworkNode[]) => {
  const found = new Map<number, ProcessResources>();
  const copies: { release: () => Promise<void> }[] = [];
  const release = async () => {
    for (const copy of copies.splice(0)) await copy.release().catch(() => undefined);
  };
  const local = async (key: string) => {
    const copy = await ctx.storage.localCopy(key);
    copies.push(copy);
    return copy.path;
  };
  try {
    for (const node of processes) {
      if (node.moduleId === 'watermark') {
        const key = await watermarkIcon(ctx, work, node.options);
        if (key) found.set(node.nodeLocalId, { image: await local(key) });
      } else if (node.moduleId === 'burn-subtitles') {
        const row = await subtitles(ctx, work, node.options);
        found.set(node.nodeLocalId, {
          subtitles: { file: await local(row.storagePath), format: row.format },
        });
      }
    }
  } catch (error) {
    await release();
    throw error;
  }
  return { of: (node: NetworkNode) => found.get(node.nodeLocalId) ?? {}, release };
};
