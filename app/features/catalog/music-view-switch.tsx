import { Link } from "~/components/ui/link";
import { cn } from "~/lib/cn";
import type { AlbumsState, TracksState } from "~/lib/catalog/types";
import { catalogHref, withMusicView } from "~/lib/catalog/url-state";

/**
 * Issue #10 "Albums | Tracks": inside the music view, the albums (`view=albums`, the default)
 * or every track (`view=tracks`). The content-type switcher keeps the spec's options; this is
 * a second, smaller choice under it. Both are links, so the choice works without JavaScript.
 */
export function MusicViewSwitch({ state }: { state: AlbumsState | TracksState }) {
  const views = [
    { view: "albums", label: "Albums" },
    { view: "tracks", label: "Tracks" },
  ] as const;
  return (
    <nav aria-label="Music view">
      <ul className="inline-flex items-center gap-1 rounded-full border border-border p-0.5">
        {views.map(({ view, label }) => (
          <li key={view}>
            <Link
              to={catalogHref(withMusicView(state, view))}
              preventScrollReset
              aria-current={state.view === view ? "true" : undefined}
              className={cn(
                "inline-flex min-h-9 items-center rounded-full px-4 text-sm font-semibold transition-colors",
                state.view === view ? "bg-white/15 text-fg" : "text-muted hover:text-fg",
              )}
            >
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
