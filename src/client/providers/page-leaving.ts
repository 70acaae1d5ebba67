// While the page unloads the browser aborts its calls; such a failure is no news (and must not
// log anyone out), so those calls are left unanswered.
let leaving = false;

/** Whether the page is being left: a failed call now is the unload's doing. */
export const isLeaving = () => leaving;

/** A promise that never settles: the answer to a call the unload cut off. */
export const unanswered = () => new Promise<never>(() => undefined);

if (typeof window !== 'undefined') {
  window.addEventListener('beforeunload', (e) => {
    leaving = true;
    // a screen with unsaved changes may ask first ('discard unsaved content?'): kept, the page is not leaving
    setTimeout(() => {
      if (e.defaultPrevented) leaving = false;
    });
  });
  window.addEventListener('pagehide', () => (leaving = true));
  window.addEventListener('pageshow', () => (leaving = false));
}
