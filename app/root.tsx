import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
} from "react-router";
import { useEffect } from "react";
import type { Route } from "./+types/root";
import { services } from "./.server/context";
import { useNonce } from "./lib/nonce";
import "./app.css";

export async function loader({ context }: Route.LoaderArgs) {
  const { config } = services(context);
  return { siteUrl: config.SITE_URL };
}

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "manifest", href: "/manifest.webmanifest" },
];

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  useEffect(() => {
    // Lets end-to-end tests wait for hydration before they interact.
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <html lang="en" className="dark">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#07070d" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/** Root error boundary: an unexpected error still gets a readable page, never a stack. */
export function ErrorBoundary() {
  const error = useRouteError();
  let title = "Unexpected Application Error!";
  let detail = "Something went wrong while loading this page.";
  if (isRouteErrorResponse(error)) {
    title = `${error.status} ${error.statusText || "Error"}`;
    detail = typeof error.data === "string" && error.data ? error.data : detail;
  } else if (import.meta.env.DEV && error instanceof Error) {
    detail = error.message;
  }
  return (
    <main id="main" className="mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center gap-4 p-8 text-center">
      <h1 className="text-3xl font-bold">{title}</h1>
      <p className="text-muted">{detail}</p>
      <a className="btn-primary" href="/">
        Return to Home
      </a>
    </main>
  );
}
