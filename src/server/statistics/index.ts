import { isDatabaseUnavailable, isDiskFull } from '../db/errors.js';
import { Readable } from 'node:stream';
import { schoolClock } from '../school/clock.js';
import { schoolDate } from '../../shared/school-clock.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import { ok } from '../plugins/envelope.js';
import { BusinessError, requestLang } from '../plugins/errors.js';
import { currentUser, type AuthUser } from '../plugins/guard.js';
import { errorText, ERRORS, type Lang } from '../../shared/errors.js';
import {
  STATISTICS_ANSWERS,
  statisticsFilterQuery,
  statisticsListQuery,
  statisticsParams,
  statisticsReplyParams,
  statisticsRespondentsQuery,
  statisticsTermsQuery,
  statisticsTextsQuery,
  textMarksBody,
  type RespondentPage,
  type StatisticsComparison,
  type StatisticsDetail,
  type StatisticsFilter,
  type StatisticsFilterQuery,
  type StatisticsListQuery,
  type StatisticsPage,
  type StatisticsParams,
  type StatisticsReply,
  type StatisticsReplyParams,
  type StatisticsRespondentsQuery,
  type StatisticsTermsQuery,
  type StatisticsTextsQuery,
  type TermList,
  type TextMarksBody,
  type TextMarksResult,
  type TextPage,
} from '../../shared/calls/statistics.js';
import { StatisticsService } from './service.js';
import { titleIn } from '../../shared/questionnaire/languages.js';
import { statisticsWorkbook } from './export.js';
import { comparisonWorkbook } from './comparison-export.js';
import { messageText } from '../../shared/master/labels.js';
import { RESULT_RELEASE_ANSWERS, resultReleaseBody, resultReleaseParams, type ResultReleaseBody, type ResultReleaseParams, type ResultReleaseState, type ResultSummary, type ResultSummaryList } from '../../shared/calls/result-releases.js';
import { release, releaseState, summariesReleasedTo, summaryFor, withdraw } from './result-release.js';

const tags = ['statistics'];
const view = { permission: 'data-statistics.view' as const };

/** The filter part of a query string. */
const filterOf = (q: StatisticsFilterQuery): StatisticsFilter => ({
  ...(q.role ? { role: q.role } : {}),
  ...(q.gradeId ? { gradeId: q.gradeId } : {}),
  ...(q.classId ? { classId: q.classId } : {}),
});

/** The language a report is read in: the one asked for ("export in"), else the interface's. */
const reportLang = (request: FastifyRequest<{ Querystring: StatisticsFilterQuery }>) => request.query.language ?? requestLang(request);

/** Statistics (calls in src/shared/statistics/API.md; docs/architecture.md#a-statistics-call): scoped like questionnaires, summaries by grouped queries. */
export async function statisticsRoutes(app: FastifyInstance, { db, config }: { db: DB; config: Config }) {
  const service = new StatisticsService(db, config.anonymousMinGroup);

  app.get<{ Querystring: StatisticsListQuery }>('/v1/statistics', {
    config: view,
    schema: { tags, summary: 'Questionnaires with results the caller may read, with submitted and respondent numbers: {list, total}', querystring: statisticsListQuery, response: STATISTICS_ANSWERS.list },
  }, async (request) => ok<StatisticsPage>(await service.list(currentUser(request), request.query)));

  app.get<{ Params: StatisticsParams; Querystring: StatisticsFilterQuery }>('/v1/statistics/:id', {
    config: view,
    schema: {
      tags,
      summary: "Every question's summary for the filtered respondents, the groups to filter by, and the counts",
      params: statisticsParams,
      querystring: statisticsFilterQuery,
      response: STATISTICS_ANSWERS.detail,
    },
  }, async (request) => ok<StatisticsDetail>(await service.detail(await service.scoped(currentUser(request), request.params.id), filterOf(request.query), reportLang(request))));

  app.get<{ Params: StatisticsParams; Querystring: StatisticsTextsQuery }>('/v1/statistics/:id/texts', {
    config: view,
    schema: {
      tags,
      summary: "A text question's answers, or a choice question's 'other' texts: searched, paged",
      params: statisticsParams,
      querystring: statisticsTextsQuery,
      response: STATISTICS_ANSWERS.texts,
    },
  }, async (request) => ok<TextPage>(await service.texts(currentUser(request), request.params.id, { ...request.query, ...filterOf(request.query) })));

  // the person in charge or a manager of every questionnaire's results (marks.ts mayMark); the route asks only that the caller reads results
  app.put<{ Params: StatisticsParams; Body: TextMarksBody }>('/v1/statistics/:id/texts/marks', {
    config: view,
    schema: {
      tags,
      summary: "Marks up to 200 answers of a text question shown or hidden for a release (unmarked answers are hidden); all or none, 735–737 otherwise",
      params: statisticsParams,
      body: textMarksBody,
      response: STATISTICS_ANSWERS.marks,
    },
  }, async (request) => ok<TextMarksResult>(await service.markTexts(currentUser(request), request.params.id, request.body)));

  // results released (result-release.ts): read by whoever reads the results; released and withdrawn by the person in charge or a results manager
  app.get<{ Params: ResultReleaseParams }>('/v1/statistics/:id/release', {
    config: view,
    schema: { tags, summary: "The release of a finished questionnaire's summary to its respondents and chosen staff, as it stands, and how many text answers it would show", params: resultReleaseParams, response: RESULT_RELEASE_ANSWERS.state },
  }, async (request) => {
    const user = currentUser(request);
    return ok<ResultReleaseState>(await releaseState(db, config.anonymousMinGroup, user, await service.scoped(user, request.params.id)));
  });

  app.put<{ Params: ResultReleaseParams; Body: ResultReleaseBody }>('/v1/statistics/:id/release', {
    config: view,
    schema: {
      tags,
      summary: 'Releases (again) the summary of a finished questionnaire — charts and the text answers marked shown — to its respondents and/or up to 100 members of staff; 739, 745–748 otherwise',
      params: resultReleaseParams,
      body: resultReleaseBody,
      response: RESULT_RELEASE_ANSWERS.state,
    },
  }, async (request) => {
    const user = currentUser(request);
    return ok<ResultReleaseState>(await release(db, config.anonymousMinGroup, user, await service.scoped(user, request.params.id), request.body));
  });

  app.delete<{ Params: ResultReleaseParams }>('/v1/statistics/:id/release', {
    config: view,
    schema: { tags, summary: 'Withdraws the release: its readers no longer find nor read the summary; 747, 749 otherwise', params: resultReleaseParams, response: RESULT_RELEASE_ANSWERS.state },
  }, async (request) => {
    const user = currentUser(request);
    return ok<ResultReleaseState>(await withdraw(db, config.anonymousMinGroup, user, await service.scoped(user, request.params.id)));
  });

  // the readers' side: any account (the respondents, the chosen staff, the person in charge), not a reminder link's session
  app.get('/v1/my/result-summaries', {
    config: { permission: '*' },
    schema: { tags, summary: 'The summaries of finished questionnaires released to me, the latest first: {list, total}', response: RESULT_RELEASE_ANSWERS.list },
  }, async (request) => ok<ResultSummaryList>(await summariesReleasedTo(db, currentUser(request))));

  app.get<{ Params: ResultReleaseParams }>('/v1/my/result-summaries/:id', {
    config: { permission: '*' },
    schema: { tags, summary: "One summary released to me, in my language: choice, scale and grid figures and the text answers marked shown; never a respondent's name; 738 otherwise", params: resultReleaseParams, response: RESULT_RELEASE_ANSWERS.one },
  }, async (request) => ok<ResultSummary>(await summaryFor(db, config.anonymousMinGroup, currentUser(request), request.params.id, requestLang(request))));

  app.get<{ Params: StatisticsParams; Querystring: StatisticsFilterQuery }>('/v1/statistics/:id/comparison', {
    config: view,
    schema: {
      tags,
      summary: "The questionnaire's series — itself and those copied from it or it from them, that the caller may read — year by year, each question matched by id, for the filter",
      params: statisticsParams,
      querystring: statisticsFilterQuery,
      response: STATISTICS_ANSWERS.comparison,
    },
  }, async (request) => ok<StatisticsComparison>(await service.comparison(currentUser(request), request.params.id, filterOf(request.query), reportLang(request))));

  xlsxRoute(app, db, '/v1/statistics/:id/comparison/export', 'The comparison across years as an xlsx sheet, in the language asked for; failures as 719', async (user, id, filter, lang, zone) => {
    const compared = await service.comparison(user, id, filter, lang);
    const chosen = compared.series.find((m) => m.questionnaire.id === id)!.questionnaire;
    return {
      parts: await comparisonWorkbook(db, compared, id, filter, lang),
      file: `comparison-${id}.xlsx`,
      name: `${titleIn(chosen, lang)}-${messageText(lang, 'qe.statisticsExport.comparisonSheet')}-${schoolDate(new Date(), zone)}.xlsx`,
    };
  });

  app.get<{ Params: StatisticsParams; Querystring: StatisticsTermsQuery }>('/v1/statistics/:id/terms', {
    config: view,
    schema: {
      tags,
      summary: "The most frequent words and phrases of a text question's answers, or of a choice question's 'other' texts, with how many answers use each",
      params: statisticsParams,
      querystring: statisticsTermsQuery,
      response: STATISTICS_ANSWERS.terms,
    },
  }, async (request) => ok<TermList>(await service.terms(currentUser(request), request.params.id, { ...request.query, ...filterOf(request.query) })));

  app.get<{ Params: StatisticsParams; Querystring: StatisticsRespondentsQuery }>('/v1/statistics/:id/respondents', {
    config: view,
    schema: {
      tags,
      summary: "Who was asked and who has answered (named), or 'anonymous N' per reply with the number not submitted (anonymous)",
      params: statisticsParams,
      querystring: statisticsRespondentsQuery,
      response: STATISTICS_ANSWERS.respondents,
    },
  }, async (request) => ok<RespondentPage>(await service.respondents(currentUser(request), request.params.id, { ...request.query, ...filterOf(request.query) })));

  app.get<{ Params: StatisticsReplyParams }>('/v1/statistics/:id/replies/:replyId', {
    config: view,
    schema: { tags, summary: 'One reply whole, with the questions it answers', params: statisticsReplyParams, response: STATISTICS_ANSWERS.reply },
  }, async (request) => ok<StatisticsReply>(await service.reply(currentUser(request), request.params.id, request.params.replyId)));

  xlsxRoute(app, db, '/v1/statistics/:id/export', 'The xlsx report: the summary and the raw answers (anonymous replies numbered, never named); failures as 719', async (user, id, filter, lang, zone) => {
    const scoped = await service.scoped(user, id);
    const detail = await service.detail(scoped, filter, lang);
    return {
      parts: await statisticsWorkbook(db, scoped, detail, filter, lang, zone),
      file: `statistics-${scoped.row.id}.xlsx`,
      name: `${titleIn(scoped.row, lang)}-${schoolDate(new Date(), zone)}.xlsx`,
    };
  });
}

/** An xlsx download of a questionnaire's results for the filter (data-statistics.export), in the language asked for, as a file named in it. */
function xlsxRoute(
  app: FastifyInstance,
  db: DB,
  path: string,
  summary: string,
  make: (user: AuthUser, id: number, filter: StatisticsFilter, lang: Lang, zone: string) => Promise<{ parts: Buffer[]; file: string; name: string }>,
) {
  app.get<{ Params: StatisticsParams; Querystring: StatisticsFilterQuery }>(path, {
    config: { permission: 'data-statistics.export' },
    schema: { tags, summary, params: statisticsParams, querystring: statisticsFilterQuery, response: STATISTICS_ANSWERS.export },
  }, async (request, reply) => {
    const lang = reportLang(request);
    try {
      const user = currentUser(request);
      const zone = await schoolClock(db).zone(user.seen);
      const { parts, file, name } = await make(user, request.params.id, filterOf(request.query), lang, zone);
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', `attachment; filename="${file}"; filename*=UTF-8''${encodeURIComponent(name)}`)
        .header('content-length', parts.reduce((n, part) => n + part.length, 0))
        .send(Readable.from(parts));
    } catch (err) {
      return downloadFailed(request, reply, err, lang);
    }
  });
}

/** A failed download answers 719 (the download-errors dialog: docs/errors.md#how-the-client-shows-them) with the reason on its own line. */
function downloadFailed(request: FastifyRequest, reply: FastifyReply, err: unknown, lang: ReturnType<typeof requestLang>) {
  // the database away or the disk full: the same envelope as everywhere else, saying to try again
  if (isDatabaseUnavailable(err) || isDiskFull(err)) throw err;
  const reason = err instanceof BusinessError ? errorText(err.key, lang, err.params) : errorText('SYSTEM_ERROR', lang);
  if (!(err instanceof BusinessError)) request.log.error({ err }, 'statistics export failed');
  return reply.status(ERRORS.DOWNLOAD_ERROR.http).send({ code: ERRORS.DOWNLOAD_ERROR.code, msg: `${errorText('DOWNLOAD_ERROR', lang)}\n${reason}`, data: null });
}
