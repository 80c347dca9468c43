import { PUBLISH_RUN_MESSAGES, type PublishOutput, publishModule } from '@media/contract';
import type { AppContext } from '../../../platform/context.ts';
import { type Delivery, type Destination, type NetworkNode, PublishRefused } from './common.ts';
import { exportToFolder } from './folder.ts';
import { uploadByFtp } from './ftp.ts';
import { uploadToS3 } from './s3.ts';
import { uploadBySftp } from './sftp.ts';
import { callWebhook } from './webhook.ts';
import { uploadToYoutube } from './youtube.ts';

export { type Delivery, PublishRefused } from './common.ts';
export { WEBHOOK_SIGNATURE_HEADER } from './webhook.ts';

/** The destination modules the cloud's workers run, by module id. */
const DESTINATIONS: Record<string, Destination> = {
  'folder-export': exportToFolder,
  webhook: callWebhook,
  ftp: uploadByFtp,
  sftp: uploadBySftp,
  s3: uploadToS3,
  youtube: uploadToYoutube,
};

/** The destination module puts the file where it says; answers where. */
export const deliver = async (
  ctx: AppContext,
  destination: NetworkNode,
  file: string,
  delivery: Delivery,
): Promise<PublishOutput> => {
  const run = DESTINATIONS[destination.moduleId];
  if (!run)
    throw new PublishRefused(
      PUBLISH_RUN_MESSAGES.cannotRunYet(publishModule(destination.moduleId)?.name ?? destination.moduleId),
    );
  return { moduleId: destination.moduleId, location: await run(ctx, destination, file, delivery) };
};
