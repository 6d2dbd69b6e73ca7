/**
 * ADR 0083: on the React pages (the catalog, the contact page) nothing may delay the first
 * paint but the HTML, the stylesheet and the font. React Router's <Scripts> asks for every
 * framework module at once (a dozen `modulepreload` links, hoisted by React above the
 * stylesheet) and starts an `async` module script that imports them. This rewrites the rendered
 * document so that:
 * - the modulepreload links are gone; once the first paint is on screen the same files are
 *   fetched at the lowest priority (`rel="prefetch"`: into the HTTP cache, not parsed);
 * - React Router's module script is kept inert (`type="text/x-module"`);
 * - a small inline script starts it at the visitor's first interaction (ADR 0160): a pointer
 *   or touch, a key, focus, a wheel. Issue #41: "code a page does not use before interaction
 *   is not in its first load" — the page is server-rendered and works without JavaScript
 *   (links and GET forms), so evaluating React and hydrating it (the catalog's longest tasks
 *   after the first paint) waits until someone is there to use it. A click on a button before
 *   hydration has ended is held and replayed on the same button once it has; links and form
 *   submissions go their own way, as without JavaScript. A page that opens on something
 *   interactive (an item's sheet: `data-hydrate-early`) hydrates after the first paint, as before.
 * Both scripts, and the bootstrap's text the loader runs, are allowed by their hashes (ADR 0119).
 */

import { FIRST_INTERACTION_EVENTS } from "../lib/first-interaction.ts";

const MODULEPRELOAD = /<link\b[^>]*\brel="modulepreload"[^>]*\/?>/g;
/** React Router's bootstrap: `<script type="module" async="">import …</script>`. */
const BOOTSTRAP = /<script\b([^>]*)\btype="module" async=""([^>]*)>/y;
const BOOTSTRAP_ID = "rr-deferred-bootstrap";

export function deferHydration(html: string): string[] {
  const bootstrap = findBootstrap(html);
  if (!bootstrap) return [html];
  const start = bootstrap.index;
  const end = html.indexOf("</script>", start);
  if (end < 0) return [html];
  // React hoists the modulepreload links into the head: only the head is read and rewritten,
  // unless one is found after it. The document is returned in parts, slices of the one React
  // rendered (rendered-document.ts, DocumentParts): joined, it would be copied whole once more.
  const headEnd = html.indexOf("</head>");
  const headOnly = headEnd >= 0 && headEnd < start && html.indexOf("modulepreload", headEnd) < 0;
  const inert = `<script type="text/x-module" id="${BOOTSTRAP_ID}">`;
  const loader = `<script>${loaderSource(modulePreloads(headOnly ? html.slice(0, headEnd) : html))}</script>`;
  const afterBootstrap = end + "</script>".length;
  const rest = [html.slice(start + bootstrap[0].length, afterBootstrap), loader, html.slice(afterBootstrap)];
  if (headOnly) {
    return [html.slice(0, headEnd).replace(MODULEPRELOAD, ""), html.slice(headEnd, start), inert, ...rest];
  }
  return [(html.slice(0, start) + inert + rest.join("")).replace(MODULEPRELOAD, "")];
}

const BOOTSTRAP_ATTRIBUTES = 'type="module" async=""';

/** The interactions that start hydration (capture phase, on the window). */
export const HYDRATION_TRIGGERS = FIRST_INTERACTION_EVENTS;

/** The hrefs of the modulepreload links React Router rendered, in order, without repeats. */
function modulePreloads(html: string): string[] {
  const hrefs = new Set<string>();
  for (const link of html.match(MODULEPRELOAD) ?? []) {
    const href = /\bhref="([^"]+)"/.exec(link)?.[1];
    // only the site's own built files (an attribute-quoted path; never a scheme or a quote)
    if (href && /^\/[\w./-]+$/.test(href)) hrefs.add(href);
  }
  return [...hrefs];
}

/**
 * The inline loader (ES5, no dependencies; its hash is in the page's CSP). `go` starts the
 * inert bootstrap once; until the root sets `data-hydrated` (app/root.tsx), a click on a
 * `<button>` that is not a form's submit button is held and replayed on the same element.
 */
function loaderSource(prefetch: readonly string[]): string {
  return (
    `(function(){var D=document,E=D.documentElement,W=window,T=${JSON.stringify(HYDRATION_TRIGGERS)},started=0,held=null;` +
    `function go(){if(started)return;started=1;for(var i=0;i<T.length;i++)W.removeEventListener(T[i],go,true);` +
    `var d=D.getElementById("${BOOTSTRAP_ID}"),s=D.createElement("script");s.type="module";s.text=d.text;D.body.appendChild(s)}` +
    `for(var i=0;i<T.length;i++)W.addEventListener(T[i],go,{capture:true,passive:true});` +
    `W.addEventListener("click",function(e){if(E.getAttribute("data-hydrated")==="true")return;` +
    `var b=e.target&&e.target.closest?e.target.closest("button"):null;if(!b||b.disabled||(b.form&&b.type==="submit"))return;` +
    `e.preventDefault();e.stopImmediatePropagation();held=b;go()},true);` +
    `new MutationObserver(function(l,o){if(E.getAttribute("data-hydrated")!=="true")return;o.disconnect();` +
    `var b=held;held=null;if(b&&b.isConnected)b.click()}).observe(E,{attributes:true,attributeFilter:["data-hydrated"]});` +
    // the modules, fetched into the HTTP cache once the first frame is on screen
    // (a page that opens on something interactive, marked data-hydrate-early, hydrates at once)
    `function painted(){if(D.querySelector("[data-hydrate-early]")){go();return}var f=${JSON.stringify(prefetch)};` +
    `for(var i=0;i<f.length;i++){var l=D.createElement("link");l.rel="prefetch";l.href=f[i];D.head.appendChild(l)}}` +
    `var P=W.PerformanceObserver;if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0){` +
    `new P(function(l,o){if(l.getEntriesByName("first-contentful-paint").length){o.disconnect();painted()}}).observe({type:"paint",buffered:true})` +
    `}else requestAnimationFrame(function(){setTimeout(painted)})})()`
  );
}

/**
 * The first `<script>` tag with React Router's bootstrap attributes. Found with indexOf and
 * checked with a sticky regex: a regex searching a whole 60–125 KB document costs a quarter
 * of a millisecond when the document holds one character beyond Latin-1 (an en dash in
 * "Title (A–Z)" makes V8 keep it as two-byte), indexOf a tenth of that (issue #18).
 */
function findBootstrap(html: string): RegExpExecArray | null {
  for (let at = html.indexOf(BOOTSTRAP_ATTRIBUTES); at >= 0; at = html.indexOf(BOOTSTRAP_ATTRIBUTES, at + 1)) {
    const tagStart = html.lastIndexOf("<script", at);
    if (tagStart < 0) continue;
    BOOTSTRAP.lastIndex = tagStart;
    const match = BOOTSTRAP.exec(html);
    if (match && match.index + match[0].length > at) return match;
  }
  return null;
}

