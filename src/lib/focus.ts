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
      target.scrollIntoView({ block: options.block ?? 'nearest' });
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
