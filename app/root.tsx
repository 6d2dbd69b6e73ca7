import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteError,
} from "react-router";
import { useEffect } from "react";
import type { Route } from "./+types/root";
import { services } from "./.server/context";
import { registerServiceWorker } from "./lib/register-sw";
import { hydratesPage } from "./lib/static-pages";
import { Logo } from "./components/layout/logo";
import { SiteBackground } from "./components/layout/site-background";
import { site } from "./content/site";
// The Latin subset of Inter carries almost every glyph of the site; preloading it avoids a
// late font swap (layout shift) on the first visit.
import interLatinWoff2 from "@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url";
// The stylesheet is rendered by Layout with a React `precedence`, so React puts it in <head>
// ahead of the framework's modulepreload links: the CSS and the font are the first requests
// after the HTML (ADR 0083). A plain import would let <Links /> render it after them.
import stylesheetUrl from "./app.css?url";
// ADR 0083: document pages ship this one self-contained script instead of the framework.
// `?worker&url` makes Vite bundle it with its imports into one file and give its URL.
import enhanceScriptUrl from "./enhance/document-page.ts?worker&url";

const SPECULATION_RULES = JSON.stringify({
  prefetch: [{ where: { and: [{ href_matches: "/*" }, { not: { selector_matches: "[target=_blank]" } }] }, eagerness: "moderate" }],
});

export async function loader({ context }: Route.LoaderArgs) {
  const { config } = services(context);
  return { siteUrl: config.SITE_URL };
}

export const links: Route.LinksFunction = () => [
  // Issue #41, ADR 0150 (amended, sixth session): a raster favicon (16, 32 and 48 px in one .ico).
  // Chromium draws an SVG favicon as a whole SVG document on the page's main thread after the
  // first paint, which Lighthouse counted as blocking time; a small PNG frame decodes in microseconds.
  { rel: "icon", href: "/favicon.ico", sizes: "16x16 32x32 48x48" },
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: "/icons/apple-touch-icon.png" },
  { rel: "preload", href: interLatinWoff2, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
];

export function Layout({ children }: { children: React.ReactNode }) {
  const hydrate = hydratesPage(useMatches().map((match) => match.handle));
  useEffect(() => {
    // Lets end-to-end tests wait for hydration before they interact.
    document.documentElement.dataset.hydrated = "true";
    // product-rules §1: register /sw.js on load (not in development, where Vite serves modules).
    if (!import.meta.env.DEV) registerServiceWorker();
  }, []);
  return (
    <html lang="en" className="dark">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#07070d" />
        <Meta />
        <link rel="stylesheet" href={stylesheetUrl} precedence="default" />
        <Links />
      </head>
      <body>
        {children}
        {hydrate ? (
          <>
            <ScrollRestoration />
            <Scripts />
          </>
        ) : (
          <>
            <script type="module" src={enhanceScriptUrl} />
            {/* Document pages move by full loads: browsers that know speculation rules fetch a
                same-site link's page while the pointer rests on it (ADR 0083). */}
            <script
              type="speculationrules"
              dangerouslySetInnerHTML={{ __html: SPECULATION_RULES }}
            />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/**
 * Root error boundary: an unexpected error still gets a designed page. Error messages and
 * stacks are shown in development only (docs/spec-deviations.md #6).
 */
export function ErrorBoundary() {
  const error = useRouteError();
  let title = "Unexpected Application Error!";
  let detail = "Something went wrong while loading this page. Please try again in a moment.";
  let stack: string | undefined;
  if (isRouteErrorResponse(error)) {
    title = error.status === 404 ? "Oops! Page not found" : `${error.status} ${error.statusText || "Error"}`;
    detail = typeof error.data === "string" && error.data ? error.data : detail;
  } else if (import.meta.env.DEV && error instanceof Error) {
    detail = error.message;
    stack = error.stack;
  }
  return (
    <>
      <SiteBackground />
      <header className="site-header fixed inset-x-0 top-0 z-50 h-[var(--header-height)]">
        <div className="mx-auto flex h-full max-w-7xl items-center px-4 sm:px-6 lg:px-8">
          <a href="/" className="rounded-lg" aria-label={`${site.companyName} home`}>
            <Logo name={site.companyName} />
          </a>
        </div>
      </header>
      <main id="main" className="flex min-h-dvh items-center justify-center px-4 pt-[var(--header-height)]">
        <div className="card w-full max-w-xl p-8 text-center sm:p-10">
          <p className="text-sm font-semibold tracking-[0.08em] text-muted uppercase">
            {isRouteErrorResponse(error) ? `Error ${error.status}` : "Error"}
          </p>
          <h1 className="mt-3 text-2xl font-bold tracking-tight sm:text-3xl">{title}</h1>
          <p className="mt-4 text-muted">{detail}</p>
          {stack ? (
            <pre className="mt-6 max-h-64 overflow-auto rounded-lg bg-black/40 p-4 text-left text-xs">{stack}</pre>
          ) : null}
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            {/* Full page loads: the app that failed may not be able to route. */}
            <a className="btn-primary" href="/">
              Return to Home
            </a>
            <a className="btn-secondary" href="/contact">
              Contact Us
            </a>
          </div>
        </div>
      </main>
    </>
  );
}
