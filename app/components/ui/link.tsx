import { useContext } from "react";
// eslint-disable-next-line no-restricted-imports -- the one place that wraps React Router's Link
import { Link as RouterLink, UNSAFE_NavigationContext, type LinkProps } from "react-router";

/**
 * The site's `<Link>`: React Router's in the browser, where it navigates without a reload; on
 * the server, for a plain path, the `<a>` React Router would render, without running its hooks.
 * A track view has ~90 links, and each of React Router's Links resolves its path against the
 * route, reads the location and sets up its click and prefetch handlers on the server too, none
 * of which the HTML shows: 4.6 µs a link against 2.4 µs for this one (measured, issue #18;
 * ADR 0114, amended). The browser hydrates that `<a>` with React Router's Link, which renders the
 * same attributes, so clicks are React Router's own (no copy of its click handling here).
 * `link.test.tsx` renders both for every kind of `to` and props the site uses, and requires the
 * same markup.
 */
export const Link: typeof RouterLink = import.meta.env.SSR ? (ServerLink as typeof RouterLink) : RouterLink;

/**
 * A path React Router's href leaves as written: absolute (not `//`, not `/\`), no `//`, `\`,
 * `.` or `..` segment in its pathname, no bare `?` or `#` (which it drops). Anything else goes
 * to React Router.
 */
const PLAIN_PATH = /^\/(?![/\\])(?![^?#]*(?:\/\/|\\|\/\.{1,2}(?:[/?#]|$)))[^?#]*(?:\?[^#]+)?(?:#.+)?$/;

export function plainPath(to: LinkProps["to"]): to is string {
  return typeof to === "string" && PLAIN_PATH.test(to);
}

/** The server's rendering of `<Link>` (above); exported for its test. */
export function ServerLink(props: LinkProps) {
  const { basename } = useContext(UNSAFE_NavigationContext);
  // what React Router's Link takes for itself and does not render, then the attributes
  const {
    to,
    discover = "render",
    prefetch = "none",
    reloadDocument,
    target,
    onClick: _onClick,
    relative: _relative,
    replace: _replace,
    mask: _mask,
    state: _state,
    preventScrollReset: _scroll,
    viewTransition: _transition,
    defaultShouldRevalidate: _revalidate,
    ...attributes
  } = props;
  if (basename !== "/" || prefetch !== "none" || reloadDocument || !plainPath(to)) return <RouterLink {...props} />;
  // in React Router's order: the rest, href, target, data-discover
  return <a {...attributes} href={to} target={target} data-discover={discover === "render" ? "true" : undefined} />;
}
