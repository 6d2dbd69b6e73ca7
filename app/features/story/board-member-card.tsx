import { hasProfileLink, type BoardMember } from "~/content/board";
import { ExternalLink } from "./external-link";
import { LinkedInMark } from "./linkedin-mark";

const chipClass =
  "inline-flex min-h-10 items-center gap-2 rounded-full border px-4 text-sm font-semibold transition-colors";

/**
 * The member's professional-network link. product-rules §2: "disabled when its value is '#'".
 * A disabled link is not a link at all: an <a> without href has no link role, is not
 * focusable and cannot be activated; aria-disabled and the hidden text say why.
 */
export function ProfileLink({ member }: { member: BoardMember }) {
  const href = member.social.linkedin;
  if (hasProfileLink(href)) {
    return (
      <ExternalLink
        href={href}
        className={`${chipClass} border-[#0a66c2]/60 bg-[#0a66c2]/15 text-[#cfe3ff] hover:bg-[#0a66c2]/30`}
      >
        <LinkedInMark className="size-4" />
        LinkedIn<span className="sr-only"> profile of {member.name}</span>
      </ExternalLink>
    );
  }
  return (
    <a
      aria-disabled="true"
      data-disabled-profile=""
      className={`${chipClass} cursor-not-allowed border-border text-muted opacity-60 select-none`}
    >
      <LinkedInMark className="size-4" />
      LinkedIn<span className="sr-only"> profile of {member.name}: not available</span>
    </a>
  );
}

export function BoardMemberCard({ member }: { member: BoardMember }) {
  return (
    <article className="card flex h-full flex-col p-6 sm:p-7" aria-labelledby={`member-${slug(member.name)}`}>
      <div className="flex items-center gap-5">
        <img
          src={member.image}
          alt={`Portrait of ${member.name}`}
          width={88}
          height={88}
          loading="lazy"
          decoding="async"
          className="size-22 shrink-0 rounded-2xl shadow-[0_12px_30px_-12px_rgb(0_0_0/0.8)] ring-1 ring-white/15"
        />
        <div className="min-w-0">
          <h3 id={`member-${slug(member.name)}`} className="text-xl font-semibold tracking-tight">
            {member.name}
          </h3>
          <p className="mt-1 text-sm font-medium text-[#ffb38f]">{member.role}</p>
        </div>
      </div>
      <p className="mt-5 leading-relaxed text-pretty text-muted">{member.bio}</p>
      <div className="mt-5">
        <h4 className="text-xs font-semibold tracking-[0.16em] text-fg/80 uppercase">Expertise</h4>
        <ul className="mt-3 flex flex-wrap gap-2" aria-label={`Expertise of ${member.name}`}>
          {member.skills.map((skill) => (
            <li key={skill} className="rounded-full bg-white/8 px-3 py-1 text-xs font-medium text-fg">
              {skill}
            </li>
          ))}
        </ul>
      </div>
      <div className="mt-auto pt-6">
        <ProfileLink member={member} />
      </div>
    </article>
  );
}

function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}
