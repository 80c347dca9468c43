import {
  buttonProblems,
  DESTINATION_NODE_ID,
  FIRST_INPUT_NODE_ID,
  newButtonBody,
  type PublishButtonBody,
  ROLE_VIEWER,
  SECONDS_PER_DAY,
} from '@media/contract';
import { publishButtons } from '../modules/publishing/tables.ts';
import type { DbOrTx } from '../platform/db/client.ts';
import { findRoleByName } from './factories.ts';

type Owner = { accountId: number } | { siteId: number };

/** A new button's body (contract rule) with options for its destination node and a few overrides. */
const button = (
  choice: { name: string; processModuleId: string; destinationModuleId: string },
  destinationOptions: Record<string, unknown>,
  overrides: Partial<PublishButtonBody> = {},
  processOptions: Record<string, unknown> = {},
): PublishButtonBody => {
  const body = newButtonBody(choice);
  const phase = body.phases[0];
  for (const node of phase?.phase.network.nodes ?? []) {
    if (node.nodeLocalId === DESTINATION_NODE_ID) node.options = { ...node.options, ...destinationOptions };
    if (node.nodeLocalId === FIRST_INPUT_NODE_ID) node.options = { ...node.options, ...processOptions };
  }
  return { ...body, ...overrides };
};

const insert = async (db: DbOrTx, owner: Owner, body: PublishButtonBody) => {
  // Demo data is valid data: a bad network here is a bug in the seed, not something to show.
  const problems = buttonProblems(body);
  if (problems.length) throw new Error(`demo publishing button ${body.name}: ${problems.join('; ')}`);
  await db.insert(publishButtons).values({ ...owner, ...body });
};

/**
 * Publishing buttons of the demo (DESIGN.md demo data set): per account a web and an archive button, one
 * disabled and hidden from viewers; one button of the site that its accounts list with includeAll.
 */
export const seedDemoPublishing = async (
  db: DbOrTx,
  input: { accounts: { id: number; name: string }[]; siteId: number },
) => {
  const viewer = await findRoleByName(db, ROLE_VIEWER);
  for (const account of input.accounts.slice(0, 2)) {
    const owner = { accountId: account.id };
    await insert(
      db,
      owner,
      button(
        { name: 'Web (YouTube)', processModuleId: 'transcode', destinationModuleId: 'youtube' },
        { title: account.name, privacy: 'unlisted' },
        { description: 'Transcode to MP4 and upload to the channel', keepFor: 14 * SECONDS_PER_DAY },
      ),
    );
    await insert(
      db,
      owner,
      button(
        { name: 'Archive copy', processModuleId: 'as-is', destinationModuleId: 'folder-export' },
        { folder: `/archive/${account.name}` },
      ),
    );
    await insert(
      db,
      owner,
      button(
        { name: 'Partner FTP', processModuleId: 'watermark', destinationModuleId: 'ftp' },
        { host: 'ftp.partner.example', username: account.name, directory: '/incoming' },
        {
          enabled: false,
          restrictions: [{ roleId: viewer.id, roleName: viewer.name, allow: false }],
        },
        { text: 'Preview' },
      ),
    );
  }
  await insert(
    db,
    { siteId: input.siteId },
    button(
      { name: 'Site archive', processModuleId: 'as-is', destinationModuleId: 'folder-export' },
      { folder: '/archive/site' },
      { keepFor: 30 * SECONDS_PER_DAY },
    ),
  );
};
