/**
 * ADR 0083: on the React pages (the catalog, the contact page) nothing may delay the first
 * paint but the HTML, the stylesheet and the font. React Router's <Scripts> asks for every
 * framework module at once (a dozen `modulepreload` links, hoisted by React above the
 * stylesheet) and starts an `async` module script that imports them. This rewrites the rendered
 * document so that:
 * - the modulepreload links are gone;
 * - React Router's module script is kept inert (`type="text/x-module"`);
 * - a small inline script starts it once the first paint is on screen, as a module script
 *   at low fetch priority; both scripts, and the
 *   bootstrap's text the loader runs, are allowed by their hashes (ADR 0119).
 * The page is server-rendered and works without JavaScript (links and GET forms), so the
 * visitor reads and can use it meanwhile.
 */

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
  const inert = `<script type="text/x-module" id="${BOOTSTRAP_ID}">`;
  // Started when the browser reports the first contentful paint (it reports it once the frame
  // is on screen, later than the frame's requestAnimationFrame); where paint timing is
  // unknown, one frame later.
  const start_ =
    `var d=document.getElementById("${BOOTSTRAP_ID}"),s=document.createElement("script");` +
    `s.type="module";s.fetchPriority="low";s.text=d.text;document.body.appendChild(s)`;
  const loader =
    `<script>(function(){function go(){${start_}}` +
    `var P=window.PerformanceObserver;if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0){` +
    `new P(function(l,o){if(l.getEntriesByName("first-contentful-paint").length){o.disconnect();go()}}).observe({type:"paint",buffered:true})` +
    `}else requestAnimationFrame(function(){setTimeout(go)})})()</script>`;
  const afterBootstrap = end + "</script>".length;
  const rest = [html.slice(start + bootstrap[0].length, afterBootstrap), loader, html.slice(afterBootstrap)];
  // React hoists the modulepreload links into the head: only the head is rewritten, unless one
  // is found after it. The document is returned in parts, slices of the one React rendered
  // (rendered-document.ts, DocumentParts): joined, it would be copied whole once more.
  const headEnd = html.indexOf("</head>");
  if (headEnd >= 0 && headEnd < start && html.indexOf("modulepreload", headEnd) < 0) {
    return [html.slice(0, headEnd).replace(MODULEPRELOAD, ""), html.slice(headEnd, start), inert, ...rest];
  }
  return [(html.slice(0, start) + inert + rest.join("")).replace(MODULEPRELOAD, "")];
}

const BOOTSTRAP_ATTRIBUTES = 'type="module" async=""';

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

