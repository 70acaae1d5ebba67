import { useEffect, useMemo, type ReactNode } from 'react';
import { createTheme, ThemeProvider, type Theme } from '@mui/material/styles';
import { useQueryClient } from '@tanstack/react-query';
import { useLocale } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { currentLocale } from '../providers/i18nProvider';
import { setPageLanguage } from '../i18n/locale';

/**
 * One language at a time on screen: MUI's own texts (pagination, autocomplete, alert,
 * breadcrumbs) from QE's message files, the page's `<html lang>` for screen readers and the
 * browser, and the user's name in the top bar (computed in the user's language) read again when
 * the language changes.
 */
/** The language the screen last showed its messages in: react-admin mounts the whole app afresh when it changes, so a ref would not remember it. */
let shownLocale: string | null = null;

export function LanguageOfScreen({ children }: { children: ReactNode }) {
  const translate = useTranslate();
  const locale = useLocale();
  const queryClient = useQueryClient();

  useEffect(() => {
    setPageLanguage(locale);
    // the messages' language, which follows the chosen one a moment later (react-admin loads it, then mounts the app afresh)
    const shown = currentLocale();
    if (shownLocale !== null && shownLocale !== shown) void queryClient.invalidateQueries({ queryKey: ['auth', 'getIdentity'] });
    shownLocale = shown;
  }, [locale, queryClient]);

  const theme = useMemo(() => {
    const pageLabel = (type: string, page: number | null, selected?: boolean) => {
      if (type === 'page') return translate(selected ? 'qe.mui.pageCurrent' : 'qe.mui.page', { page: page ?? '' });
      return translate(`qe.mui.${type === 'first' ? 'firstPage' : type === 'last' ? 'lastPage' : type === 'next' ? 'nextPage' : 'previousPage'}`);
    };
    return (outer: Theme) =>
      createTheme(outer, {
        components: {
          MuiPagination: { defaultProps: { getItemAriaLabel: pageLabel, 'aria-label': translate('qe.mui.pagination') } },
          MuiTablePagination: {
            defaultProps: {
              getItemAriaLabel: (type: 'first' | 'last' | 'next' | 'previous') => pageLabel(type, null),
              labelRowsPerPage: translate('qe.mui.rowsPerPage'),
              labelDisplayedRows: ({ from, to, count }: { from: number; to: number; count: number }) =>
                count === -1 ? translate('qe.mui.rowsOfMore', { from, to }) : translate('qe.mui.rowsOf', { from, to, count }),
            },
          },
          MuiAutocomplete: {
            defaultProps: {
              clearText: translate('qe.mui.clear'),
              closeText: translate('qe.mui.close'),
              openText: translate('qe.mui.open'),
              loadingText: translate('qe.mui.loading'),
              noOptionsText: translate('qe.mui.noOptions'),
            },
          },
          MuiAlert: { defaultProps: { closeText: translate('qe.mui.close') } },
          MuiBreadcrumbs: { defaultProps: { expandText: translate('qe.mui.expand') } },
        },
      });
  }, [translate]);

  return <ThemeProvider theme={theme}>{children}</ThemeProvider>;
}
