import { Outlet } from "react-router";
import { Notifications } from "~/components/layout/notifications";
import { SiteBackground } from "~/components/layout/site-background";
import { SiteFooter } from "~/components/layout/site-footer";
import { SiteHeader } from "~/components/layout/site-header";
import { TooltipProvider } from "~/components/ui/tooltip";

/** Spec §2 "Common layout (every page)". */
export default function SiteLayout() {
  return (
    <TooltipProvider>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <SiteBackground />
      <SiteHeader />
      <main id="main" tabIndex={-1} className="site-main" data-behind-menu>
        <Outlet />
      </main>
      <SiteFooter />
      <Notifications />
      {/* No JavaScript: the toggle could not open the menu; the footer lists the links. */}
      <noscript>
        <style>{".menu-toggle{display:none!important}"}</style>
      </noscript>
    </TooltipProvider>
  );
}
