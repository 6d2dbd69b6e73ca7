/**
 * Editorial HTML blocks (product-rules §2 "Home": "Editorial HTML blocks also exist").
 * The spec names the page only for some of them; the others are kept here, typed and
 * ready, for the page that adopts them (catalog intro → /catalog, podcasts → /podcasts).
 *
 * Every `html` value is TRUSTED markup written in this file. Components render it with
 * dangerouslySetInnerHTML; nothing from a request, a query or upstream data may ever be
 * placed in these strings.
 */
import { site } from "./site";

export interface EditorialBlock {
  title: string;
  html: string;
}

const mail = (address: string, subject?: string) =>
  `<a href="mailto:${address}${subject ? `?subject=${encodeURIComponent(subject)}` : ""}">${address}</a>`;

export const editorial = {
  catalogIntro: {
    title: "Our Catalog",
    html: `<p>Explore more than 25,000 tracks from independent artists in over 150 countries — from Afro house and bossa nova to film scores and meditation music. Every release in our catalog is cleared for <strong>sync licensing</strong> in film, TV, commercials, games and venues.</p><p>Found the sound you need? Send a licensing request from our <a href="/contact">contact page</a> and our team will reply within 1-2 business days.</p>`,
  },

  founderWelcome: {
    title: "Welcome from the Founder",
    html: `<p>When I started out, a record deal was the only road to an audience — and it usually cost the artist their masters. After 30 years in the music business, I founded ${site.companyName} to build a different road: free global distribution, honest accounting and AI tools that work for the creator.</p><p>Innovation, for us, is not a buzzword. It is the steady work of removing every obstacle between a creator and the people who will love what they make. Welcome. I am glad you are here.</p><p>— ${site.founderName}</p>`,
  },

  missionAndVision: {
    title: "Mission & Vision",
    html: `<p>Our mission is to give independent creators the reach, tools and transparency that were once reserved for the largest companies in entertainment — at zero cost.</p>
<h3>Music Distribution</h3><p>Free, AI-driven distribution to the world's stores, with mastering, artwork and marketing tools, weekly store notifications and monthly royalty statements.</p>
<h3>Film Distribution</h3><p>AI quality control, subtitles and trailers for independent filmmakers, with real-time statements and instant payouts.</p>
<h3>Content-Management Network</h3><p>Content-identification protection, higher ad rates and pass-through payments for monetized channels with original content.</p>
<h3>White Label</h3><p>A fully branded distribution platform for labels and agencies, in music and in film.</p>
<h3>The Vision</h3><p>A world where every creator owns their work, understands their earnings and can reach any audience on Earth — and where technology is the partner that makes it possible.</p>`,
  },

  board: {
    title: "Joining the Board",
    html: `<p>Membership of our board is mainly by invitation. We look for leaders from music, film, technology and finance who put independent creators first.</p><p>If that describes you and you would like to contribute, write to us at ${mail(site.contactEmail, "Board")}.</p>`,
  },

  musicDistribution: {
    title: "Music Distribution",
    html: `<p>Release your music to every major streaming service and store worldwide, free. Our AI mixes, masters and designs your artwork, then launches a promotional campaign on release day. You receive weekly notifications of the stores that carry your music, analytics and promo links, and a monthly royalty statement.</p><p>We register your works with performing-rights organisations and mechanical rights societies automatically, and US artists also get copyright registration.</p>`,
  },

  filmDistribution: {
    title: "Film Distribution",
    html: `<p>Upload your film and let our AI check the deliverables: it reports missing captions or subtitles and formatting errors, generates English subtitles for non-English films and can cut a trailer. We submit your film to our partners, connect it to your social media and pay you out instantly through your preferred online payment provider, with real-time royalty statements.</p>`,
  },

  contentManagementNetwork: {
    title: "Content-Management Network",
    /** product-rules §2: "a content-management-network text with an external apply link". */
    applyUrl: "https://cms.example.com/apply",
    html: `<p>Our certified content-management network protects your uploads with automated content identification, opens higher ad rates and passes payments straight through to you. We accept channels that are already monetized and publish original content.</p><p><a href="https://cms.example.com/apply" target="_blank" rel="noopener noreferrer">Apply to join the network</a> (opens in a new tab).</p>`,
  },

  whiteLabel: {
    title: "White Label",
    html: `<p>Run distribution as your own business, under your brand and your domain.</p>
<h3>Music</h3><p>Labels and management agencies offer their artists a complete distribution service: the artists create their own accounts, upload and track their releases, while you control earnings, statements and analytics.</p>
<h3>Film</h3><p>Distributors and production companies give their filmmakers the same AI-powered delivery, subtitles and reporting, with your brand on every screen.</p>`,
  },

  investors: {
    title: "Investing in Creators",
    html: `<p>${site.companyName} is building the infrastructure for a creator-owned entertainment industry: free distribution, AI production tools and transparent, tokenized royalties across music, film and video. Our investor program is invitation-only.</p>`,
  },

  podcasts: {
    title: "Our Podcasts",
    html: `<p>We host three podcast shows about the craft and the business of independent creativity. Guests book a slot through the links under each show — we would love to hear your story.</p>`,
  },

  innovationLeadership: {
    title: "Innovation Leadership",
    html: `<p>We lead by shipping: AI mastering, automated subtitles, content-identification protection and creative tokenization were each offered to independent creators by ${site.companyName} first, free of charge. Every new tool is tested with our artists before it is released to all.</p>`,
  },
} satisfies Record<string, EditorialBlock & { applyUrl?: string }>;
