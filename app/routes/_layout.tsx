import { lazy, Suspense, useEffect, useState } from "react";
import { Outlet } from "react-router";
import { SiteBackground } from "~/components/layout/site-background";
import { SiteFooter } from "~/components/layout/site-footer";
import { SiteHeader } from "~/components/layout/site-header";
import { onToastWanted } from "~/lib/toast";

// The toaster (sonner) is loaded after hydration, off the critical path of every page
// (ADR 0011); nothing can raise a toast before the page is interactive anyway.
const Notifications = lazy(() =>
  import("~/components/layout/notifications").then((m) => ({ default: m.Notifications })),
);

/**
 * The toaster, mounted once the browser is idle after hydration, or at once when a notification
 * is raised before that (ADR 0147: sonner is no part of the first load nor of the hydration's
 * tasks). Its own component, so the re-render that mounting it triggers touches this alone, not
 * the whole page below the layout (that synchronous re-render was the longest task of /contact
 * in Lighthouse traces, ADR 0083).
 */
function DeferredNotifications() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    const mount = () => setMounted(true);
    const stopWanting = onToastWanted(mount);
    // Safari has no requestIdleCallback: a timeout after the hydration's tasks.
    if (typeof requestIdleCallback === "function") {
      const idle = requestIdleCallback(mount, { timeout: 2000 });
      return () => {
        stopWanting();
        cancelIdleCallback(idle);
      };
    }
    const timer = setTimeout(mount, 500);
    return () => {
      stopWanting();
      clearTimeout(timer);
    };
  }, []);
  return mounted ? (
    <Suspense fallback={null}>
      <Notifications />
    </Suspense>
  ) : null;
}

/** product-rules §2 "Common layout (every page)". */
export default function SiteLayout() {
  return (
    // No TooltipProvider here: each tooltip user mounts its own (same product-rules §9 delays), so pages
    // without tooltips don't download Radix Tooltip and its positioning code.
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <SiteBackground />
      <SiteHeader />
      <main id="main" tabIndex={-1} className="site-main" data-behind-menu>
        <Outlet />
      </main>
      <SiteFooter />
      <DeferredNotifications />
      {/* No JavaScript: the toggle could not open the menu; the footer lists the links. */}
      <noscript>
        <style>{".menu-toggle{display:none!important}"}</style>
      </noscript>
    </>
  );
}
