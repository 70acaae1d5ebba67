import { useEffect, type RefObject } from 'react';
import { useBlocker } from 'react-router-dom';
import { Confirm } from 'react-admin';

/**
 * The warning before leaving an unfinished questionnaire (docs/product-rules.md#states): while there are answers not
 * sent yet, leaving the screen inside the app asks first — press Submit if complete, nothing can be
 * edited after submission — and closing or reloading the tab gets the browser's own warning.
 * `passRef` lets a navigation through that the screen makes itself (after a successful submit).
 */
export function LeaveGuard({ unsent, passRef }: { unsent: boolean; passRef: RefObject<boolean> }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      unsent && !passRef.current && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  useEffect(() => {
    if (!unsent) return;
    const warn = (e: BeforeUnloadEvent) => {
      if (passRef.current) return;
      e.preventDefault();
      e.returnValue = true;
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsent, passRef]);
  useEffect(() => {
    // sent meanwhile: let the waiting navigation go on
    if (!unsent && blocker.state === 'blocked') blocker.proceed();
  }, [unsent, blocker]);
  return (
    <Confirm
      isOpen={blocker.state === 'blocked'}
      title="qe.filling.leave.title"
      content="qe.filling.leave.body"
      confirm="qe.filling.leave.confirm"
      cancel="qe.filling.leave.stay"
      confirmColor="warning"
      onConfirm={() => blocker.proceed?.()}
      onClose={() => blocker.reset?.()}
    />
  );
}
