import { PayloadError, UpstreamError } from "../errors.ts";
import { apiUrl, requestJson } from "../http.ts";
import { withRetry, type RetryOptions } from "../retry.ts";

/**
 * The film catalog provider (spec §7, DESIGN.md §2): `POST login` with JSON {email,password}
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
  private token: string | undefined;
  private loggingIn: Promise<string> | undefined;
  private readonly opts: FilmProviderOptions;

  constructor(opts: FilmProviderOptions) {
    this.opts = opts;
  }

  /** One login at a time: concurrent calls share it. */
  login(): Promise<string> {
    this.loggingIn ??= this.doLogin().finally(() => (this.loggingIn = undefined));
    return this.loggingIn;
  }

  private async doLogin(): Promise<string> {
    const url = apiUrl(this.opts.baseUrl, "login");
    const { body } = await withRetry(
      () => requestJson(url, { method: "POST", json: { email: this.opts.email, password: this.opts.password }, timeoutMs: this.opts.timeoutMs, maxBytes: this.opts.maxBytes }),
      this.opts.retry,
    );
    const token = body && typeof body === "object" ? (body as { access_token?: unknown }).access_token : undefined;
    // spec §8: "Access token is missing"
    if (typeof token !== "string" || !token) throw new PayloadError("Access token is missing", url);
    this.token = token;
    return token;
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
    const get = (token: string) =>
      withRetry(() => requestJson(url, { headers: { "Access-Key": token }, timeoutMs: this.opts.timeoutMs, maxBytes: this.opts.maxBytes }), this.opts.retry);
    const token = this.token ?? (await this.login());
    let response;
    try {
      response = await get(token);
    } catch (error) {
      if (!(error instanceof UpstreamError && error.status === 401)) throw error;
      // the token expired or was revoked: one fresh login (unless a parallel call already
      // refreshed it), then the call once more
      response = await get(this.token && this.token !== token ? this.token : await this.login());
    }
    const items = response.body && typeof response.body === "object" ? (response.body as { items?: unknown }).items : undefined;
    if (!Array.isArray(items)) throw new PayloadError(`expected {items:[…]} from ${url}`, url);
    return items;
  }
}
