import { ArrowLeft } from "~/components/ui/icons/arrow-left";
import { Link } from "~/components/ui/link";
import { Button } from "~/components/ui/button";

/** "Back to …" at the top of a sub-page (partner directories, Web3 topics). */
export function BackLink({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <Button asChild variant="secondary" size="sm">
      <Link to={to}>
        <ArrowLeft aria-hidden="true" />
        {children}
      </Link>
    </Button>
  );
}
