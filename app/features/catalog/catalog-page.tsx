import { ChevronDown } from "~/components/ui/icons/chevron-down";
import { Layers } from "~/components/ui/icons/layers";
import { useCallback, useEffect, useRef } from "react";
import { useLocation, useNavigate, useNavigation } from "react-router";
import { Link } from "~/components/ui/link";
import type { CatalogCardData, CatalogDetailData } from "~/lib/catalog/cards";
import type { GenreLevel } from "~/lib/catalog/genre-tree";
import { formatCount } from "~/lib/catalog/format";
import { itemPageHref } from "~/lib/catalog/item-url";
import { catalogEmoji, catalogTitle, viewNoun } from "~/lib/catalog/nouns";
import type { TrackQueryResult, TrackRowData } from "~/lib/catalog/track-query";
import type { CatalogState, TracksState } from "~/lib/catalog/types";
import {
  catalogHref,
  clearedState,
  defaultCatalogState,
  likeFilterCount,
  parseCatalogState,
  withItem,
  withoutLikeFilters,
  withPage,
} from "~/lib/catalog/url-state";
import { useHydrated } from "~/lib/use-hydrated";
import { AlbumCard, ChannelCard, FilmCard, SingleCard, type ImageLoading } from "./cards";
import { DetailSheet } from "./detail-sheet";
import { AlbumFilters } from "./filters/album-filters";
import { ChannelFilters } from "./filters/channel-filters";
import { FilterBar } from "./filters/filter-bar";
import { SinglesFilters } from "./filters/singles-filters";
import { SortControl, TrackFilters } from "./filters/track-filters";
import { MusicViewSwitch } from "./music-view-switch";
import { TrackList } from "./track-list";
import { LikeSeedHeader, likeChipLabel, likeTitle } from "./like-seed";
import { FindBySoundLink } from "./find-by-sound";
import { LikeFromView } from "./more-like-this";
import { Pagination } from "./pagination";
import { TypeSwitcher } from "./type-switcher";

export interface CatalogPageProps {
  state: CatalogState;
  total: number;
  pageCount: number;
  items: CatalogCardData[];
  musicLevels: GenreLevel[];
  singlesGenres: string[];
  subGenres: string[] | Promise<string[]> | null;
  detail: CatalogDetailData | null;
  /** the track view's page and key counts (issue #10); null in other views */
  tracks: TrackQueryResult | null;
  channelsEnabled: boolean;
}

const sameExceptItem = (a: CatalogState, b: CatalogState) => catalogHref({ ...a, item: "" }) === catalogHref({ ...b, item: "" });

/**
 * What a client navigation is about to show, so the page can say "Loading {noun}..." and
 * show the singles skeletons while the loader runs (product-rules §2 "List area", "Singles"). Opening
 * or closing a sheet is not a list load. Without JavaScript every control is a plain link or
 * GET form and these states never appear.
 */
function usePendingState(current: CatalogState): CatalogState | null {
  const navigation = useNavigation();
  if (navigation.state === "idle" || navigation.location.pathname !== "/catalog") return null;
  const next = parseCatalogState(new URLSearchParams(navigation.location.search));
  return sameExceptItem(next, current) ? null : next;
}

function EmptyState({ state }: { state: CatalogState }) {
  const noun = viewNoun(state);
  return (
    <div className="card mx-auto flex max-w-xl flex-col items-center gap-3 px-6 py-14 text-center">
      <span className="text-5xl" aria-hidden="true">
        {catalogEmoji(state.type)}
      </span>
      <h2 className="text-xl font-semibold">No {noun} found</h2>
      <p className="text-muted">Try adjusting your search criteria or clearing filters</p>
      <Link to={catalogHref(clearedState(state))} preventScrollReset className="btn-primary mt-2">
        Clear All Filters
      </Link>
    </div>
  );
}

function ComingSoon() {
  return (
    <div className="card mx-auto flex max-w-xl flex-col items-center gap-3 px-6 py-16 text-center">
      <Layers className="size-12 text-[#d9c9ff]" aria-hidden="true" />
      <h2 className="text-2xl font-bold">Compilations Coming Soon!</h2>
      <p className="text-muted">We're working on bringing you amazing compilation albums.</p>
    </div>
  );
}

/** Cards in the first row on a phone (two columns): their images load at once (cards.tsx). */
const EAGER_CARDS = 2;

function Card({ card, state, index }: { card: CatalogCardData; state: CatalogState; index: number }) {
  const loading: ImageLoading = index === 0 ? "priority" : index < EAGER_CARDS ? "eager" : "lazy";
  switch (card.kind) {
    case "album":
      return <AlbumCard album={card} href={catalogHref(withItem(state, card.id))} loading={loading} shortlist />;
    case "single":
      return <SingleCard single={card} href={catalogHref(withItem(state, card.id))} loading={loading} shortlist />;
    case "film":
      // issue #11: a film's page, which links back to this view
      return <FilmCard film={card} href={itemPageHref("films", card.id, card.title, catalogHref(withItem(state, "")))} loading={loading} />;
    case "channel":
      return <ChannelCard channel={card} loading={loading} />;
  }
}

/**
 * Closing the detail sheet. Opened from a card: go back, so Back after closing does not reopen
 * it. Opened from a shared URL: drop item= in place. Focus returns to the card it came from.
 */
function useSheetClose(state: CatalogState) {
  const navigate = useNavigate();
  const location = useLocation();
  const closeSheet = useCallback(() => {
    if ((location.state as { fromList?: boolean } | null)?.fromList) navigate(-1);
    else navigate(catalogHref(withItem(state, "")), { replace: true, preventScrollReset: true });
  }, [location.state, navigate, state]);

  const returnFocus = useCallback(
    (event: Event) => {
      const card = document.querySelector<HTMLElement>(`[data-item-id="${CSS.escape(state.item)}"]`);
      if (card) {
        event.preventDefault();
        card.focus({ preventScroll: true });
      }
    },
    [state.item],
  );
  return { closeSheet, returnFocus };
}

/** What the page shows while a client navigation loads: the switcher and title already show where it goes. */
interface Shown {
  /** the view loading, or null */
  pending: CatalogState | null;
  type: CatalogState["type"];
  view: CatalogState["view"];
  noun: string;
  loading: boolean;
}

function CatalogHeader({ state, shown, channelsEnabled }: { state: CatalogState; shown: Shown; channelsEnabled: boolean }) {
  return (
    <header className="flex flex-col gap-6">
      <div className="flex flex-col gap-2">
        <p className="text-sm font-semibold tracking-[0.2em] text-[#ffb38f] uppercase">Sync-ready catalog</p>
        <h1 className="page-title">{catalogTitle(shown.type)}</h1>
      </div>
      <TypeSwitcher active={shown.type} channelsEnabled={channelsEnabled} />
      {state.type === "music" && shown.type === "music" ? (
        // issue #41: the search by one's own file, on the music views, just above the catalog's search
        <div className="flex flex-wrap items-center gap-3">
          <MusicViewSwitch state={state} />
          <FindBySoundLink variant="button" />
        </div>
      ) : null}
    </header>
  );
}

/** The filters of the view shown; while switching to Singles, its skeleton badges. */
function ViewFilters({ props, shown }: { props: CatalogPageProps; shown: Shown }) {
  const { state } = props;
  const { pending } = shown;
  if (state.type === shown.type && state.view === "tracks" && state.like) return <LikeViewFilters props={props} state={state} />;
  if (state.type === shown.type && shown.type !== "film") {
    return (
      <section aria-label="Filters" className="mt-5 flex flex-col gap-3">
        {state.view === "albums" ? <AlbumFilters state={state} levels={props.musicLevels} /> : null}
        {state.view === "tracks" ? <TrackFilters state={state} levels={props.musicLevels} keyCounts={props.tracks?.keyCounts ?? []} /> : null}
        {state.view === "singles" ? (
          <SinglesFilters
            state={state}
            genres={props.singlesGenres}
            subGenres={props.subGenres}
            genresLoading={false}
            subGenresLoading={pending?.view === "singles" && Boolean(pending.genre) && pending.genre !== state.genre}
          />
        ) : null}
        {state.view === "channels" ? <ChannelFilters state={state} /> : null}
      </section>
    );
  }
  if (shown.type !== "singles") return null;
  // Switching to Singles: the genre list is on its way (product-rules §2: 5 skeleton badges).
  return (
    <section aria-label="Filters" className="mt-5">
      <SinglesFilters
        state={pending?.view === "singles" ? pending : (defaultCatalogState("singles") as Extract<CatalogState, { view: "singles" }>)}
        genres={[]}
        subGenres={null}
        genresLoading
        subGenresLoading={false}
      />
    </section>
  );
}

/**
 * Issue #41 "Results first": on a `like=` view the filters fold into a "Filters (n)" summary (a
 * native `<details>`: no script), so the heading naming the seed and the first tracks are in
 * the first screen. Opened, it stays open across the filter links (React keeps the element).
 */
function LikeViewFilters({ props, state }: { props: CatalogPageProps; state: TracksState }) {
  const count = likeFilterCount(state) - (state.q ? 1 : 0);
  return (
    <section aria-label="Filters" className="mt-4">
      <details className="group" data-like-filters="">
        <summary className="btn-secondary min-h-11 cursor-pointer list-none px-4 py-0 text-sm [&::-webkit-details-marker]:hidden">
          Filters{count ? ` (${count})` : ""}
          <ChevronDown className="size-4 transition-transform group-open:rotate-180" aria-hidden="true" />
        </summary>
        <div className="mt-4 flex flex-col gap-3">
          <TrackFilters state={state} levels={props.musicLevels} keyCounts={props.tracks?.keyCounts ?? []} />
        </div>
      </details>
    </section>
  );
}

/** The list itself: nothing while a seed is still being analysed, the empty state, track rows or cards. */
function ResultList({ props, shown }: { props: CatalogPageProps; shown: Shown }) {
  const { state, total, items } = props;
  const { loading } = shown;
  if (!loading && total === 0 && props.tracks?.like && props.tracks.like.status !== "ready") return null;
  if (!loading && total === 0) return <EmptyState state={state} />;
  if (state.view === "tracks" || shown.view === "tracks") {
    return (
      <TrackList
        rows={state.view === "tracks" && shown.view === "tracks" ? (props.tracks?.rows ?? []) : []}
        // issue #11: the album's page, which links back to this view
        albumHref={(row: TrackRowData) => itemPageHref("albums", row.albumId, row.album, catalogHref(withItem(state, "")))}
        dimmed={loading}
      />
    );
  }
  return (
    <ul
      className={`grid grid-cols-2 gap-3 transition-opacity sm:gap-5 md:grid-cols-3 xl:grid-cols-4 ${loading ? "opacity-40" : ""}`}
      data-testid="catalog-grid"
    >
      {(state.type === shown.type ? items : []).map((card, index) => (
        <li key={card.id}>
          <Card card={card} state={state} index={index} />
        </li>
      ))}
    </ul>
  );
}

/** The count (or "Loading {noun}..."), the track sort, a like= view's seed, the list and the pages. */
function Results({ props, shown }: { props: CatalogPageProps; shown: Shown }) {
  const { state, total, pageCount } = props;
  const { loading, noun } = shown;
  const tracksShown = state.view === "tracks" && shown.view === "tracks";
  const like = tracksShown && props.tracks?.like && !loading ? props.tracks.like : null;
  return (
    // data-shown: the query of the view this section shows (the URL moves before React commits the new view; tests wait on it)
    <section aria-labelledby="results-status" aria-busy={loading} data-shown={catalogHref(state).slice("/catalog".length)} className={like ? "mt-5" : "mt-8"}>
      {/* issue #41: a like= view opens on the heading that names its seed */}
      {like ? <LikeSeedHeader like={like} from={catalogHref(withItem(state, ""))} autoFocus={!state.item} /> : null}
      <div className="mb-5 flex flex-wrap items-center justify-between gap-3">
        <p id="results-status" role="status" className="text-sm text-muted">
          {loading ? (
            `Loading ${noun}...`
          ) : (
            <>
              Showing <span className="font-semibold text-fg tabular-nums">{formatCount(total)}</span> {noun}
            </>
          )}
        </p>
        {like && state.view === "tracks" && likeFilterCount(state) > 0 ? (
          <Link
            to={catalogHref(withoutLikeFilters(state))}
            preventScrollReset
            aria-label={`Clear filters, keep ${likeTitle(like)}`}
            className="inline-flex min-h-10 items-center text-sm font-semibold text-[#ffb38f] underline underline-offset-4 hover:text-fg"
            data-clear-like-filters=""
          >
            Clear filters
          </Link>
        ) : null}
        {tracksShown && total > 0 ? <SortControl state={state} /> : null}
      </div>
      <ResultList props={props} shown={shown} />
      {!loading ? <Pagination page={state.page} pageCount={pageCount} hrefFor={(page: number) => catalogHref(withPage(state, page))} /> : null}
    </section>
  );
}

/**
 * Issue #41: the first result row (or, without one, the seed's heading) is fully in view below
 * the fixed header; else the page scrolls so that the "Filters (n)" summary starts just under it,
 * followed by the seed's card and the first row (or, on a screen too short for all three,
 * the card; under the filter bar, too, when that stays pinned). Then the heading takes focus,
 * without a second scroll.
 */
function showLikeResults() {
  const heading = document.getElementById("like-title");
  const card = heading?.closest("section");
  if (!heading || !card) return;
  const top = (el: Element | null | undefined) => el?.getBoundingClientRect().top ?? 0;
  const header = document.querySelector(".site-header")?.getBoundingClientRect().bottom ?? 0;
  const last = document.querySelector("[data-track-id]") ?? heading;
  const lastBottom = () => last.getBoundingClientRect().bottom;
  if (top(card) < header || lastBottom() > window.innerHeight) {
    const by = (delta: number) => window.scrollTo({ top: Math.max(0, window.scrollY + delta), behavior: "instant" });
    const filters = document.querySelector("[data-like-filters]");
    const anchor = filters && lastBottom() - (top(filters) - header - 12) <= window.innerHeight ? filters : card;
    by(top(anchor) - header - 12);
    // the filter bar pins below the header (product-rules §2): the anchor comes back down to just below it
    const bar = document.querySelector("[data-filter-bar]")?.getBoundingClientRect().bottom ?? 0;
    if (bar > top(anchor) - 12) by(top(anchor) - bar - 12);
  }
  heading.focus({ preventScroll: true });
}

/**
 * Issue #41 "focus moves to the results": when the page comes to a new seed (a "More like this"
 * link, an upload's result), its heading takes focus and the results come into view. Filter,
 * sort and page links on the same seed leave focus where it is. On a full load the browser's
 * autofocus has already focused the heading; once hydrated the results are brought into view,
 * unless the visitor has moved focus elsewhere meanwhile.
 */
function useLikeResultsFocus(like: string, sheetOpen: boolean) {
  const clientMount = useHydrated();
  const previous = useRef<string | null>(null);
  useEffect(() => {
    const before = previous.current;
    previous.current = like;
    if (!like || like === before || sheetOpen) return;
    if (before === null && !clientMount) {
      const active = document.activeElement;
      if (active && active !== document.body && active.id !== "like-title") return;
    }
    showLikeResults();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new seed moves focus, not the hydration re-render
  }, [like]);
}

export function CatalogPage(props: CatalogPageProps) {
  const { state, detail, channelsEnabled } = props;
  useLikeResultsFocus(state.view === "tracks" ? state.like : "", Boolean(state.item));
  const pending = usePendingState(state);
  const shown: Shown = { pending, type: pending?.type ?? state.type, view: pending?.view ?? state.view, noun: viewNoun(pending ?? state), loading: pending !== null };
  const { closeSheet, returnFocus } = useSheetClose(state);

  return (
    // issue #41: every "More like this" on this page keeps its filters
    <LikeFromView value={state}>
      <div className="mx-auto max-w-7xl px-5 pt-10 pb-20 sm:px-8 sm:pt-14">
        <CatalogHeader state={state} shown={shown} channelsEnabled={channelsEnabled} />
        {shown.type === "compilations" ? (
          <div className="mt-10">
            <ComingSoon />
          </div>
        ) : (
          <>
            {/* the bar is a direct child of the page's column, not of a wrapper of its own height:
                a sticky box only moves within its parent (product-rules §2 "Filter bar": fixed while scrolling) */}
            <FilterBar state={state} searchable={state.type === shown.type} likeLabel={state.view === "tracks" ? likeChipLabel(props.tracks?.like) : undefined} />
            <ViewFilters props={props} shown={shown} />
            <Results props={props} shown={shown} />
          </>
        )}
        <DetailSheet detail={detail} closeHref={catalogHref(withItem(state, ""))} onClose={closeSheet} onCloseAutoFocus={returnFocus} />
      </div>
    </LikeFromView>
  );
}
