import { toast, type ExternalToast } from "sonner";

/**
 * product-rules §9 "Notifications" gives two readings each for the visible count (1 or 3) and the
 * display time (5000 or 4000 ms). ADR 0011: one at a time, 5000 ms.
 */
export const VISIBLE_TOASTS = 1;
export const TOAST_DURATION_MS = 5000;

type Options = Pick<ExternalToast, "id" | "duration" | "action">;

/**
 * product-rules §4 "In-app notifications": adding a notification keeps only the newest one. Each
 * helper dismisses whatever is shown before adding its own.
 */
export const notify = {
  success(title: string, description?: string, options: Options = {}) {
    toast.dismiss();
    return toast.success(title, { description, ...options });
  },
  /** The spec's 'destructive' variant (styled by .site-toast-destructive). */
  error(title: string, description?: string, options: Options = {}) {
    toast.dismiss();
    return toast.error(title, { description, ...options });
  },
  info(title: string, description?: string, options: Options = {}) {
    toast.dismiss();
    return toast.info(title, { description, ...options });
  },
  /** Without an id, dismisses every notification (product-rules §4). */
  dismiss(id?: string | number) {
    toast.dismiss(id);
  },
};
