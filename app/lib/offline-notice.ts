/**
 * The notice shown when the connection drops: visited pages stay readable through the
 * service worker (product-rules §1), anything else waits for the network. Shared by the React toaster
 * (app/components/layout/notifications.tsx) and the document pages (app/enhance/notifications.ts).
 */
export const OFFLINE_NOTICE = {
  title: "You're offline",
  description: "Pages you have visited stay available until the connection returns.",
} as const;
