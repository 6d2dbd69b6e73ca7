/**
 * product-rules §2 "A decorative background". Pure CSS (gradients and a faint grid in app.css): no
 * image request, nothing that competes with the page's LCP element, hidden from assistive
 * technology.
 */
export function SiteBackground() {
  return (
    <div className="site-background" aria-hidden="true">
      <div className="site-background-glow" />
      <div className="site-background-grid" />
    </div>
  );
}
