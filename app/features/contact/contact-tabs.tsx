import { useState, type MouseEvent } from "react";
import { useFetcher, useSearchParams } from "react-router";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { contactPage } from "~/content/contact";
import type { LeadActionResult } from "~/lib/contact/result";
import type { FormKind } from "~/lib/contact/schemas";
import { ContactMessageForm, leadFetcherKey, LicensingRequestForm } from "./lead-forms";

export interface ContactTabsProps {
  /** The tab the server rendered (?tab=licensing, or the form that was just posted). */
  tab: FormKind;
  tracks: string;
  keys: Record<FormKind, string>;
  documentResult: LeadActionResult | undefined;
  /** LEAD_RETENTION_DAYS, stated by each form's privacy notice (issue #16). */
  retentionDays: number;
}

/** The URL of each tab: the tabs are links, so they work before (and without) JavaScript. */
export function tabHref(tab: FormKind, tracks: string): string {
  if (tab === "contact") return "/contact";
  const params = new URLSearchParams({ tab: "licensing" });
  if (tracks) params.set("tracks", tracks);
  return `/contact?${params}`;
}

/**
 * product-rules §2/§4: two tabs, "General Contact" (default) and "Sync Licensing". Radix tabs once
 * hydrated (arrow keys, roles); plain links to ?tab=… that the server honours without
 * JavaScript. The URL follows the tab either way, so a tab can be shared.
 */
export function ContactTabs({ tab, tracks, keys, documentResult, retentionDays }: ContactTabsProps) {
  const [, setSearchParams] = useSearchParams();
  // Switches at once on the client; follows the server's tab when the URL changes otherwise
  // (a link to /contact?tab=licensing while the page is open, a document post).
  const [active, setActive] = useState<FormKind>(tab);
  const [serverTab, setServerTab] = useState<FormKind>(tab);
  // Issue #41: Radix unmounts the inactive tab's panel. Each form's fetcher (its last answer) and
  // the confirmation the visitor put away with "Send another" live here, so switching tabs after
  // a send finds the form as it was left: the confirmation still in place, or the empty form.
  useFetcher({ key: leadFetcherKey("contact") });
  useFetcher({ key: leadFetcherKey("licensing") });
  const [dismissed, setDismissed] = useState<Partial<Record<FormKind, string>>>({});
  const dismiss = (kind: FormKind) => (reference: string) => setDismissed((d) => ({ ...d, [kind]: reference }));
  if (serverTab !== tab) {
    setServerTab(tab);
    setActive(tab);
  }
  const select = (value: string) => {
    const next = value === "licensing" ? "licensing" : "contact";
    if (next === active) return;
    setActive(next);
    setSearchParams(
      (params) => {
        if (next === "licensing") params.set("tab", "licensing");
        else params.delete("tab");
        return params;
      },
      { replace: true, preventScrollReset: true },
    );
  };
  // Radix selects the tab on mouse-down / keyboard; the link's own navigation is for no-JS.
  const keepOnPage = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!event.metaKey && !event.ctrlKey && !event.shiftKey && event.button === 0) event.preventDefault();
  };
  return (
    <Tabs value={active} onValueChange={select} className="flex flex-col">
      <TabsList aria-label="Contact forms" className="self-center">
        <TabsTrigger value="contact" asChild>
          <a href={tabHref("contact", tracks)} onClick={keepOnPage}>
            {contactPage.tabs.contact}
          </a>
        </TabsTrigger>
        <TabsTrigger value="licensing" asChild>
          <a href={tabHref("licensing", tracks)} onClick={keepOnPage}>
            {contactPage.tabs.licensing}
          </a>
        </TabsTrigger>
      </TabsList>
      <TabsContent value="contact">
        <ContactMessageForm
          idempotencyKey={keys.contact}
          documentResult={documentResult}
          retentionDays={retentionDays}
          dismissed={dismissed.contact}
          onDismiss={dismiss("contact")}
        />
      </TabsContent>
      <TabsContent value="licensing">
        <LicensingRequestForm
          idempotencyKey={keys.licensing}
          documentResult={documentResult}
          retentionDays={retentionDays}
          tracks={tracks}
          dismissed={dismissed.licensing}
          onDismiss={dismiss("licensing")}
        />
      </TabsContent>
    </Tabs>
  );
}
