import { useEffect, useMemo, useRef, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  LinearProgress,
  MenuItem,
  Radio,
  RadioGroup,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { HttpError, Title, useLocale, useNotify } from 'react-admin';
import { useTranslate } from '../../i18n/translate';
import { useNavigate } from 'react-router-dom';
import { DateTimeText } from '../../common/DateTimeText';
import { refreshSchoolYears } from '../../common/useSchoolYears';
import { isDay, previewRollover, runRollover, type ClassMove, type RolloverPreview } from './api';
import { YEARS_LIST_PATH } from './paths';
import { schoolToday } from '../../common/schoolClock';

type Named = { nameHk: string | null; nameEn: string | null; code?: string | null };

/** The wizard's choices: what is sent with each preview and with the run. */
interface Choices {
  graduateGradeId?: number;
  /** from-class id → to-class id, only where the administrator changed the suggestion */
  mapping: Record<number, number>;
  createMissingClasses: boolean;
}

/** Today on the school's clock (the server compares the switch date with it). */
const todayText = () => schoolToday();
/** The changed targets as the server takes them. */
const mappingOf = (mapping: Choices['mapping']) => Object.entries(mapping).map(([from, to]) => ({ fromClassId: Number(from), toClassId: to }));

/**
 * New school year: the preview of what the roll-over does — next year, the students
 * promoted per class and to which class, the graduating grade, the classes next year lacks —
 * re-asked as the administrator changes the mapping or the graduating grade; then when the new
 * year becomes current (at once or on a day), a confirmation that says what will happen, and the
 * roll-over, all or nothing. Errors (a year already rolled, no current year) say what to do.
 */
export function NewSchoolYearScreen() {
  const translate = useTranslate();
  const locale = useLocale();
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const name = (x: Named) => (locale === 'en' ? x.nameEn : x.nameHk) || x.code || '';

  const [choices, setChoices] = useState<Choices>({ mapping: {}, createMissingClasses: true });
  const [preview, setPreview] = useState<RolloverPreview | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [switchMode, setSwitchMode] = useState<'now' | 'date'>('now');
  const [switchDate, setSwitchDate] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [running, setRunning] = useState(false);
  const asked = useRef(0);

  // the preview follows the choices (a short pause first, so a run of changes asks once)
  useEffect(() => {
    const ask = ++asked.current;
    setLoading(true);
    const timer = setTimeout(() => {
      previewRollover({ graduateGradeId: choices.graduateGradeId, mapping: mappingOf(choices.mapping), createMissingClasses: choices.createMissingClasses })
        .then((p) => {
          if (ask !== asked.current) return;
          setPreview(p);
          setProblem(null);
        })
        .catch((e: unknown) => {
          if (ask !== asked.current) return;
          setProblem(e instanceof HttpError ? e.message : translate('qe.error.tryLater'));
        })
        .finally(() => ask === asked.current && setLoading(false));
    }, preview ? 300 : 0);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the preview itself only decides the first pause
  }, [choices, translate]);

  const dateProblem = switchMode === 'date' ? (!isDay(switchDate) ? translate('qe.newYear.dateFormat') : switchDate <= todayText() ? translate('qe.newYear.dateFuture') : preview && switchDate > preview.nextYear.endDate ? translate('qe.newYear.dateBeforeEnd', { end: preview.nextYear.endDate }) : null) : null;
  const missingUsed = useMemo(() => (preview?.moves ?? []).filter((m) => m.missing && m.students > 0), [preview]);
  const blocked = !preview || Boolean(problem) || Boolean(dateProblem) || (missingUsed.length > 0 && !choices.createMissingClasses);

  const run = async () => {
    setConfirming(false);
    setRunning(true);
    try {
      const done = await runRollover({
        graduateGradeId: preview?.graduateGradeId,
        mapping: mappingOf(choices.mapping),
        createMissingClasses: choices.createMissingClasses,
        switchDate: switchMode === 'date' ? switchDate : null,
      });
      await refreshSchoolYears(queryClient);
      await queryClient.invalidateQueries({ queryKey: ['school-years'] });
      notify(done.switchDate ? 'qe.newYear.doneLater' : 'qe.newYear.doneNow', { type: 'success', messageArgs: { year: done.nextYear.name, promoted: done.promoted, graduates: done.graduates, date: done.switchDate ?? '' } });
      navigate(YEARS_LIST_PATH);
    } catch (e) {
      setProblem(e instanceof HttpError ? e.message : translate('qe.error.tryLater'));
    } finally {
      setRunning(false);
    }
  };

  const targetValue = (m: ClassMove) => String(choices.mapping[m.fromClassId] ?? m.toClassId ?? (m.missing ? `new:${m.toCode}` : ''));
  const setTarget = (m: ClassMove, value: string) => {
    if (value.startsWith('new:')) {
      const { [m.fromClassId]: _dropped, ...rest } = choices.mapping;
      setChoices({ ...choices, mapping: rest });
    } else setChoices({ ...choices, mapping: { ...choices.mapping, [m.fromClassId]: Number(value) } });
  };

  return (
    <Card sx={{ mt: 1 }} data-testid="new-year-screen">
      <Title title={translate('qe.newYear.title')} />
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2.5, maxWidth: 960 }}>
        <Typography variant="h6" component="h1">
          {translate('qe.newYear.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {translate('qe.newYear.intro')}
        </Typography>
        {loading && <LinearProgress aria-label={translate('qe.newYear.loading')} data-testid="new-year-loading" />}
        {problem && (
          <Alert severity="error" data-testid="new-year-problem" action={!preview ? <Button color="inherit" size="small" onClick={() => navigate(YEARS_LIST_PATH)}>{translate('qe.master.backToList')}</Button> : undefined}>
            {problem}
          </Alert>
        )}
        {preview && (
          <>
            <Box data-testid="new-year-summary">
              <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
                {translate('qe.newYear.fromTo', { from: preview.fromYear.name, to: preview.nextYear.name })}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {translate(preview.nextYear.id ? 'qe.newYear.nextExists' : 'qe.newYear.nextCreated', { begin: preview.nextYear.beginDate, end: preview.nextYear.endDate, smart_count: preview.nextYear.terms })}
              </Typography>
              <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 1, flexWrap: 'wrap' }}>
                <Chip color="primary" variant="outlined" label={translate('qe.newYear.promoted', { count: preview.promoted })} data-testid="new-year-promoted" />
                <Chip color="warning" variant="outlined" label={translate('qe.newYear.graduates', { count: preview.graduates })} data-testid="new-year-graduates" />
                {preview.alreadyPlaced > 0 && <Chip variant="outlined" label={translate('qe.newYear.alreadyPlaced', { count: preview.alreadyPlaced })} />}
              </Stack>
            </Box>

            <TextField
              select
              label={translate('qe.newYear.graduateGrade')}
              value={String(preview.graduateGradeId)}
              onChange={(e) => setChoices({ ...choices, graduateGradeId: Number(e.target.value) })}
              helperText={translate('qe.newYear.graduateHelp')}
              sx={{ maxWidth: 360 }}
              data-testid="new-year-graduate-grade"
            >
              {preview.grades.map((g) => (
                <MenuItem key={g.id} value={String(g.id)}>
                  {name(g)}
                </MenuItem>
              ))}
            </TextField>

            <Box>
              <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }} id="new-year-mapping">
                {translate('qe.newYear.mapping')}
              </Typography>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                {translate('qe.newYear.mappingHelp')}
              </Typography>
              <Box sx={{ overflowX: 'auto' }}>
                <Table size="small" aria-labelledby="new-year-mapping" data-testid="new-year-moves">
                  <TableHead>
                    <TableRow>
                      <TableCell>{translate('qe.newYear.fromClass')}</TableCell>
                      <TableCell align="right">{translate('qe.newYear.students')}</TableCell>
                      <TableCell>{translate('qe.newYear.toClass')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {preview.moves.map((m) => (
                      <TableRow key={m.fromClassId} data-testid={`new-year-move-${m.fromCode}`}>
                        <TableCell>{name({ nameHk: m.fromNameHk, nameEn: m.fromNameEn, code: m.fromCode })}</TableCell>
                        <TableCell align="right">{m.students}</TableCell>
                        <TableCell sx={{ minWidth: 200 }}>
                          {m.graduates ? (
                            <Chip size="small" color="warning" label={translate('qe.newYear.graduate')} />
                          ) : (
                            <TextField
                              select
                              size="small"
                              fullWidth
                              value={targetValue(m)}
                              onChange={(e) => setTarget(m, e.target.value)}
                              slotProps={{ htmlInput: { 'aria-label': translate('qe.newYear.toClassOf', { from: name({ nameHk: m.fromNameHk, nameEn: m.fromNameEn, code: m.fromCode }) }) } }}
                              data-testid={`new-year-target-${m.fromCode}`}
                            >
                              {m.missing && <MenuItem value={`new:${m.toCode}`}>{translate('qe.newYear.newClass', { name: name({ nameHk: m.toNameHk, nameEn: m.toNameEn, code: m.toCode }) })}</MenuItem>}
                              {preview.classes.map((c) => (
                                <MenuItem key={c.id} value={String(c.id)}>
                                  {name(c)}
                                </MenuItem>
                              ))}
                            </TextField>
                          )}
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </Box>
            </Box>

            {preview.missingClasses.length > 0 && (
              <Alert severity={missingUsed.length && !choices.createMissingClasses ? 'error' : 'info'} data-testid="new-year-missing">
                {translate('qe.newYear.missing', { classes: preview.missingClasses.map((c) => name(c)).join('、') })}
                <Box>
                  <FormControlLabel
                    control={<Checkbox checked={choices.createMissingClasses} onChange={(e) => setChoices({ ...choices, createMissingClasses: e.target.checked })} />}
                    label={translate('qe.newYear.createMissing')}
                    data-testid="new-year-create-missing"
                  />
                </Box>
              </Alert>
            )}

            <Box>
              <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }} id="new-year-after">
                {translate('qe.newYear.after', { year: preview.nextYear.name })}
              </Typography>
              <Box sx={{ overflowX: 'auto' }}>
                <Table size="small" aria-labelledby="new-year-after" data-testid="new-year-after">
                  <TableHead>
                    <TableRow>
                      <TableCell>{translate('qe.newYear.class')}</TableCell>
                      <TableCell align="right">{translate('qe.newYear.students')}</TableCell>
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {preview.after.map((a) => (
                      <TableRow key={a.classId ?? a.code} data-testid={`new-year-after-${a.code}`}>
                        <TableCell>{name(a)}</TableCell>
                        <TableCell align="right">{a.students}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </Box>
            </Box>

            <Box>
              <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }} id="new-year-switch">
                {translate('qe.newYear.switch', { year: preview.nextYear.name })}
              </Typography>
              <RadioGroup aria-labelledby="new-year-switch" value={switchMode} onChange={(e) => setSwitchMode(e.target.value as 'now' | 'date')} data-testid="new-year-switch-mode">
                <FormControlLabel value="now" control={<Radio />} label={translate('qe.newYear.switchNow')} data-testid="new-year-switch-now" />
                <FormControlLabel value="date" control={<Radio />} label={translate('qe.newYear.switchOn')} data-testid="new-year-switch-date" />
              </RadioGroup>
              {switchMode === 'date' && (
                <DateTimeText
                  kind="date"
                  label={translate('qe.newYear.switchDate')}
                  value={switchDate}
                  onChange={(text) => setSwitchDate(text.trim())}
                  error={Boolean(switchDate) && Boolean(dateProblem)}
                  helperText={(switchDate && dateProblem) || translate('qe.newYear.switchHelp', { begin: preview.nextYear.beginDate })}
                  htmlInput={{ 'data-testid': 'new-year-date' }}
                  sx={{ maxWidth: 360, ml: 4 }}
                />
              )}
            </Box>

            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
              <Button variant="contained" disabled={blocked || loading || running} onClick={() => setConfirming(true)} data-testid="new-year-start">
                {translate('qe.newYear.start')}
              </Button>
              <Button onClick={() => navigate(YEARS_LIST_PATH)} disabled={running}>
                {translate('qe.common.cancel')}
              </Button>
            </Box>
            {running && <LinearProgress aria-label={translate('qe.newYear.running')} data-testid="new-year-running" />}
          </>
        )}
      </CardContent>

      {preview && (
        <Dialog open={confirming} onClose={() => setConfirming(false)} aria-labelledby="new-year-confirm-title" data-testid="new-year-confirm">
          <DialogTitle id="new-year-confirm-title">{translate('qe.newYear.confirmTitle', { year: preview.nextYear.name })}</DialogTitle>
          <DialogContent>
            <DialogContentText component="div">
              <p>{translate('qe.newYear.confirmPromoted', { count: preview.promoted, year: preview.nextYear.name })}</p>
              <p>{translate('qe.newYear.confirmGraduates', { count: preview.graduates })}</p>
              {choices.createMissingClasses && missingUsed.length > 0 && <p>{translate('qe.newYear.confirmCreate', { classes: preview.missingClasses.map((c) => name(c)).join('、') })}</p>}
              <p>{switchMode === 'date' ? translate('qe.newYear.confirmSwitchOn', { date: switchDate }) : translate('qe.newYear.confirmSwitchNow')}</p>
              <p>{translate('qe.newYear.confirmOnce')}</p>
            </DialogContentText>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setConfirming(false)}>{translate('qe.common.cancel')}</Button>
            <Button variant="contained" color="warning" onClick={run} data-testid="new-year-confirm-run" autoFocus>
              {translate('qe.newYear.confirmRun')}
            </Button>
          </DialogActions>
        </Dialog>
      )}
    </Card>
  );
}
