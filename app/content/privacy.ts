/**
 * The privacy policy at /privacy (issue #16), and the notice under each lead form. Sample copy:
 * an operator reviews it with their counsel and replaces it. The facts it names (legal name,
 * address, data-requests address, mail provider, supervisory authority, log retention) come from
 * `site.legal` in app/content/site.ts; the figures (LEAD_RETENTION_DAYS, the rate limit and its
 * window, REFERENCE_TTL_DAYS) from the server's configuration, so the page cannot drift from
 * what the site does. Keep it true: each section says what the code in app/.server does
 * (ADR 0107 for storage and erasure, ADR 0095 for the receipt, ADR 0071 for the rate limit,
 * ADR 0098 for the shortlist).
 *
 * `{name}` placeholders are filled by app/features/legal/legal-document.tsx; `{dataEmail}`,
 * `{contactEmail}` and `{authority}` become links.
 */

export interface LegalPoint {
  title: string;
  body: string;
}

export interface LegalSection {
  id: string;
  title: string;
  paragraphs: readonly string[];
  /** Titled points after the paragraphs (a list). */
  points?: readonly LegalPoint[];
  /** Paragraphs after the points. */
  after?: readonly string[];
}

export const privacyPage = {
  title: "Privacy policy",
  subtitle: "What we collect when you use this site, why, how long we keep it, who else sees it, and how to get a copy or have it erased.",
  metaDescription:
    "How Northbeat Media handles your data: the contact and licensing forms, the receipt e-mail, rate-limit counts, the shortlist kept in your browser, server logs, retention periods and your rights.",
  /** The date of the last change to this policy (shown at the top and the end of the page). */
  lastChanged: "24 November 2026",
} as const;

export const privacySections: readonly LegalSection[] = [
  {
    id: "who-we-are",
    title: "Who we are",
    paragraphs: [
      "This site is run by {legalName}, {postalAddress} (\u201cwe\u201d). We decide what happens to the data described here: in the words of the EU and UK General Data Protection Regulation (GDPR), we are its controller.",
      "For anything about your data, write to {dataEmail}. For everything else, {contactEmail}.",
      "We use no cookies, no analytics, no advertising and no tracking. Pages, fonts and images come from our own server only.",
    ],
  },
  {
    id: "forms",
    title: "The contact and licensing forms",
    paragraphs: [
      "You choose what to send us. Each form sends its fields to our team as an e-mail, and we use them only to answer you and, for a licensing inquiry, to prepare an offer.",
    ],
    points: [
      {
        title: "General Contact",
        body: "Fields: {contactFields}. Why: to answer your message. Legal basis: our legitimate interest in answering the people who write to us (GDPR Art. 6(1)(f)).",
      },
      {
        title: "Sync Licensing",
        body: "Fields: {licensingFields}. Why: to answer your inquiry and prepare a license at your request. Legal basis: steps you asked us to take before a possible contract (GDPR Art. 6(1)(b)).",
      },
      {
        title: "Stored with each message",
        body: "The time it was sent, which form, its delivery status and the IP address of the device that sent it (to investigate abuse). A hidden field that people leave empty and a one-time form key (so a double click sends one message) hold nothing about you.",
      },
    ],
    after: [
      "A message is first stored in our database and then e-mailed to our team, so it is not lost if the mail service is briefly down.",
    ],
  },
  {
    id: "receipt",
    title: "The receipt e-mail",
    paragraphs: [
      "Once your message is stored, we send a short receipt to the e-mail address you gave: your reference number (for example NB-000042), when to expect our answer, how long we keep your message and how to reach us. It contains nothing you typed, not even your name.",
      "We send at most one receipt to an address per hour. To count that, we keep a one-way code computed from the address (not the address itself) for one hour, then delete it.",
    ],
  },
  {
    id: "rate-limit",
    title: "Counting form submissions",
    paragraphs: [
      "To stop floods of automated messages, we count how many forms each client sends: at most {rateLimit} per {rateWindow}. A client is the IP address of the device (for IPv6, the /64 network it belongs to, which is usually one household or office).",
      "The count is kept in our server's memory or in our database for {rateWindow}, then deleted. IP addresses are never written to our logs: when the limit is reached, the log holds a short one-way code of the network instead.",
    ],
  },
  {
    id: "shortlist",
    title: "Your shortlist stays in your browser",
    paragraphs: [
      "When you add an album, single or track to your shortlist, your browser stores it in its local storage for this site (under the name \u201cnorthbeat:shortlist\u201d): each item's catalog number, title, artist, album and picture address. It never leaves your browser and we never see it.",
      "If you share your shortlist, its link carries the items' catalog numbers, and whoever opens it sends those numbers to our server like any page address. Nothing else about you is in the link.",
      "To clear it, remove the items on the shortlist page, or clear this site's data in your browser's settings. The site also keeps its own pages and files in your browser's cache so it works offline; that cache holds nothing about you.",
    ],
  },
  {
    id: "reference-analysis",
    title: "Searching by a sound you upload",
    paragraphs: [
      "If you upload an audio file to find catalog tracks that sound like it, our server analyses the file and deletes it as soon as the analysis ends, whatever its outcome: the audio is never kept. What we keep is its fingerprint (a few hundred numbers that describe its sound, overall and every 10 seconds, and cannot be turned back into audio), its length, tempo and key, the part of it we compared, an outline of its loudness over time (100 numbers, to draw its waveform; it cannot be played), and the file's name, so that the results page can be opened again and show what we heard. Anyone you give that page's link to sees the same results, these figures and the file's name.",
      "They are kept for {referenceTtlDays} days; after that the link no longer works and they are deleted at the next clean-up. Uploads are counted like form submissions: at most {referenceRateLimit} files compared per {referenceRateWindow} from one client, and apart from those at most {referenceRefusedRateLimit} files we could not use (not audio, empty, silent, too short), counts kept only for that time.",
    ],
  },
  {
    id: "logs",
    title: "Server logs",
    paragraphs: [
      "For every request our server logs the time, the method, the page address, the answer's status and how long it took, to keep the site running and find faults. Form fields, search words and other values that could name you are removed from the logged addresses, and the logs hold no names, e-mail addresses, phone numbers, companies, messages or IP addresses. Logs are kept for {logDays} days.",
    ],
  },
  {
    id: "retention",
    title: "How long we keep it",
    paragraphs: [],
    points: [
      {
        title: "Your message",
        body: "{retentionDays} days after it reached our team. Then its personal data (name, e-mail address, company, message, every other field and the IP address) is erased from our database; what remains is an anonymous record (its number, which form, its dates and status), so your reference still works but no longer leads to you.",
      },
      {
        title: "A message we could not deliver",
        body: "Kept until it is delivered, or until we erase it, which we do on request or once we have answered you another way.",
      },
      {
        title: "The e-mail in our team's mailbox",
        body: "Kept while we work on your request, and {mailboxRetention}.",
      },
      { title: "A sound you upload", body: "The audio: not kept. Its fingerprint, length, tempo, key, waveform outline and file name: {referenceTtlDays} days." },
      { title: "Receipt counts", body: "One hour." },
      { title: "Form submission counts", body: "{rateWindow}." },
      { title: "Your shortlist", body: "In your browser, until you remove it." },
      { title: "Server logs", body: "{logDays} days." },
    ],
  },
  {
    id: "recipients",
    title: "Who else receives it",
    paragraphs: [
      "Only our own team reads your messages. Two companies handle them for us, under contracts that let them use the data only to provide their service (GDPR Art. 28):",
    ],
    points: [
      { title: "{provider}", body: "Delivers the forms' e-mails and your receipt. Processes them in {providerLocation}." },
      { title: "{host}", body: "Runs our servers and database. Processes the data in {hostLocation}." },
    ],
    after: [
      "When data leaves the European Economic Area or the United Kingdom, the transfer is covered by {safeguard}. We are based in the United States, so our team reads your message there under the same safeguards. We never sell your data or share it for advertising.",
    ],
  },
  {
    id: "rights",
    title: "Your rights and how to use them",
    paragraphs: [
      "You can ask us for a copy of the data we hold about you (access, and portability as a machine-readable file), to correct it (rectification), to erase it (erasure), to stop using it while a question is settled (restriction), or object to our using it (objection). You can also complain to a supervisory authority: ours is {authority}, and you may complain to the authority of the country where you live or work.",
      "To use a right, write to {dataEmail} from the e-mail address you used in the form, and quote your reference (it is in your receipt, for example NB-000042). We find every message sent with that address, answer within one month, and tell you what we did. We may ask you to confirm the request from that address before we hand over or erase anything.",
    ],
  },
  {
    id: "changes",
    title: "Changes to this policy",
    paragraphs: [
      "When we change how we handle your data, we update this page first and change the date below. If a change affects messages you already sent, we tell you at the address you gave.",
    ],
  },
];

/**
 * The notice under each lead form, before its Submit button (issue #16, GDPR Art. 13): who
 * receives the message, why, on what basis, who processes it for us, how long it is kept, and
 * the link to the policy. {company}, {provider} and {retentionDays} are filled in by the form.
 */
export const formPrivacyNotice = {
  text: "Your message goes to the {company} team, who use it only to answer your request; that is our reason and legal basis for using it. {provider} delivers it to us by e-mail. We keep it for {retentionDays} days after it reaches us, then erase your details.",
  link: "Read our privacy policy",
} as const;
