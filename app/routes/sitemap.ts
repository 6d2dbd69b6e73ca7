import { services } from "~/.server/context";
import { SITE_PAGE_PATHS } from "~/lib/static-pages";
import type { Route } from "./+types/sitemap";

export function loader({ context }: Route.LoaderArgs) {
  const { config } = services(context);
  const urls = SITE_PAGE_PATHS
    .map((p) => `  <url><loc>${config.SITE_URL}${p}</loc></url>`)
    .join("\n");
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
