import { data } from "react-router";
import { logNotFound } from "~/.server/context";
import { notFoundSeo } from "~/lib/seo";
import { NotFoundMessage } from "~/components/layout/not-found-message";
import type { Route } from "./+types/not-found";
import { documentPage, loadAsDocument } from "~/lib/static-pages";

// ADR 0083: served as a document, without React on the client.
export const handle = documentPage;
export const clientMiddleware = [loadAsDocument];

/**
 * product-rules §2 "404 page" and §8: any path outside the route table (/privacy and /terms are
 * pages since issue #16; /team answers 301 to /board, DESIGN.md §3) shows the 404 page with HTTP
 * status 404, and the attempted path is logged, at info level (issue #41).
 */
export function loader({ request, context }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  logNotFound(context, pathname);
  return data({ path: pathname }, { status: 404 });
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => notFoundSeo(loaderData?.path ?? "/", matches);

export default function NotFound() {
  return <NotFoundMessage />;
}
