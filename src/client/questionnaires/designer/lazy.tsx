import { lazy, Suspense } from 'react';
import {  } from 'react-admin';
import { loadPatternEngine } from '../../../shared/questionnaire/pattern';
import { Loading } from '../../common/Loading';

// with the pattern engine, which the designer's checks and the RuleEditor use (also fetched on demand)
const DesignerScreen = lazy(() => Promise.all([import('./DesignerScreen'), loadPatternEngine()]).then(([screen]) => screen));

/** The designer (formsDoc), loaded on demand: it and its drag-and-drop library stay out of the first bundle. */
export function LazyDesignerScreen() {
  return (
    <Suspense fallback={<Loading />}>
      <DesignerScreen />
    </Suspense>
  );
}
