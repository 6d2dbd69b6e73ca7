import { services } from "~/.server/context";
import { sitemapResponse } from "~/.server/sitemap";
import type { Route } from "./+types/sitemap-file";

/** `/sitemaps/{n}.xml`: the n-th file of the sitemap index (issue #11); 404 past the last one. */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const m = /^([1-9]\d{0,5})\.xml$/.exec(params.file);
  const doc = m ? services(context).sitemaps.document(Number(m[1])) : null;
  if (!doc) return new Response("Not found\n", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return sitemapResponse(await doc, request.headers.get("accept-encoding"));
}
