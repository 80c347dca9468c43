import { accountPath } from '../nodes/rules.ts';
import { PUBLISH_FOLDER_NAME } from './runs.ts';

/** Where a publishing button stands in an account's media tree: /{account}/Publish/{button name}. */
export const publishTargetPath = (accountName: string, buttonName: string) =>
  accountPath(accountName, `/${PUBLISH_FOLDER_NAME}/${buttonName}`);

/** The media manager's address of a button's place in the tree, where its published items and their progress show. */
export const publishedItemsLink = (accountName: string, buttonName: string) =>
  `/accounts/${encodeURIComponent(accountName)}/media?path=${encodeURIComponent(publishTargetPath(accountName, buttonName))}`;
