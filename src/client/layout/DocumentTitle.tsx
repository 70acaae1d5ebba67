import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { useTranslate } from '../i18n/translate';
import { findRoute, routeTitleKey } from '../routes';

/** The browser tab's title names the screen, in the screen's language (WCAG 2.4.2): "學生 - QE 問卷系統". */
export function DocumentTitle() {
  const translate = useTranslate();
  const { pathname } = useLocation();
  const found = findRoute(pathname);
  const screen = found ? translate(routeTitleKey(found.route)) : undefined;
  const app = translate('qe.app.title');
  useEffect(() => {
    document.title = screen ? `${screen} - ${app}` : app;
  }, [screen, app]);
  return null;
}
