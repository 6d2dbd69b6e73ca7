import { data } from "react-router";
import { requestInfo } from "~/.server/context";
import { notFoundSeo } from "~/lib/seo";
import { NotFoundMessage } from "~/components/layout/not-found-message";
import type { Route } from "./+types/not-found";
import { documentPage, loadAsDocument } from "~/lib/static-pages";

// ADR 0083: served as a document, without React on the client.
export const handle = documentPage;
export const clientMiddleware = [loadAsDocument];

/**
 * product-rules §2 "404 page" and §8: any path outside the route table (including the footer's
 * /team, DESIGN.md §3; /privacy and /terms are pages since issue #16) shows the 404 page with HTTP status 404, and the
 * attempted path is logged as an error.
 */
export function loader({ request, context }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  requestInfo(context).log.error({ path: pathname }, "404 Error: User attempted to access non-existent route");
  return data({ path: pathname }, { status: 404 });
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => notFoundSeo(loaderData?.path ?? "/", matches);

export default function NotFound() {
  return <NotFoundMessage />;
}
