import { lazy, Suspense } from 'react';
import { Loading } from 'react-admin';

const DesignerScreen = lazy(() => import('./DesignerScreen'));

/** The designer (formsDoc), loaded on demand: it and its drag-and-drop library stay out of the first bundle. */
export function LazyDesignerScreen() {
  return (
    <Suspense fallback={<Loading />}>
      <DesignerScreen />
    </Suspense>
  );
}
