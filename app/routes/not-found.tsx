import { data, Link } from "react-router";
import { requestInfo } from "~/.server/context";
import { seo } from "~/lib/seo";
import type { Route } from "./+types/not-found";
import { documentPage, loadAsDocument } from "~/lib/static-pages";

// ADR 0083: served as a document, without React on the client.
export const handle = documentPage;
export const clientMiddleware = [loadAsDocument];

/**
 * Spec §2 "404 page" and §8: any path outside the route table (including the footer's
 * /team, /privacy and /terms, DESIGN.md §3) shows the 404 page with HTTP status 404, and the
 * attempted path is logged as an error.
 */
export function loader({ request, context }: Route.LoaderArgs) {
  const { pathname } = new URL(request.url);
  requestInfo(context).log.error({ path: pathname }, "404 Error: User attempted to access non-existent route");
  return data({ path: pathname }, { status: 404 });
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  ...seo(
    {
      title: "Page not found",
      description: "The page you were looking for does not exist.",
      path: loaderData?.path ?? "/",
    },
    matches,
  ).filter((tag) => !("tagName" in tag && tag.tagName === "link")),
  // An error page is not a page to index, nor one to point canonical links at.
  { name: "robots", content: "noindex" },
];

export default function NotFound() {
  return (
    <section className="mx-auto flex min-h-[calc(100dvh-var(--header-height)-12rem)] max-w-2xl flex-col items-center justify-center px-4 py-24 text-center">
      <p className="not-found-code text-gradient">404</p>
      <h1 className="mt-2 text-2xl font-bold tracking-tight sm:text-3xl">Oops! Page not found</h1>
      <p className="mt-4 max-w-md text-muted">
        The page you are looking for may have moved, or never existed. Everything we do starts from the home page.
      </p>
      <Link to="/" className="btn-primary mt-8">
        Return to Home
      </Link>
    </section>
  );
}
