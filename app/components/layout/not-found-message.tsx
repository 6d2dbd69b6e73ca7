import { Link } from "~/components/ui/link";

/** product-rules §2 "404 page": "404", "Oops! Page not found" and "Return to Home" (any unknown path or item). */
export function NotFoundMessage() {
  return (
    <section className="mx-auto flex min-h-[calc(100dvh-var(--header-height)-12rem)] max-w-2xl flex-col items-center justify-center px-4 py-24 text-center">
      <p className="not-found-code text-gradient">404</p>
      <h1 className="mt-2 text-2xl font-bold tracking-tight sm:text-3xl">Oops! Page not found</h1>
      <p className="mt-4 max-w-md text-muted">
        The page you are looking for may have moved, or never existed. Everything we do starts from the home page.
      </p>
      <Link to="/" className="btn-primary mt-8">
        Return to Home
      </Link>
    </section>
  );
}
