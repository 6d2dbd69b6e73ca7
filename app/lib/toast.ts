import type { ReactNode } from "react";
import type { ExternalToast } from "sonner";

/**
 * product-rules §9 "Notifications" gives two readings each for the visible count (1 or 3) and the
 * display time (5000 or 4000 ms). ADR 0011: one at a time, 5000 ms.
 */
export const VISIBLE_TOASTS = 1;
export const TOAST_DURATION_MS = 5000;

type Options = Pick<ExternalToast, "id" | "duration" | "action">;

/**
 * ADR 0147: sonner (53 KB) is not part of a page's first load. The layout mounts the toaster when
 * the browser is idle after hydration, or at once when a notification is raised before that
 * (app/routes/_layout.tsx); a notification waits until the toaster listens, since sonner drops
 * toasts raised while no toaster is mounted.
 */
let toasterListening: () => void = () => {};
const listening = new Promise<void>((resolve) => (toasterListening = resolve));
let wanted = false;
const wantListeners = new Set<() => void>();

/** Called by the toaster once it is mounted (and listening to sonner). */
export function toasterMounted() {
  toasterListening();
}

/** `callback` runs as soon as a notification is wanted (at once if one already was). */
export function onToastWanted(callback: () => void): () => void {
  if (wanted) callback();
  wantListeners.add(callback);
  return () => {
    wantListeners.delete(callback);
  };
}

function sonner() {
  if (!wanted) {
    wanted = true;
    for (const callback of wantListeners) callback();
  }
  return listening.then(() => import("sonner"));
}

/**
 * Replaces whatever is shown with one notification of this kind (product-rules §4). The
 * description may be markup: the contact form's success toast carries the reference on one
 * unbroken line (issue #41).
 */
const show =
  (kind: "success" | "error" | "info") =>
  (title: string, description?: ReactNode, options: Options = {}) => {
    void sonner().then(({ toast }) => {
      toast.dismiss();
      toast[kind](title, { description, ...options });
    });
  };

/**
 * product-rules §4 "In-app notifications": adding a notification keeps only the newest one. Each
 * helper dismisses whatever is shown before adding its own.
 */
export const notify = {
  success: show("success"),
  /** The spec's 'destructive' variant (styled by .site-toast-destructive). */
  error: show("error"),
  info: show("info"),
  /** Without an id, dismisses every notification (product-rules §4). */
  dismiss(id?: string | number) {
    void sonner().then(({ toast }) => toast.dismiss(id));
  },
};
