import type { Config } from "@react-router/dev/config";

// ADR 0002: pages are rendered on the server for every request (with a per-request CSP
// nonce); static pages are cached in memory by server/page-cache.ts instead of prerendered.
export default {
  ssr: true,
  buildDirectory: process.env.BUILD_DIR ?? "build",
} satisfies Config;
