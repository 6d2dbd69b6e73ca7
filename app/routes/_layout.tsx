import { Outlet } from "react-router";
import { SiteHeader } from "~/components/layout/site-header";
import { SiteFooter } from "~/components/layout/site-footer";

export default function SiteLayout() {
  return (
    <>
      <SiteHeader />
      <main id="main" className="pt-[var(--header-height)]">
        <Outlet />
      </main>
      <SiteFooter />
    </>
  );
}
