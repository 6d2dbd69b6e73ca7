import type { ComponentProps } from "react";
import { Link } from "~/components/ui/link";
import { DYNAMIC_PAGE_PATHS } from "~/lib/static-pages";

const APP_PAGES: readonly string[] = DYNAMIC_PAGE_PATHS;

/**
 * A link to a page of the site from the header, the menu or the footer. The pages React
 * renders in the browser (the catalog, the contact page) are reached by client navigation
 * (`<Link>`); every other path (story pages and unknown paths, which are document pages,
 * ADR 0083) by a plain `<a>`: a full load, without first fetching the route's module only to
 * learn that it must reload. Both render the same `<a href>` on the server.
 */
export function SiteLink({ to, ...props }: Omit<ComponentProps<"a">, "href"> & { to: string }) {
  const path = to.split(/[?#]/)[0]!;
  return APP_PAGES.includes(path) ? <Link to={to} {...props} /> : <a href={to} {...props} />;
}
