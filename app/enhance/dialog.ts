/**
 * Modal dialogs on document pages (ADR 0083): a server-rendered <dialog>, opened by a button
 * with `commandfor` / `command="show-modal"`. Browsers with invoker commands open it with no
 * script at all; for the others this wires the same button. The platform gives the rest:
 * focus moves in (to the autofocus Close button), Tab stays in the top layer, Esc closes,
 * focus returns to the button, and the page behind is inert.
 */
export function enhanceDialogs(doc: Document = document): void {
  const nativeCommands = "command" in HTMLButtonElement.prototype;
  for (const trigger of doc.querySelectorAll<HTMLButtonElement>("button[commandfor][command=show-modal]")) {
    const dialog = doc.getElementById(trigger.getAttribute("commandfor")!);
    if (!(dialog instanceof HTMLDialogElement)) continue;
    if (!nativeCommands) trigger.addEventListener("click", () => dialog.open || dialog.showModal());
  }
  for (const dialog of doc.querySelectorAll<HTMLDialogElement>("dialog[data-modal]")) {
    dialog.addEventListener("click", (event) => {
      // A click on the backdrop reaches the <dialog> itself, outside its box.
      if (event.target === dialog) {
        const box = dialog.getBoundingClientRect();
        const inside =
          event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
        if (!inside) dialog.close();
        return;
      }
      // Choosing a link (product-rules §4 "Podcasts dialog") follows it and closes the dialog.
      if (event.target instanceof Element && event.target.closest("a[href]")) dialog.close();
    });
  }
}
