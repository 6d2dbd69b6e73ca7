import { Blocks } from "~/components/ui/icons/blocks";
import { Coins } from "~/components/ui/icons/coins";
import { Sparkles } from "~/components/ui/icons/sparkles";
import { Tags } from "~/components/ui/icons/tags";
import { data } from "react-router";
import type { Route } from "./+types/web3.$category";
import { BLOCKCHAIN_COLLAPSED_LINES, findWeb3Topic, web3ComingSoon, web3Page } from "~/content/web3";
import { BackLink } from "~/components/ui/back-link";
import { ComingSoonPanel } from "~/components/ui/coming-soon-panel";
import { ExpandableText } from "~/components/ui/expandable-text";
import { seo } from "~/lib/seo";
import { documentPage, loadAsDocument } from "~/lib/static-pages";

// ADR 0083: served as a document, without React on the client.
export const handle = documentPage;
export const clientMiddleware = [loadAsDocument];

const icons = { blocks: Blocks, coins: Coins, tags: Tags } as const;

export function loader({ params }: Route.LoaderArgs) {
  // product-rules §2: any other value still renders the page, titled "Web3" with the coming-soon
  // text. It answers 404 (ADR 0033) so an invented URL is not indexed as a real page.
  if (!findWeb3Topic(params.category)) return data({ known: false }, { status: 404 });
  return { known: true };
}

export const meta: Route.MetaFunction = ({ params, matches }) => {
  const topic = findWeb3Topic(params.category);
  const title = topic?.title ?? web3Page.title;
  const description =
    topic?.id === "blockchain"
      ? "How we use public blockchains to record who created and owns every release, with transparent splits and faster royalty payouts."
      : `${title}: ${web3ComingSoon.text}`;
  return seo({ title, description, path: `/web3/${params.category}` }, matches);
};

export default function Web3TopicPage({ params }: Route.ComponentProps) {
  const topic = findWeb3Topic(params.category);
  const title = topic?.title ?? web3Page.title;
  const Icon = topic ? icons[topic.icon] : Sparkles;
  const showsContent = topic?.id === "blockchain";

  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <BackLink to="/web3">Back to Web3</BackLink>
      <header className="mt-8 flex items-center gap-4">
        <span
          aria-hidden="true"
          className="flex size-14 shrink-0 items-center justify-center rounded-2xl bg-[linear-gradient(135deg,#8b5cf6,#e23a7a)] text-white"
        >
          <Icon className="size-7" />
        </span>
        <h1 className="page-title">{title}</h1>
      </header>

      {showsContent && topic ? (
        <article aria-labelledby="topic-content-heading" className="card mt-10 p-6 sm:p-10">
          {/* The HTML's own subheadings are h3: this keeps the outline h1 → h2 → h3. */}
          <h2 id="topic-content-heading" className="sr-only">
            About our {title.toLowerCase()} initiative
          </h2>
          <ExpandableText
            html={topic.description}
            lines={BLOCKCHAIN_COLLAPSED_LINES}
            contentClassName="prose-html text-lg leading-relaxed text-muted [&_strong]:text-fg"
          />
        </article>
      ) : (
        <ComingSoonPanel label={web3ComingSoon.badge} heading={web3ComingSoon.badge}>
          <p className="mt-3 max-w-md text-lg text-muted">{web3ComingSoon.text}</p>
        </ComingSoonPanel>
      )}
    </div>
  );
}
