/**
 * Moves focus for keyboard and screen-reader users after the screen changed: to `selector` (the new
 * screen's heading, a step's first field) once it is on the page. Views render their heading only when
 * their data has come, so this waits for it (up to `waitMs`), and gives up if the technician has put
 * focus somewhere themselves in the meantime.
 */
export function focusWhenShown(
  selector: string,
  options: { waitMs?: number; within?: ParentNode; block?: ScrollLogicalPosition } = {},
): void {
  const started = performance.now();
  const startedOn = document.activeElement;
  const attempt = (): void => {
    if (document.activeElement !== startedOn && document.activeElement !== document.body) return;
    const found = (options.within ?? document).querySelector<HTMLElement>(selector);
    if (found) {
      const target = enteredAt(found);
      if (!target.matches('a[href], button, input, select, textarea, [tabindex]'))
        target.setAttribute('tabindex', '-1');
      target.focus({ preventScroll: true });
      scrollInView(target, options.block ?? 'nearest');
      return;
    }
    if (performance.now() - started < (options.waitMs ?? 3000)) requestAnimationFrame(attempt);
  };
  requestAnimationFrame(attempt);
}

/**
 * Where the keyboard enters a field: a group of radio buttons at its checked one, as Tab enters it. On
 * the first option while another is the answer, a screen reader said "Clear, not checked" and Space
 * there changed the answer.
 */
function enteredAt(target: HTMLElement): HTMLElement {
  if (!(target instanceof HTMLInputElement) || target.type !== 'radio' || target.checked || !target.name) return target;
  const scope: ParentNode = target.form ?? target.ownerDocument;
  return (
    scope.querySelector<HTMLInputElement>(`input[type="radio"][name="${CSS.escape(target.name)}"]:checked`) ?? target
  );
}

/** The first field of a step form a technician can type in, else the step's heading. */
export const STEP_FOCUS = '[data-testid="step-form"] :is(input:not([type=hidden]), select, textarea):not(:disabled)';

/**
 * Scrolls `target` into view. In run mode's step pane (`.session-scroll`) only the pane moves: the
 * browser's own scrollIntoView moved the page too when the pane could not, and the session's header went
 * 19 px up under the window's top, its title cut, a blank strip under the step bar (found at 1024x600 with
 * Larger text, a number refused on a long step).
 */
export function scrollInView(target: HTMLElement, block: ScrollLogicalPosition = 'nearest'): void {
  const pane = target.closest<HTMLElement>('.session-scroll');
  if (!pane) {
    target.scrollIntoView({ block });
    return;
  }
  const [box, room] = [target.getBoundingClientRect(), pane.getBoundingClientRect()];
  const by =
    block === 'center'
      ? box.top + box.height / 2 - (room.top + room.height / 2)
      : block === 'start'
        ? box.top - room.top
        : block === 'end'
          ? box.bottom - room.bottom
          : box.top < room.top
            ? box.top - room.top
            : box.bottom > room.bottom
              ? Math.min(box.bottom - room.bottom, box.top - room.top)
              : 0;
  pane.scrollTop += by;
}
