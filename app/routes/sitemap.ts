import { services } from "~/.server/context";
import { sitemapResponse } from "~/.server/sitemap";
import type { Route } from "./+types/sitemap";

/** `/sitemap.xml`: every URL, or above 50,000 the sitemap index (issue #11, app/.server/sitemap.ts). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const doc = await services(context).sitemaps.document("root")!;
  return sitemapResponse(doc, request.headers.get("accept-encoding"));
}
