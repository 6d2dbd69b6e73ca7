/**
 * The accessibility statement at /accessibility (issue #11, DESIGN.md §3b). Keep it true: the
 * testing it describes is tests/e2e/accessibility.test.ts (axe on every route) and the
 * keyboard walks of the other e2e files; a limitation fixed is a line removed here.
 */

export interface StatementSection {
  id: string;
  title: string;
  paragraphs: readonly string[];
  /** Points, after the paragraphs. */
  points?: readonly { title: string; body: string }[];
}

export const accessibilityPage = {
  title: "Accessibility statement",
  subtitle: "We want every visitor to be able to browse the catalog, read about us and reach us, whatever the device or assistive technology.",
  metaDescription:
    "How Northbeat Media makes its website accessible: the standard we follow (WCAG 2.2 AA), how we test it, the limitations we know of, and how to report a problem.",
  /** When the statement was last reviewed (shown at the end of the page). */
  reviewed: "23 November 2026",
  report: {
    title: "Report a problem",
    /** {email} is the contact mailbox; the mail link's subject is `mailSubject`. */
    body: "If something on this site is hard or impossible for you to use, tell us at {email}. Say which page, what you were trying to do, and the browser or assistive technology you use. We answer within 24 hours and, if you need it, send you the information in another format.",
    mailSubject: "Accessibility problem",
    contactForm: "You can also use the contact form.",
  },
} as const;

export const statementSections: readonly StatementSection[] = [
  {
    id: "standard",
    title: "The standard we follow",
    paragraphs: [
      "We aim to meet the Web Content Accessibility Guidelines (WCAG) 2.2 at level AA on every page of this site.",
      "Every page works with a keyboard alone, shows where the focus is, and has landmarks and headings that name its parts. Images have text alternatives, or are marked as decoration when the text beside them says the same. Animations calm down when your system asks for reduced motion, and the contact forms also work without JavaScript.",
    ],
  },
  {
    id: "testing",
    title: "How we test",
    paragraphs: [
      "Every change to the site runs our automated tests in Chromium before it is released:",
    ],
    points: [
      {
        title: "axe on every route and state",
        body: "The axe-core checker runs on every page at phone (390 px) and desktop (1280 px) widths with its WCAG 2.0, 2.1 and 2.2 A and AA rules, and with its WCAG 2.0 and 2.1 rules on the states a visitor can reach: the open menu and dialogs, forms showing their error messages, the album details sheet, notifications.",
      },
      {
        title: "Keyboard-only walks",
        body: "Tests walk the navigation menu, the catalog, the album sheet and its preview, the podcast dialog, the board and the contact forms with the keyboard alone, and check that focus is visible, never lost and never lands on a disabled control.",
      },
      {
        title: "The accessibility tree",
        body: "Tests find controls by their role and accessible name, as assistive technology does, so a control without a name or with the wrong role fails the test.",
      },
    ],
  },
  {
    id: "limitations",
    title: "Known limitations",
    paragraphs: ["We know of these gaps, and are working on them:"],
    points: [
      {
        title: "No testing with people who use assistive technology yet",
        body: "Our tests read the browser's accessibility tree. We have not yet run sessions with people who use screen readers (NVDA, JAWS, VoiceOver, TalkBack), switch access or voice control.",
      },
      {
        title: "Catalog texts in other languages",
        body: "Album, track and film names come from our distribution partners in many languages, and are not marked with their language. A screen reader reads them with an English voice.",
      },
      {
        title: "Cover artwork is not described",
        body: "Album, single and film covers carry no description of the picture; the name and artist next to each cover are its text.",
      },
      {
        title: "High-contrast modes",
        body: "The site has one dark design. It is not yet tested in Windows high-contrast (forced colours) mode, and it has no light version; only notifications follow your system's light or dark setting.",
      },
      {
        title: "Sites we link to",
        body: "Partner sites, social networks and the meeting booking calendar are run by others, and this statement does not cover them.",
      },
    ],
  },
];
