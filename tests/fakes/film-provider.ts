import { startFakeServer, type FakeServer } from "../../benchmarks/lib/http-fake.ts";

/**
 * A fake film catalog provider speaking the protocol of product-rules §7 / DESIGN.md §2:
 * POST login {email,password} → {access_token}; GET dbcatalog and dbdetails with
 * "Access-Key: <token>" → {items}; anything else without a valid token → 401.
 */
export interface FakeFilmProvider extends FakeServer {
  catalog: Record<string, unknown>[];
  details: Record<string, unknown>[];
  /** tokens issued so far */
  tokens: string[];
  /** invalidates every token issued so far (the next call answers 401) */
  expireTokens(): void;
}

export async function startFakeFilmProvider(opts: {
  email: string;
  password: string;
  catalog?: Record<string, unknown>[];
  details?: Record<string, unknown>[];
}): Promise<FakeFilmProvider> {
  const tokens: string[] = [];
  const valid = new Set<string>();
  // the handler reads the lists at request time, so tests can change them between syncs
  const ref: { current?: FakeFilmProvider } = {};
  const server = await startFakeServer("/v1/", (req) => {
    if (req.method === "POST" && req.path === "/login") {
      let body: { email?: string; password?: string };
      try {
        body = JSON.parse(req.body);
      } catch {
        return { status: 400, body: { message: "Invalid JSON" } };
      }
      if (req.headers["content-type"] !== "application/json") return { status: 415, body: { message: "JSON only" } };
      if (body.email !== opts.email || body.password !== opts.password) return { status: 401, body: { message: "Invalid credentials" } };
      const token = `film-token-${tokens.length + 1}`;
      tokens.push(token);
      valid.add(token);
      return { status: 200, body: { access_token: token } };
    }
    if (req.method === "GET" && (req.path === "/dbcatalog" || req.path === "/dbdetails")) {
      const key = req.headers["access-key"];
      if (typeof key !== "string" || !valid.has(key)) return { status: 401, body: { message: "Unauthorized" } };
      return { status: 200, body: { items: req.path === "/dbcatalog" ? ref.current!.catalog : ref.current!.details } };
    }
    return { status: 404, body: { message: "Not Found" } };
  });
  ref.current = Object.assign(server, {
    catalog: opts.catalog ?? [],
    details: opts.details ?? [],
    tokens,
    expireTokens: () => valid.clear(),
  });
  return ref.current;
}
