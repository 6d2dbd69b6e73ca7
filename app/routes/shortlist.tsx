import { useRouteLoaderData } from "react-router";
import type { Route } from "./+types/shortlist";
import { services } from "~/.server/context";
import { resolveShortlist } from "~/.server/catalog/shortlist";
import { OwnShortlist, SharedShortlist } from "~/features/shortlist/shortlist-page";
import { MAX_LENGTH } from "~/lib/contact/schemas";
import { parseShortlistIds } from "~/lib/shortlist/shortlist";
import { seo } from "~/lib/seo";

/**
 * /shortlist (issue #11, DESIGN.md §3b): the visitor's own shortlist (this browser's), or with
 * `?items=id,id,…` a shared one, read from the catalog by the server: at most 100 ids, unknown
 * and malformed ones dropped and counted for a note.
 */
export function loader({ request, context }: Route.LoaderArgs) {
  const { catalogIndex, config } = services(context);
  const param = new URL(request.url).searchParams.get("items");
  // the licensing link must fit the Specific Tracks field and the server's URL limit (less a margin for the host)
  const limits = { maxLength: MAX_LENGTH.tracks, maxUrlBytes: config.URL_LIMIT_BYTES - 96 };
  if (param === null) return { shared: null, limits };
  const { ids, dropped, overflow } = parseShortlistIds(param);
  const { entries, unknown } = resolveShortlist(catalogIndex, ids);
  return { shared: { entries, missing: dropped + unknown, overflow: overflow > 0 }, limits };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  ...seo(
    {
      title: loaderData?.shared ? "A shared shortlist" : "Your shortlist",
      description: "Albums, singles and tracks collected from the catalog, to share and to license together.",
      path: "/shortlist",
    },
    matches,
  ),
  // a list is someone's selection, not a page to index
  { name: "robots", content: "noindex" },
];

export default function ShortlistRoute({ loaderData }: Route.ComponentProps) {
  const root = useRouteLoaderData("root") as { siteUrl?: string } | undefined;
  const origin = root?.siteUrl ?? "";
  const { shared, limits } = loaderData;
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-8 px-5 pt-10 pb-20 sm:px-8 sm:pt-14">
      <header className="flex flex-col gap-2">
        <p className="text-sm font-semibold tracking-[0.2em] text-[#ffb38f] uppercase">Shortlist</p>
        <h1 className="page-title">{shared ? "A shared shortlist" : "Your shortlist"}</h1>
        <p className="max-w-prose text-muted">
          {shared
            ? "Someone shared these albums, singles and tracks from our catalog. Listen, save them to your own shortlist, or ask us to license them."
            : "Albums, singles and tracks you picked in the catalog. Share the list with your team, or ask us to license them together."}
        </p>
      </header>
      {shared ? (
        <SharedShortlist entries={shared.entries} missing={shared.missing} overflow={shared.overflow} origin={origin} limits={limits} />
      ) : (
        <OwnShortlist origin={origin} limits={limits} />
      )}
    </div>
  );
}
