import { Tab, Tabs } from '@mui/material';
import { useTranslate } from '../../i18n/translate';

export type DesignerView = 'questions' | 'translations';

/** What the area a tab shows carries, to be named by its tab. */
export const viewPanelProps = (view: DesignerView) => ({ role: 'tabpanel', id: `dv-panel-${view}`, 'aria-labelledby': `dv-tab-${view}` });

/**
 * The designer's two views of a questionnaire in two languages: its questions (written in the
 * main language) and their translations, the second saying how many are missing.
 */
export function ViewTabs({ view, onChange, missing }: { view: DesignerView; onChange: (view: DesignerView) => void; missing: number }) {
  const translate = useTranslate();
  return (
    <Tabs
      value={view}
      onChange={(_, v: DesignerView) => onChange(v)}
      aria-label={translate('qe.designer.view.label')}
      variant="fullWidth"
      sx={{ mb: 2, borderBottom: 1, borderColor: 'divider', '@media (min-width:600px)': { maxWidth: 480 } }}
      data-testid="designer-views"
    >
      <Tab value="questions" id="dv-tab-questions" aria-controls="dv-panel-questions" label={translate('qe.designer.view.questions')} data-testid="view-questions" />
      <Tab
        value="translations"
        id="dv-tab-translations"
        aria-controls="dv-panel-translations"
        label={missing ? translate('qe.designer.view.translationsMissing', { smart_count: missing }) : translate('qe.designer.view.translations')}
        data-testid="view-translations"
      />
    </Tabs>
  );
}
