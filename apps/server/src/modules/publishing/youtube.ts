import { PUBLISH_HELP_MESSAGES } from '@media/contract';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../../platform/config.ts';
import type { AppContext } from '../../platform/context.ts';
import { hmac, safeEqual } from '../../platform/crypto.ts';
import { publishConnections } from './tables.ts';

/** Upload, and reading the channel's name to show which one is connected. */
const SCOPES = [
  'https://www.googleapis.com/auth/youtube.upload',
  'https://www.googleapis.com/auth/youtube.readonly',
];
/** How long the consent screen may stay open before its answer is refused. */
const STATE_LIFETIME_MS = 30 * 60_000;
const GOOGLE_TIMEOUT_MS = 15_000;

export const YOUTUBE_CALLBACK_PATH = '/api/publishing/youtube/callback';

type Google = NonNullable<Config['google']>;

/** A refusal from Google that connecting again mends (a revoked or expired grant). */
export class YoutubeGrantRevoked extends Error {}

const redirectUri = (config: Config) => `${config.publicUrl}${YOUTUBE_CALLBACK_PATH}`;

/** The OAuth state: which account and user asked, until when, signed with the cloud's secret key. */
const signState = (secretKey: string, accountId: number, userId: number) => {
  const claim = `${accountId}.${userId}.${Date.now() + STATE_LIFETIME_MS}`;
  return `${claim}.${hmac(secretKey, `youtube-connect.${claim}`)}`;
};

export const verifyState = (secretKey: string, state: string) => {
  const [accountId, userId, expires, mac] = state.split('.');
  const claim = `${accountId}.${userId}.${expires}`;
  if (!mac || !safeEqual(mac, hmac(secretKey, `youtube-connect.${claim}`))) return undefined;
  if (Number(expires) < Date.now()) return undefined;
  return { accountId: Number(accountId), userId: Number(userId) };
};

/** Google's consent screen for this account's channel (offline access: a refresh token comes back). */
export const consentUrl = (ctx: AppContext, google: Google, accountId: number, userId: number) => {
  const url = new URL(google.authUrl);
  url.search = new URLSearchParams({
    client_id: google.clientId,
    redirect_uri: redirectUri(ctx.config),
    response_type: 'code',
    scope: SCOPES.join(' '),
    access_type: 'offline',
    prompt: 'consent',
    include_granted_scopes: 'true',
    state: signState(ctx.secretKey, accountId, userId),
  }).toString();
  return url.toString();
};

const tokenAnswerSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string().optional(),
});

const callTokenEndpoint = async (google: Google, form: Record<string, string>) => {
  const answer = await fetch(google.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: google.clientId, client_secret: google.clientSecret, ...form }),
    signal: AbortSignal.timeout(GOOGLE_TIMEOUT_MS),
  });
  const body: unknown = await answer.json().catch(() => undefined);
  if (answer.status === 400 && (body as { error?: unknown } | undefined)?.error === 'invalid_grant')
    throw new YoutubeGrantRevoked(PUBLISH_HELP_MESSAGES.youtubeRevoked);
  if (!answer.ok) throw new Error(`Google answered ${answer.status} for a token`);
  return tokenAnswerSchema.parse(body);
};

/** The channel's title, with an access token. */
const channelTitle = async (google: Google, accessToken: string) => {
  const answer = await fetch(`${google.youtubeApiUrl}/youtube/v3/channels?part=snippet&mine=true`, {
    headers: { authorization: `Bearer ${accessToken}` },
    signal: AbortSignal.timeout(GOOGLE_TIMEOUT_MS),
  });
  if (!answer.ok) return null;
  const body = (await answer.json().catch(() => undefined)) as
    | { items?: { snippet?: { title?: string } }[] }
    | undefined;
  return body?.items?.[0]?.snippet?.title ?? null;
};

/**
 * The consent screen's answer: the code becomes a refresh token kept for the account (one channel per
 * account; connecting again replaces it). Answers the channel's title.
 */
export const connectChannel = async (
  ctx: AppContext,
  google: Google,
  link: { accountId: number; userId: number; code: string },
) => {
  const tokens = await callTokenEndpoint(google, {
    code: link.code,
    redirect_uri: redirectUri(ctx.config),
    grant_type: 'authorization_code',
  });
  if (!tokens.refresh_token) throw new Error('Google gave no refresh token');
  const title = (await channelTitle(google, tokens.access_token)) ?? 'YouTube channel';
  const row = {
    accountId: link.accountId,
    service: 'youtube' as const,
    refreshToken: tokens.refresh_token,
    channelTitle: title,
    connectedBy: link.userId,
    connectedAt: new Date(),
  };
  await ctx.db
    .insert(publishConnections)
    .values(row)
    .onConflictDoUpdate({
      target: [publishConnections.accountId, publishConnections.service],
      set: row,
    });
  return title;
};

export const findConnection = async (ctx: AppContext, accountId: number) => {
  const [row] = await ctx.db
    .select()
    .from(publishConnections)
    .where(and(eq(publishConnections.accountId, accountId), eq(publishConnections.service, 'youtube')));
  return row;
};

/** A fresh access token from the account's refresh token; a revoked grant forgets the connection. */
export const accessToken = async (ctx: AppContext, google: Google, accountId: number) => {
  const connection = await findConnection(ctx, accountId);
  if (!connection) return undefined;
  try {
    return (
      await callTokenEndpoint(google, { refresh_token: connection.refreshToken, grant_type: 'refresh_token' })
    ).access_token;
  } catch (error) {
    if (error instanceof YoutubeGrantRevoked)
      await ctx.db.delete(publishConnections).where(eq(publishConnections.id, connection.id));
    throw error;
  }
};
