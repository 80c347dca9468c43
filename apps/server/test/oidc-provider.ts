import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** A person at the test provider: the login typed on its page is their subject. */
export type ProviderPerson = { email?: string; name?: string; preferred_username?: string };

export const OIDC_TEST_CLIENT = { id: 'media-cloud', secret: 'a-client-secret-of-the-tests-0123456789' };

/**
 * A real OpenID Connect provider (oidc-provider) on 127.0.0.1 for the tests: its development login page takes
 * any login (the subject) and password, then asks to authorise the client. `people` gives subjects claims.
 */
export const startOidcProvider = async (publicUrls: string[]) => {
  const people = new Map<string, ProviderPerson>();
  // Listening first: the issuer's address holds its port.
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_TEST_CLIENT.id,
        client_secret: OIDC_TEST_CLIENT.secret,
        redirect_uris: publicUrls.map((url) => new URL('/api/oidc/callback', url).toString()),
        post_logout_redirect_uris: publicUrls.map((url) => new URL('/login', url).toString()),
        token_endpoint_auth_method: 'client_secret_post',
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'] },
    // The ID token carries the claims (the product reads no userinfo).
    conformIdTokenClaims: false,
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => {
        const person = people.get(sub) ?? {};
        return { sub, ...person, ...(person.email ? { email_verified: true } : {}) };
      },
    }),
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    cookies: { keys: ['test-cookie-key-0123456789'] },
  });
  provider.proxy = false;
  server.on('request', provider.callback());
  return {
    issuer,
    people,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** Cookies of one browser at the provider (its interaction and session cookies). */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair?.indexOf('=') ?? -1;
      if (!pair || at < 0) continue;
      this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * A person signs in at the provider as a browser would: from the provider's authorisation address through
 * its login and consent pages, until it sends the browser back to the product. Answers that address (the
 * product's callback, with the code and state), not followed.
 */
export const signInAtProvider = async (authorizationUrl: string, login: string, jar = new CookieJar()) => {
  let url = authorizationUrl;
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 12; step++) {
    const response = await fetch(url, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: jar.header(),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body,
    });
    jar.take(response);
    body = undefined;
    const location = response.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.pathname === '/api/oidc/callback') return next;
      url = next.toString();
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action)
      throw new Error(`the provider answered ${response.status} without a form: ${html.slice(0, 300)}`);
    url = new URL(action.replace(/&amp;/g, '&'), url).toString();
    body = html.includes('name="login"')
      ? new URLSearchParams({ prompt: 'login', login, password: 'any' })
      : new URLSearchParams({ prompt: 'consent' });
  }
  throw new Error('the provider did not send the browser back');
};
