import type { Ref } from 'react';
import { Alert, AlertTitle, Box, Link } from '@mui/material';
import { useTranslate } from '../../i18n/translate';
import { describePath } from './problems';

/** A problem to list: where, what, and the question it is in (to scroll to). */
export interface Listed {
  path: string;
  text: string;
  questionId?: string;
}

/**
 * The designer's list of problems above the questions: each by place (a link to its question
 * where it is in one: `onGo`) and what is wrong, the first ten of them. `ref` lets the designer bring it
 * into sight and focus it (read out again by a screen reader).
 */
export function ProblemSummary({ listed, checked, sizes, onGo, ref }: { listed: Listed[]; checked: boolean; sizes: number[]; onGo: (questionId: string) => void; ref: Ref<HTMLDivElement> }) {
  const translate = useTranslate();
  return (
    <Alert severity="error" ref={ref} tabIndex={-1} sx={{ mb: 2, scrollMarginTop: 72 }} data-testid="designer-problems">
      <AlertTitle>{translate('qe.designer.problemSummary', { smart_count: listed.length })}</AlertTitle>
      {checked && <Box sx={{ mb: 0.5 }}>{translate('qe.designer.fixFirst', { smart_count: listed.length })}</Box>}
      <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
        {listed.slice(0, 10).map((p, i) => (
          <li key={i}>
            {p.questionId ? (
              <Link
                component="button"
                type="button"
                onClick={() => onGo(p.questionId!)}
                sx={{ textAlign: 'left', verticalAlign: 'baseline' }}
              >
                {describePath(translate, p.path, sizes)}
              </Link>
            ) : (
              describePath(translate, p.path, sizes)
            )}
            {': '}
            {p.text}
          </li>
        ))}
      </Box>
      {listed.length > 10 && translate('qe.designer.moreProblems', { smart_count: listed.length - 10 })}
    </Alert>
  );
}
