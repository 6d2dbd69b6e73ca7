import type { Route } from "./+types/board";
import { boardMembers, boardPage } from "~/content/board";
import { editorial } from "~/content/editorial";
import { BoardMemberCard } from "~/features/story/board-member-card";
import { PageHeader } from "~/features/story/page-header";
import { TrustedHtml } from "~/features/story/trusted-html";
import { seo } from "~/lib/seo";
import { documentPage, loadAsDocument } from "~/lib/static-pages";

// ADR 0083: served as a document, without React on the client.
export const handle = documentPage;
export const clientMiddleware = [loadAsDocument];

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(
    {
      title: "The Board",
      description:
        "Meet the six board members guiding our music, film and creator-distribution platforms — their roles, backgrounds and expertise.",
      path: "/board",
    },
    matches,
  );

export default function BoardPage() {
  return (
    <>
      <PageHeader eyebrow="Leadership" title={boardPage.title} subtitle={boardPage.subtitle} />

      <section aria-labelledby="members-title" className="mx-auto max-w-6xl px-5 pb-12 sm:px-8">
        <h2 id="members-title" className="sr-only">
          Board members
        </h2>
        <ul className="grid gap-5 md:grid-cols-2 lg:grid-cols-3">
          {boardMembers.map((member) => (
            <li key={member.name}>
              <BoardMemberCard member={member} />
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="join-board-title" className="mx-auto max-w-6xl px-5 pt-4 pb-12 sm:px-8 sm:pb-20">
        <div className="card relative overflow-hidden bg-[linear-gradient(120deg,rgb(255_122_69/0.12),rgb(139_92_246/0.14))] p-7 sm:p-10">
          <h2 id="join-board-title" className="section-title">
            {editorial.board.title}
          </h2>
          <TrustedHtml html={editorial.board.html} className="mt-2 max-w-2xl text-lg text-[#dcdce8]" />
        </div>
      </section>
    </>
  );
}
