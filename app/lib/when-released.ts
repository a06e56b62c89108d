/** What ends a press, wherever the pointer is by then (listened to on `window`, capture). */
const RELEASES = ["pointerup", "pointercancel", "mouseup", "touchend", "touchcancel"] as const;

/** How often a press is looked at again when no release event came (a lost pointerup). */
const RECHECK_MS = 250;

/** How long after a release its click may come (Chromium: a separate event after touchend). */
const CLICK_WAIT_MS = 100;

/** Whether the visitor is holding a pointer down on `element` or on something inside it. */
export function isPressed(element: Element | null): boolean {
  if (!element?.isConnected) return false;
  return element.matches(":active") || element.querySelector(":active") !== null;
}

/**
 * Runs `run` in a task of its own once no pointer is down on `element` and the release's click
 * was dispatched: a control replaced between press and release is clicked by no one, so `run`
 * commits its swap in that task (flushSync). The press may predate the JavaScript, so it is read
 * from the page (`:active`). Returns a cancel.
 */
export function whenReleased(element: Element | null, run: () => void): () => void {
  let cancelled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stopListening = () => {
    for (const type of RELEASES) window.removeEventListener(type, onRelease, true);
    window.removeEventListener("click", onClick, true);
    clearTimeout(timer);
  };
  const checkIn = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(check, ms);
  };
  const check = () => {
    if (cancelled) return;
    if (isPressed(element)) return checkIn(RECHECK_MS);
    stopListening();
    run();
  };
  const onRelease = () => checkIn(CLICK_WAIT_MS);
  // In the next task: after the click has been handled, by the element it was meant for.
  const onClick = () => checkIn(0);
  for (const type of RELEASES) window.addEventListener(type, onRelease, true);
  window.addEventListener("click", onClick, true);
  checkIn(0);
  return () => {
    cancelled = true;
    stopListening();
  };
}
