import { useMemo, useState } from 'react';
import { Alert, Box, Button, LinearProgress, Stack, Tab, Tabs, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Title, useLocale } from 'react-admin';
import { useTranslate } from '../../i18n/translate';
import { useNavigate, useSearchParams } from 'react-router-dom';
import type { StatisticsFilter } from '../../../shared/statistics/types';
import type { Lang } from '../../../shared/i18n/text';
import { languageShown, languagesOf, titleIn } from '../../../shared/questionnaire/languages';
import { RecordNotFound } from '../../common/RecordNotFound';
import { PdfButton } from '../pdf/PdfButton';
import { detailKey, fetchDetail, filterFromParams, statisticsPath } from '../api';
import { DetailHeader } from './DetailHeader';
import { ExportButton, useMayStatistics } from './ExportButton';
import { ExportLanguage } from './ExportLanguage';
import { FilterBar } from './FilterBar';
import { QuestionResult } from './QuestionResult';
import { YearComparison } from './YearComparison';
import { RespondentList } from './RespondentList';
import { WithheldNotice } from './WithheldNotice';
import { Loading } from '../../common/Loading';
import { ReleaseButton } from '../release/ReleaseButton';

type TabName = 'results' | 'respondents' | 'years';

function BackToList() {
  const translate = useTranslate();
  const navigate = useNavigate();
  return (
    <Button startIcon={<ArrowBackIcon />} onClick={() => navigate(statisticsPath('list'))} sx={{ alignSelf: 'flex-start' }} data-testid="statistics-back">
      {translate('qe.statistics.backToList')}
    </Button>
  );
}

/**
 * dataStatisticsDetail: one questionnaire's results (GET /v1/statistics/{id}) — its facts, the
 * respondent filters (role, grade, class; kept in the URL, every change asks the server again and
 * everything shown follows), each question's summary with its chart, and the respondents. An
 * anonymous group too small to show is withheld with a note. Export Excel and the PDF report
 * follow data-statistics.export and .print; for a questionnaire in two languages both are made in
 * the interface language or, when chosen, the other.
 */
export function StatisticsDetail() {
  const translate = useTranslate();
  const [params, setParams] = useSearchParams();
  const id = Number(params.get('id'));
  const valid = Number.isInteger(id) && id > 0;
  const search = params.toString();
  const filter = useMemo(() => filterFromParams(new URLSearchParams(search)), [search]);
  const [tab, setTab] = useState<TabName>('results');
  const mayPrint = useMayStatistics('print');
  const mayExport = useMayStatistics('export');
  const reader: Lang = useLocale() === 'en' ? 'en' : 'zh-hk';
  const [exportIn, setExportIn] = useState<Lang | null>(null);
  const query = useQuery({
    queryKey: detailKey(id, filter, reader),
    queryFn: () => fetchDetail(id, filter),
    enabled: valid,
    retry: false,
    refetchOnWindowFocus: false,
    placeholderData: keepPreviousData,
  });
  const title = translate('qe.menu.dataStatisticsDetail');

  const setFilter = (next: StatisticsFilter) => {
    const p = new URLSearchParams({ id: String(id) });
    if (next.role) p.set('role', next.role);
    if (next.gradeId !== undefined) p.set('gradeId', String(next.gradeId));
    if (next.classId !== undefined) p.set('classId', String(next.classId));
    setParams(p, { replace: true });
  };

  if (!valid) return <RecordNotFound title={title} />;
  if (query.isError) {
    const status = (query.error as { status?: number })?.status;
    if (status === 404) return <RecordNotFound title={title} />;
    return (
      <Stack spacing={1} sx={{ py: 1 }}>
        <Title title={title} />
        <BackToList />
        <Alert severity="error" data-testid="statistics-error">
          {(query.error as Error)?.message || translate('qe.error.tryLater')}
        </Alert>
      </Stack>
    );
  }
  if (query.isPending) return <Loading />;
  const detail = query.data;
  const q = detail.questionnaire;
  const languages = languagesOf(q);
  const bilingual = languages.length > 1;
  // the files' language: the interface's, unless the other is chosen
  const language = exportIn && languages.includes(exportIn) ? exportIn : languageShown(q, reader);

  return (
    <Stack spacing={2} sx={{ py: 1, minWidth: 0 }} data-testid="statistics-detail">
      <Title title={title} />
      <BackToList />
      <DetailHeader
        detail={detail}
        actions={
          <>
            {(mayExport || mayPrint) && <ExportLanguage languages={languages} value={language} onChange={setExportIn} />}
            <ExportButton id={q.id} title={titleIn(q, language)} filter={filter} language={bilingual ? language : undefined} />
            {mayPrint && <PdfButton detail={detail} language={bilingual ? language : undefined} />}
            <ReleaseButton id={q.id} />
          </>
        }
      />
      <FilterBar groups={detail.groups} filter={filter} onChange={setFilter} />
      <Box sx={{ minHeight: 4 }}>{query.isFetching && <LinearProgress aria-label={translate('qe.statistics.loading')} />}</Box>
      <WithheldNotice withheld={detail.withheld} />
      <Box sx={{ borderBottom: 1, borderColor: 'divider' }}>
        <Tabs value={tab} onChange={(_e, v: TabName) => setTab(v)} variant="scrollable" allowScrollButtonsMobile>
          <Tab value="results" label={translate('qe.statistics.tabs.results')} data-testid="tab-results" />
          <Tab value="respondents" label={translate('qe.statistics.tabs.respondents')} data-testid="tab-respondents" />
          <Tab value="years" label={translate('qe.statistics.tabs.years')} data-testid="tab-years" />
        </Tabs>
      </Box>
      {tab === 'results' ? (
        <Stack spacing={2} data-testid="statistics-results">
          <Typography variant="body2" sx={{ color: 'text.secondary' }} data-testid="reply-count">
            {translate('qe.statistics.replyCount', { smart_count: detail.replyCount })}
          </Typography>
          {detail.questions.map((question) => (
            <QuestionResult key={question.id} id={q.id} filter={filter} question={question} />
          ))}
          {detail.questions.length === 0 && <Typography sx={{ color: 'text.secondary' }}>{translate('qe.statistics.noQuestions')}</Typography>}
        </Stack>
      ) : tab === 'respondents' ? (
        <RespondentList id={q.id} filter={filter} title={titleIn(q, reader)} />
      ) : (
        <YearComparison id={q.id} filter={filter} groups={detail.groups} title={titleIn(q, language)} language={bilingual ? language : undefined} />
      )}
    </Stack>
  );
}
