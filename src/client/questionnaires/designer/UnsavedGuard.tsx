import { useEffect } from 'react';
import { useBlocker } from 'react-router-dom';
import { Confirm } from 'react-admin';

/**
 * Unsaved changes are not lost silently: leaving the screen inside the app asks 'discard unsaved
 * content?' (react-router's blocker: the app runs on a data router), closing or reloading the tab
 * gets the browser's own warning.
 */
export function UnsavedGuard({ dirty }: { dirty: boolean }) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search));
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = true;
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  useEffect(() => {
    // saved meanwhile: let the waiting navigation go on
    if (!dirty && blocker.state === 'blocked') blocker.proceed();
  }, [dirty, blocker]);
  return (
    <Confirm
      isOpen={blocker.state === 'blocked'}
      title="qe.confirm.title"
      content="qe.confirm.discard"
      confirm="qe.designer.discard"
      confirmColor="warning"
      onConfirm={() => blocker.proceed?.()}
      onClose={() => blocker.reset?.()}
    />
  );
}
