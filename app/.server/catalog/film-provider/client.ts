import { PayloadError } from "../errors.ts";
import { accessTokenOf, TokenSession } from "../token-session.ts";
import { apiUrl, requestJson } from "../http.ts";
import { withRetry, type RetryOptions } from "../retry.ts";

/**
 * The film catalog provider (product-rules §7, DESIGN.md §2): `POST login` with JSON {email,password}
 * → access_token, then `GET dbcatalog` and `GET dbdetails` with the header
 * "Access-Key: {token}", each answering {items:[…]}. The token lives in server memory only
 * (DESIGN.md §3, deviation 1); on a 401 the client logs in again once.
 */
export interface FilmProviderOptions {
  baseUrl: string;
  email: string;
  password: string;
  /** deadline of one request, body included (UPSTREAM_TIMEOUT_SECONDS) */
  timeoutMs?: number;
  /** largest response body (UPSTREAM_MAX_BYTES) */
  maxBytes?: number;
  retry?: RetryOptions;
}

export class FilmProviderClient {
  private readonly session: TokenSession;
  private readonly opts: FilmProviderOptions;

  constructor(opts: FilmProviderOptions) {
    this.opts = opts;
    this.session = new TokenSession(async () => {
      const url = apiUrl(opts.baseUrl, "login");
      const { body } = await withRetry(
        () => requestJson(url, { method: "POST", json: { email: opts.email, password: opts.password }, timeoutMs: opts.timeoutMs, maxBytes: opts.maxBytes }),
        opts.retry,
      );
      return accessTokenOf(body, url);
    });
  }

  /** One login at a time: concurrent calls share it. */
  login(): Promise<string> {
    return this.session.login();
  }

  /** Raw items of `dbcatalog`. */
  catalogItems(): Promise<unknown[]> {
    return this.items("dbcatalog");
  }

  /** Raw items of `dbdetails`. */
  detailItems(): Promise<unknown[]> {
    return this.items("dbdetails");
  }

  private async items(path: "dbcatalog" | "dbdetails"): Promise<unknown[]> {
    const url = apiUrl(this.opts.baseUrl, path);
    const response = await this.session.call((token) =>
      withRetry(() => requestJson(url, { headers: { "Access-Key": token }, timeoutMs: this.opts.timeoutMs, maxBytes: this.opts.maxBytes }), this.opts.retry),
    );
    const items = response.body && typeof response.body === "object" ? (response.body as { items?: unknown }).items : undefined;
    if (!Array.isArray(items)) throw new PayloadError(`expected {items:[…]} from ${url}`, url);
    return items;
  }
}
