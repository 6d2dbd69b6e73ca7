/**
 * Web3 overview and topics (product-rules §2 "Web3 overview", "Web3 topic", §3 Web3Topic,
 * §9: 3 topics). Descriptions are HTML written by us (trusted content, never user input).
 */

export type Web3TopicId = "blockchain" | "tokenization" | "metadata";

export interface Web3Topic {
  id: Web3TopicId;
  title: string;
  /** HTML for blockchain; "Coming Soon" for the topics still being written. */
  description: string;
  /** lucide icon, resolved by the page */
  icon: "blocks" | "coins" | "tags";
  /** Unavailable topics are flagged "Coming Soon" and not linked as ready. */
  available: boolean;
}

export const web3Page = {
  title: "Web3",
  subtitle: "Explore our blockchain and tokenization initiatives",
} as const;

/** product-rules §2: the topic page of anything but blockchain shows this. */
export const web3ComingSoon = {
  badge: "Coming Soon",
  text: "Content is currently being developed. Check back soon for updates.",
} as const;

/** product-rules §2 "Web3 topic": lines shown before "more..." on /web3/blockchain. */
export const BLOCKCHAIN_COLLAPSED_LINES = 8;

const blockchainHtml = `
<p><strong>Blockchain gives creators a permanent, public record of what they made and who owns it.</strong> For thirty years the music business has run on spreadsheets that artists never see. We think the ledger of who wrote, performed, produced and owns a work should be as open as the work itself.</p>
<p>Our blockchain initiative registers every release distributed through our platforms on a public ledger: the recording, its songwriters and contributors, its splits and the date it was delivered. The record cannot be edited after the fact, so a disputed credit or a missing split can be settled by looking it up, not by a year of e-mails.</p>
<h3>What this means for you</h3>
<ul>
<li><strong>Proof of creation.</strong> A time-stamped fingerprint of your master and artwork, recorded the day you upload.</li>
<li><strong>Transparent splits.</strong> Collaborators see the same split sheet you do, and every statement can be checked against it.</li>
<li><strong>Faster payouts.</strong> Smart contracts pay each rights holder their share as soon as royalties arrive, instead of quarterly.</li>
<li><strong>Portable rights.</strong> Your ownership record travels with your catalogue, whichever distributor or label you work with next.</li>
</ul>
<p>We build on energy-efficient proof-of-stake networks and never ask artists to hold or buy cryptocurrency: wallets are created for you, and royalties are paid in your own currency through your usual payment provider. You can export your on-chain records at any time.</p>
<p>The first releases are being registered now with a group of independent labels. Want your catalogue in the next group? Write to <a href="mailto:web3@example.com">web3@example.com</a>.</p>
`.trim();

export const web3Topics: Web3Topic[] = [
  { id: "blockchain", title: "Blockchain", description: blockchainHtml, icon: "blocks", available: true },
  { id: "tokenization", title: "Tokenization", description: "Coming Soon", icon: "coins", available: true },
  { id: "metadata", title: "Metadata", description: "Coming Soon", icon: "tags", available: false },
];

/** product-rules §2: the featured asset-tokenization partner of the overview page. */
export const featuredTokenizationPartner = {
  name: "Meridian Asset Labs",
  logo: "/assets/web3/meridian-asset-labs.svg",
  eyebrow: "Featured partner",
  heading: "Creative Tokenization for You",
  text: "Together with Meridian Asset Labs, an asset-tokenization platform, we are opening music and film catalogues to fractional ownership. Artists and filmmakers can offer a share of future royalties to their fans and backers, with every token backed by a registered, audited rights record.",
  url: "https://meridian-assets.example.com",
  linkLabel: "Learn more",
} as const;

export function findWeb3Topic(id: string): Web3Topic | undefined {
  return web3Topics.find((t) => t.id === id);
}
