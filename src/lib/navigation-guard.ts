/**
 * Refuses every navigation of the app's window away from its document that the page itself starts: a
 * `<meta http-equiv=refresh>`, a change of `location` or a form in content the app shows (a site's quiz
 * or guide) could otherwise send the window to another site, or back to the app with another address.
 * The router moves within the document (the history API), which stays; links open in a new window
 * (lib/sanitize.ts), which is not this window's navigation; what the technician does in the browser's own
 * bar is not the page's to refuse. The Electron shell refuses the same in main (`will-navigate`). A download
 * of bytes the app made itself (a `blob:` address of its own origin: a conflict's photo saved as a copy) is
 * no navigation away and goes; refused, the "Save a copy" button did nothing.
 */
export function refuseNavigation(target: Window = window): void {
  target.navigation?.addEventListener('navigate', (event) => {
    if (event.destination.sameDocument) return;
    if (event.downloadRequest !== null && event.destination.url.startsWith(`blob:${location.origin}/`)) return;
    if (event.cancelable) event.preventDefault();
  });
}
