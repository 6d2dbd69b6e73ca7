import { startFakeServer, type FakeServer } from "./http-fake.ts";

/**
 * A fake music distribution API speaking the protocol of product-rules §7 / DESIGN.md §2:
 * POST login (form-urlencoded, X-App-Source) → {access_token}; then, with a Bearer token,
 * submissions/all/catalog?status=…, submissions/catalog/all-data/submission_id?submission_id=…,
 * api/Genre/ and api/Genre/Get/SubGenres?GenreName=…; 401 without a valid token.
 */
export interface MusicApiCredentials {
  username: string;
  password: string;
  clientId: string;
  clientSecret: string;
  scope: string;
  grantType: string;
  appSource: string;
}

export interface MusicApiData {
  audios: Record<string, unknown>[];
  details: Record<string, unknown>;
  genres: unknown;
  subGenres: Record<string, unknown>;
}

export interface FakeMusicApi extends FakeServer {
  data: MusicApiData;
  tokens: string[];
  expireTokens(): void;
}

/** The server's MUSIC_API_* variables for a music API at `url` that accepts `creds`. */
export function musicApiEnv(url: string, creds: MusicApiCredentials): Record<string, string> {
  return {
    MUSIC_API_URL: url,
    MUSIC_API_USERNAME: creds.username,
    MUSIC_API_PASSWORD: creds.password,
    MUSIC_API_CLIENT_ID: creds.clientId,
    MUSIC_API_CLIENT_SECRET: creds.clientSecret,
    MUSIC_API_SCOPE: creds.scope,
    MUSIC_API_APP_SOURCE: creds.appSource,
  };
}

export async function startFakeMusicApi(creds: MusicApiCredentials, data: MusicApiData): Promise<FakeMusicApi> {
  const tokens: string[] = [];
  const valid = new Set<string>();
  // the handler reads the data at request time, so tests can change it between syncs
  const ref: { current?: FakeMusicApi } = {};
  const server = await startFakeServer("/api/v2/", (req) => {
    if (req.method === "POST" && req.path === "/login") {
      if (req.headers["content-type"] !== "application/x-www-form-urlencoded") return { status: 415, body: { message: "form only" } };
      if (req.headers["x-app-source"] !== creds.appSource) return { status: 403, body: { message: "Unknown app source" } };
      const form = new URLSearchParams(req.body);
      const expected: Record<string, string> = {
        grant_type: creds.grantType,
        username: creds.username,
        password: creds.password,
        scope: creds.scope,
        client_id: creds.clientId,
        client_secret: creds.clientSecret,
      };
      for (const [k, v] of Object.entries(expected)) {
        if (form.get(k) !== v) return { status: 401, body: { message: `Invalid ${k}` } };
      }
      const token = `music-token-${tokens.length + 1}`;
      tokens.push(token);
      valid.add(token);
      return { status: 200, body: { access_token: token, token_type: "bearer" } };
    }
    const auth = req.headers.authorization ?? "";
    if (!auth.startsWith("Bearer ") || !valid.has(auth.slice(7))) return { status: 401, body: { message: "Not authenticated" } };
    const d = ref.current!.data;
    if (req.path === "/submissions/all/catalog") {
      const status = req.query.get("status");
      return { status: 200, body: { audios: d.audios.filter((a) => !status || !a || (a as { status?: string }).status === status) } };
    }
    if (req.path === "/submissions/catalog/all-data/submission_id") {
      const detail = d.details[req.query.get("submission_id") ?? ""];
      return detail ? { status: 200, body: detail } : { status: 404, body: { message: "Submission not found" } };
    }
    if (req.path === "/api/Genre/") return { status: 200, body: d.genres };
    if (req.path === "/api/Genre/Get/SubGenres") return { status: 200, body: d.subGenres[req.query.get("GenreName") ?? ""] ?? [] };
    return { status: 404, body: { message: "Not Found" } };
  });
  ref.current = Object.assign(server, { data, tokens, expireTokens: () => valid.clear() });
  return ref.current;
}
