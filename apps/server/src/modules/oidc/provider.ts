import * as client from 'openid-client';
import { type Config, ConfigError } from '../../platform/config.ts';

export type OidcSettings = NonNullable<Config['oidc']>;
/** The company's identity provider as discovered at start, and how the product is registered there. */
export type OidcProvider = {
  settings: OidcSettings;
  configuration: client.Configuration;
  redirectUri: string;
};

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Discovers the provider (its `.well-known/openid-configuration`) at start: a wrong issuer stops the start
 * saying which. Plain http is allowed for a provider on this machine only (a trial, the tests).
 */
export const discoverProvider = async (settings: OidcSettings, publicUrl: string): Promise<OidcProvider> => {
  const issuer = new URL(settings.issuer);
  const insecureAllowed = issuer.protocol === 'http:' && LOOPBACK_HOSTS.has(issuer.hostname);
  try {
    const configuration = await client.discovery(
      issuer,
      settings.clientId,
      settings.clientSecret,
      undefined,
      insecureAllowed ? { execute: [client.allowInsecureRequests], timeout: 10 } : { timeout: 10 },
    );
    return { settings, configuration, redirectUri: new URL('/api/oidc/callback', publicUrl).toString() };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(
      `OIDC_ISSUER ${settings.issuer}: the identity provider could not be discovered (${reason})`,
    );
  }
};
