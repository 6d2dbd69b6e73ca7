import { PayloadError } from "../errors.ts";
import { accessTokenOf, TokenSession } from "../token-session.ts";
import { apiUrl, requestJson } from "../http.ts";
import { withRetry, type RetryOptions } from "../retry.ts";

/**
 * The music distribution API (product-rules §7, DESIGN.md §2). `POST login` with a form-urlencoded
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
  private readonly session: TokenSession;
  private readonly opts: MusicApiOptions;

  constructor(opts: MusicApiOptions) {
    this.opts = opts;
    this.session = new TokenSession(async () => {
      const url = apiUrl(opts.baseUrl, "login");
      const form = {
        grant_type: opts.grantType,
        username: opts.username,
        password: opts.password,
        scope: opts.scope ?? "",
        client_id: opts.clientId ?? "",
        client_secret: opts.clientSecret ?? "",
      };
      const { body } = await withRetry(
        () => requestJson(url, { method: "POST", form, headers: { "X-App-Source": opts.appSource ?? "" }, timeoutMs: opts.timeoutMs, maxBytes: opts.maxBytes }),
        opts.retry,
      );
      return accessTokenOf(body, url);
    });
  }

  /** One login at a time: concurrent calls share it. */
  login(): Promise<string> {
    return this.session.login();
  }

  /** GET with the Bearer token; a 401 triggers exactly one re-login and one more call. */
  async get(path: string, query?: Record<string, string>, opts: { retry?: RetryOptions } = {}): Promise<unknown> {
    const url = apiUrl(this.opts.baseUrl, path, query);
    const retry = opts.retry ?? this.opts.retry;
    const response = await this.session.call((token) =>
      withRetry(() => requestJson(url, { bearer: token, timeoutMs: this.opts.timeoutMs, maxBytes: this.opts.maxBytes }), retry),
    );
    return response.body;
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
