import { data } from "react-router";
import { Link } from "~/components/ui/link";
import { SoundsLikeForm } from "~/features/catalog/sounds-like-form";
import type { Route } from "./+types/catalog.sounds-like";
import { requestInfo, services } from "~/.server/context";
import { seo } from "~/lib/seo";

/**
 * /catalog/sounds-like (issue #19, DESIGN.md §3c): search the catalog by a file of one's own
 * (a temp track, a demo). A plain multipart form posted to the same path (server/sounds-like.ts
 * answers it: a 303 to the `like=` view, or this page again with the reason and its status),
 * so it works without JavaScript. The file is analysed and deleted; only its fingerprint, what was heard (length,
 * tempo, key, a waveform outline: issue #41) and its name are kept (for REFERENCE_TTL_DAYS, as /privacy says).
 */
export function loader({ context }: Route.LoaderArgs) {
  const { config } = services(context);
  const { uploadError } = requestInfo(context);
  const payload = {
    error: uploadError?.message ?? null,
    limitMb: Math.round(config.UPLOAD_LIMIT_BYTES / (1024 * 1024)),
    ttlDays: config.REFERENCE_TTL_DAYS,
  };
  return uploadError ? data(payload, { status: uploadError.status, headers: { "Cache-Control": "no-store" } }) : payload;
}

/** A refusal's status (413, 415, 429, …) and its Retry-After reach the document. */
export const headers: Route.HeadersFunction = ({ parentHeaders, loaderHeaders }) => {
  const merged = new Headers(parentHeaders);
  loaderHeaders.forEach((value, name) => merged.set(name, value));
  return merged;
};

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({ title: "Sounds like this", description: "Find catalog tracks that sound like a file of your own: a temp track, a demo, a reference.", path: "/catalog/sounds-like" }, matches);

export default function SoundsLikeRoute({ loaderData }: Route.ComponentProps) {
  const { error, limitMb, ttlDays } = loaderData;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-8 px-5 pt-10 pb-20 sm:px-8 sm:pt-14">
      <header className="flex flex-col gap-2">
        <p className="text-sm font-semibold tracking-[0.2em] text-[#ffb38f] uppercase">Sync-ready catalog</p>
        <h1 className="page-title">Sounds like this</h1>
        <p className="max-w-prose text-muted">
          Start from a sound: the temp track in your edit, a demo the director loves. Upload it and we list the catalog tracks closest to it,
          each with the reason it matched.
        </p>
      </header>
      <SoundsLikeForm key={error ?? ""} limitMb={limitMb} ttlDays={ttlDays} error={error} />
      <p className="text-sm text-muted">
        Or start from a track of ours:{" "}
        <Link to="/catalog?view=tracks" className="underline underline-offset-4">
          browse the tracks
        </Link>{" "}
        and choose “More like this”.
      </p>
    </div>
  );
}
