import { PayloadError, UpstreamError } from "./errors.ts";

/**
 * The login half both upstream clients share (product-rules §7, DESIGN.md §2: the film provider's
 * Access-Key and the music API's Bearer token). The token lives in server memory only
 * (deviation 1). Concurrent calls share one login; a call answered 401 logs in again once
 * (unless a parallel call already did) and is made once more.
 */
export class TokenSession {
  #token: string | undefined;
  #loggingIn: Promise<string> | undefined;
  readonly #logIn: () => Promise<string>;

  /** `logIn` performs the upstream's login (with its own retries) and returns the token. */
  constructor(logIn: () => Promise<string>) {
    this.#logIn = logIn;
  }

  /** One login at a time: concurrent calls share it. */
  login(): Promise<string> {
    this.#loggingIn ??= this.#logIn()
      .then((token) => (this.#token = token))
      .finally(() => (this.#loggingIn = undefined));
    return this.#loggingIn;
  }

  /** Runs `request` with the current token; on a 401, with a fresh one, once. */
  async call<T>(request: (token: string) => Promise<T>): Promise<T> {
    const token = this.#token ?? (await this.login());
    try {
      return await request(token);
    } catch (error) {
      if (!(error instanceof UpstreamError && error.status === 401)) throw error;
      // the token expired or was revoked: one fresh login (unless a parallel call already
      // refreshed it), then the call once more
      return request(this.#token && this.#token !== token ? this.#token : await this.login());
    }
  }
}

/** A login answer's `access_token`, or product-rules §8's "Access token is missing". */
export function accessTokenOf(body: unknown, url: string): string {
  const token = body && typeof body === "object" ? (body as { access_token?: unknown }).access_token : undefined;
  if (typeof token !== "string" || !token) throw new PayloadError("Access token is missing", url);
  return token;
}
