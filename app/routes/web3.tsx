import { Sparkles } from "~/components/ui/icons/sparkles";
import type { Route } from "./+types/web3";
import { featuredTokenizationPartner, web3Page, web3Topics } from "~/content/web3";
import { FeaturedPartner } from "~/features/web3/featured-partner";
import { Web3TopicCard } from "~/features/web3/web3-topic-card";
import { seo } from "~/lib/seo";
import { documentPage, loadAsDocument } from "~/lib/static-pages";

// ADR 0083: served as a document, without React on the client.
export const handle = documentPage;
export const clientMiddleware = [loadAsDocument];

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(
    {
      title: "Web3",
      description:
        "Our blockchain and tokenization initiatives: public rights records for every release, fractional ownership of catalogues, and open metadata.",
      path: "/web3",
    },
    matches,
  );

export default function Web3Page() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6 sm:py-20">
      <header className="max-w-3xl">
        <p className="mb-4 inline-flex items-center gap-2 text-sm font-semibold tracking-wide text-ring uppercase">
          <Sparkles aria-hidden="true" className="size-4" />
          Initiatives
        </p>
        <h1 className="page-title">
          <span className="text-gradient">{web3Page.title}</span>
        </h1>
        <p className="mt-5 text-xl text-muted">{web3Page.subtitle}</p>
      </header>

      <div className="mt-12">
        <FeaturedPartner partner={featuredTokenizationPartner} />
      </div>

      <section aria-label="Topics" className="mt-10 grid gap-6 md:grid-cols-3">
        {web3Topics.map((topic) => (
          <Web3TopicCard key={topic.id} topic={topic} />
        ))}
      </section>
    </div>
  );
}
