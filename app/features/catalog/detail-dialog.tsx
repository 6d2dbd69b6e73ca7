import { Sheet, SheetContent, SheetDescription, SheetTitle } from "~/components/ui/sheet";
import type { CatalogDetailData } from "~/lib/catalog/cards";
import { AlbumSheetBody, SheetHeadingsContext, SingleSheetBody, type SheetHeadings } from "./detail-sheet";

const dialogHeadings: SheetHeadings = { Title: SheetTitle, Description: SheetDescription };

/**
 * The album / single sheet as a Radix dialog (portal, focus trap, Esc, focus return). Its own
 * module, loaded on demand by detail-sheet.tsx (ADR 0147), so Radix is not in the catalog's
 * first load.
 */
export default function DetailDialog({
  detail,
  closeHref,
  onClose,
  onCloseAutoFocus,
}: {
  detail: CatalogDetailData;
  closeHref: string;
  onClose: () => void;
  onCloseAutoFocus: (event: Event) => void;
}) {
  return (
    <Sheet open onOpenChange={(open) => (open ? undefined : onClose())}>
      <SheetContent onCloseAutoFocus={onCloseAutoFocus} data-detail-kind={detail.kind} className="[&>*]:shrink-0">
        <SheetHeadingsContext value={dialogHeadings}>
          {detail.kind === "album" ? <AlbumSheetBody album={detail} from={closeHref} /> : <SingleSheetBody single={detail} from={closeHref} />}
        </SheetHeadingsContext>
      </SheetContent>
    </Sheet>
  );
}
