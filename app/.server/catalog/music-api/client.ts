import { PayloadError, UpstreamError } from "../errors.ts";
import { apiUrl, requestJson } from "../http.ts";
import { withRetry, type RetryOptions } from "../retry.ts";

/**
 * The music distribution API (spec §7, DESIGN.md §2). `POST login` with a form-urlencoded
 * body {grant_type, username, password, scope, client_id, client_secret} and the header
 * X-App-Source; every other call carries "Authorization: Bearer {token}". The token is reused
 * until a call answers 401, then the client logs in again once. It lives in server memory only.
 */
export interface MusicApiOptions {
  baseUrl: string;
  username: string;
  password: string;
  clientId?: string;
  clientSecret?: string;
  scope?: string;
  grantType: string;
  appSource?: string;
  /** deadline of one request, body included (UPSTREAM_TIMEOUT_SECONDS) */
  timeoutMs?: number;
  /** largest response body (UPSTREAM_MAX_BYTES) */
  maxBytes?: number;
  retry?: RetryOptions;
}

export class MusicApiClient {
  private token: string | undefined;
  private loggingIn: Promise<string> | undefined;
  private readonly opts: MusicApiOptions;

  constructor(opts: MusicApiOptions) {
    this.opts = opts;
  }

  /** One login at a time: concurrent calls share it. */
  login(): Promise<string> {
    this.loggingIn ??= this.doLogin().finally(() => (this.loggingIn = undefined));
    return this.loggingIn;
  }

  private async doLogin(): Promise<string> {
    const o = this.opts;
    const url = apiUrl(o.baseUrl, "login");
    const form = {
      grant_type: o.grantType,
      username: o.username,
      password: o.password,
      scope: o.scope ?? "",
      client_id: o.clientId ?? "",
      client_secret: o.clientSecret ?? "",
    };
    const { body } = await withRetry(
      () => requestJson(url, { method: "POST", form, headers: { "X-App-Source": o.appSource ?? "" }, timeoutMs: o.timeoutMs, maxBytes: o.maxBytes }),
      o.retry,
    );
    const token = body && typeof body === "object" ? (body as { access_token?: unknown }).access_token : undefined;
    // spec §8: "Access token is missing"
    if (typeof token !== "string" || !token) throw new PayloadError("Access token is missing", url);
    this.token = token;
    return token;
  }

  /** GET with the Bearer token; a 401 triggers exactly one re-login and one more call. */
  async get(path: string, query?: Record<string, string>, opts: { retry?: RetryOptions } = {}): Promise<unknown> {
    const url = apiUrl(this.opts.baseUrl, path, query);
    const retry = opts.retry ?? this.opts.retry;
    const call = (token: string) => withRetry(() => requestJson(url, { bearer: token, timeoutMs: this.opts.timeoutMs, maxBytes: this.opts.maxBytes }), retry);
    const token = this.token ?? (await this.login());
    try {
      return (await call(token)).body;
    } catch (error) {
      if (!(error instanceof UpstreamError && error.status === 401)) throw error;
      // the token expired or was revoked: one fresh login (unless a parallel call already
      // refreshed it), then the call once more
      return (await call(this.token && this.token !== token ? this.token : await this.login())).body;
    }
  }

  /** `submissions/all/catalog?status=DELIVERED` → the raw `audios` list. */
  async deliveredSubmissions(): Promise<unknown[]> {
    const body = await this.get("submissions/all/catalog", { status: "DELIVERED" });
    const audios = body && typeof body === "object" ? (body as { audios?: unknown }).audios : undefined;
    if (audios == null) return [];
    if (!Array.isArray(audios)) throw new PayloadError("expected {audios:[…]} from submissions/all/catalog", this.opts.baseUrl);
    return audios;
  }

  /** `submissions/catalog/all-data/submission_id?submission_id=ID` → the raw all-data object. */
  releaseDetail(submissionId: string, opts: { retry?: RetryOptions } = {}): Promise<unknown> {
    return this.get("submissions/catalog/all-data/submission_id", { submission_id: submissionId }, opts);
  }

  /** `api/Genre/` → raw (a list of {Name} when well-formed). */
  genres(): Promise<unknown> {
    return this.get("api/Genre/");
  }

  /** `api/Genre/Get/SubGenres?GenreName=G` → raw (a list of {Name} when well-formed). */
  subGenres(genre: string, opts: { retry?: RetryOptions } = {}): Promise<unknown> {
    return this.get("api/Genre/Get/SubGenres", { GenreName: genre }, opts);
  }
}
