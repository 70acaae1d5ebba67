import { useEffect, useState } from 'react';
import { useLocale, useNotify } from 'react-admin';
import type { Questionnaire, Target } from '../../shared/questionnaire/types';
import { useTranslate } from '../i18n/translate';
import { questionnaireApi } from '../questionnaires/form/api';
import type { AudienceValue } from './AudienceKindInput';
import { templateApi } from './api';
import { templateBody, TemplateDialog, type TemplateValues } from './TemplateDialog';
import { templateName } from './labels';

type Source = Pick<Questionnaire, 'id' | 'title' | 'titleTranslation' | 'languages' | 'targets'>;

/** The kind the questionnaire's choices amount to, as the server reads them when none is given (docs/product-rules.md#templates). */
async function audienceOf(targets: Target[] | undefined): Promise<AudienceValue> {
  const kinds = (targets ?? []).map((t) => t.kind).sort().join(',');
  if (kinds === 'ALL_STUDENTS') return { audienceKind: 'ALL_STUDENTS', gradeCode: null };
  if (kinds === 'ALL_TEACHERS') return { audienceKind: 'ALL_TEACHERS', gradeCode: null };
  if (kinds === 'ALL_STUDENTS,ALL_TEACHERS') return { audienceKind: 'EVERYONE', gradeCode: null };
  const ids = targets?.[0]?.ids ?? [];
  if (kinds === 'GRADE' && ids.length === 1) {
    const [grade] = await questionnaireApi.audienceOptions('GRADE', { ids }).catch(() => []);
    if (grade?.code) return { audienceKind: 'STUDENTS_OF_GRADE', gradeCode: grade.code };
  }
  return { audienceKind: 'NONE', gradeCode: null };
}

/** The questionnaire's title in each language it is written in, as the template's names. */
function namesOf(q: Source): Pick<TemplateValues, 'nameHk' | 'nameEn'> {
  const [main, second] = q.languages?.length ? q.languages : ['zh-hk'];
  const inLang = (lang: string) => (lang === main ? q.title : lang === second ? (q.titleTranslation ?? '') : '');
  return { nameHk: inLang('zh-hk'), nameEn: inLang('en') };
}

/**
 * "Save as template" (form-template.add): the questionnaire's questions, languages, type and
 * audience kind become a template under the names given; its title fills them at first.
 */
export function SaveAsTemplateDialog({ questionnaire, onClose }: { questionnaire: Source; onClose: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const locale = useLocale();
  const [initial, setInitial] = useState<TemplateValues | null>(null);
  useEffect(() => {
    let live = true;
    void audienceOf(questionnaire.targets).then((audience) => live && setInitial({ ...namesOf(questionnaire), descriptionHk: '', descriptionEn: '', ...audience }));
    return () => {
      live = false;
    };
  }, [questionnaire]);
  // the grade's code is a moment away: the dialog opens with it
  if (!initial) return null;
  return (
    <TemplateDialog
      titleKey="qe.template.saveAs.title"
      intro={translate('qe.template.saveAs.intro')}
      initial={initial}
      submitKey="qe.template.action.save"
      testId="save-as-template"
      submit={(v) => templateApi.saveAs(questionnaire.id, templateBody(v))}
      onClose={onClose}
      onDone={(saved) => {
        notify('qe.template.message.savedAs', { type: 'success', messageArgs: { name: templateName(saved, locale) } });
        onClose();
      }}
    />
  );
}
