import { useEffect } from "react";
import { Toaster } from "sonner";
import { OFFLINE_NOTICE } from "~/lib/offline-notice";
import { notify, toasterMounted, TOAST_DURATION_MS, VISIBLE_TOASTS } from "~/lib/toast";

/**
 * product-rules §2 "In-app notifications": the sonner area, labelled "Notifications" (sonner appends
 * the hotkey, so screen readers hear "Notifications alt+T"), focused by Alt+T, following the
 * system light/dark theme. ADR 0011 explains the visible count and the duration.
 */
export function Notifications() {
  useConnectionToasts();
  // The Toaster's own effect (a child's) has subscribed to sonner by now: notifications raised
  // while it loaded can be shown (ADR 0147).
  useEffect(toasterMounted, []);
  return (
    <Toaster
      containerAriaLabel="Notifications"
      hotkey={["altKey", "KeyT"]}
      theme="system"
      position="bottom-right"
      visibleToasts={VISIBLE_TOASTS}
      duration={TOAST_DURATION_MS}
      closeButton
      toastOptions={{ classNames: { toast: "site-toast", error: "site-toast-destructive" } }}
    />
  );
}

const OFFLINE_TOAST_ID = "connection";

/**
 * Tells the visitor when the connection drops: visited pages stay readable through the
 * service worker (product-rules §1), anything else waits for the network. Dismissed when it is back.
 */
function useConnectionToasts() {
  useEffect(() => {
    const offline = () =>
      notify.info(OFFLINE_NOTICE.title, OFFLINE_NOTICE.description, {
        id: OFFLINE_TOAST_ID,
        duration: Infinity,
      });
    const online = () => notify.dismiss(OFFLINE_TOAST_ID);
    window.addEventListener("offline", offline);
    window.addEventListener("online", online);
    return () => {
      window.removeEventListener("offline", offline);
      window.removeEventListener("online", online);
    };
  }, []);
}
