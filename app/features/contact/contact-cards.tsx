import { Handshake } from "~/components/ui/icons/handshake";
import { Mail } from "~/components/ui/icons/mail";
import { MessageCircle } from "~/components/ui/icons/message-circle";
import { Music } from "~/components/ui/icons/music";
import { Users } from "~/components/ui/icons/users";
import { contactCards, type ContactCard } from "~/content/contact";
import { site } from "~/content/site";
import { mailtoHref } from "~/lib/mailto";

const ICONS: Record<ContactCard["icon"], typeof Mail> = {
  "message-circle": MessageCircle,
  music: Music,
  users: Users,
  handshake: Handshake,
};
const COLORS = ["#ff7a45", "#e23a7a", "#8b5cf6", "#22c3a6"];

/** product-rules §2: four cards, each a mail link to the one contact mailbox, subject = subtitle. */
export function ContactCards() {
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {contactCards.map((card, i) => {
        const Icon = ICONS[card.icon];
        return (
          <li key={card.title}>
            <a
              href={mailtoHref(site.contactEmail, { subject: card.subtitle })}
              className="card group flex h-full flex-col gap-4 p-6 transition-[border-color,transform] duration-150 hover:-translate-y-0.5 hover:border-[#4a4a66]"
            >
              <span
                aria-hidden="true"
                className="grid size-12 place-items-center rounded-2xl"
                style={{ background: `${COLORS[i]}22`, color: COLORS[i] }}
              >
                <Icon className="size-6" />
              </span>
              <span className="flex flex-col gap-1">
                <span className="text-lg font-semibold text-fg">{card.title}</span>
                <span className="text-sm text-muted">{card.subtitle}</span>
              </span>
              <span className="mt-auto inline-flex items-center gap-1.5 text-sm font-medium text-[#ffb38f] group-hover:underline">
                <Mail aria-hidden="true" className="size-4" />
                {site.contactEmail}
              </span>
            </a>
          </li>
        );
      })}
    </ul>
  );
}
