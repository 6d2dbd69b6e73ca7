import { createElement, type ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createStaticHandler, createStaticRouter, Link as RouterLink, StaticRouterProvider, type LinkProps } from "react-router";
import { describe, expect, it } from "vitest";
import { plainPath, ServerLink } from "./link";

/** Renders `element` as the server would, inside a route of a static router at `url`. */
async function render(element: () => ReactElement, url: string): Promise<string> {
  const routes = [{ path: "/", children: [{ path: "catalog/albums/:id/:slug", Component: () => element() }, { path: "*", Component: () => element() }] }];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://site.example${url}`));
  if (context instanceof Response) throw new Error(`no context for ${url}`);
  return renderToStaticMarkup(<StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} />);
}

// The paths the site links to (track rows, cards, filters, pagination, the header and footer)
const SITE_PATHS = [
  "/",
  "/catalog",
  "/shortlist",
  "/mission#team",
  "/catalog/albums/DwPxizaEAo/gambia-tender-bells?from=%2Fcatalog%3Fview%3Dtracks%26duration%3D1-900",
  "/contact?tab=licensing&tracks=Bells%20%E2%80%94%20Ayo%20Alvarez%20(Gambia%20Tender%20Bells)",
  "/catalog?type=music&view=tracks&like=DwPxizaEAo%3A8",
  "/catalog?type=music&view=tracks&bpm=90-120&sort=-bpm&page=2",
  "/catalog/singles/x1?from=/catalog?type=singles&page=3",
  "/partners/labels/",
  "/catalog?q=caf%C3%A9+“blue”",
  // odd, but left as written by React Router too
  "/.well-known/x",
  "/x?a?b",
  "/x#a#b",
  "/x?a=/../b#/./c",
];
// Paths React Router rewrites, or resolves against the route: its own Link renders them
const OTHER_TO: LinkProps["to"][] = [
  "relative",
  "../up",
  ".",
  "/catalog/../mission",
  "/a/./b",
  "/a//b",
  "/catalog?",
  "/catalog#",
  "//elsewhere.example/x",
  "/\\elsewhere.example",
  "https://elsewhere.example/x",
  "mailto:hello@example.com",
  "",
  "?page=2",
  "#top",
  { pathname: "/catalog", search: "?q=x" },
];
// Props the site passes, and the ones React Router handles itself
const PROPS: Partial<LinkProps>[] = [
  {},
  { className: "btn-primary min-h-10 px-4", "aria-label": "License this track: Bells", title: "t" },
  { target: "_blank", rel: "noopener" },
  { discover: "none" },
  { prefetch: "intent" },
  { prefetch: "render" },
  { reloadDocument: true },
  { replace: true, state: { from: 1 }, preventScrollReset: true, viewTransition: true, relative: "path" },
  { style: { color: "red" }, "aria-current": "page", id: "x", tabIndex: -1 },
];

describe("the site's Link on the server", () => {
  it("renders the markup of React Router's own Link, for every path and prop set", async () => {
    for (const url of ["/catalog/albums/abc/some-album?from=%2Fcatalog", "/contact"]) {
      for (const to of [...SITE_PATHS, ...OTHER_TO]) {
        for (const props of PROPS) {
          const children = createElement("span", { className: "sr-only" }, "Album: ", "A – B");
          const ours = await render(() => <ServerLink to={to} {...props}>{children}</ServerLink>, url);
          const theirs = await render(() => <RouterLink to={to} {...props}>{children}</RouterLink>, url);
          expect(ours, `${JSON.stringify(to)} ${JSON.stringify(props)} at ${url}`).toBe(theirs);
        }
      }
    }
  });

  it("takes its own path for every path the site links to, and leaves the rest to React Router", () => {
    for (const to of SITE_PATHS) expect(plainPath(to), to).toBe(true);
    for (const to of OTHER_TO) expect(plainPath(to), JSON.stringify(to)).toBe(false);
  });
});
