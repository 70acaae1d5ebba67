import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { LOCALES, type Locale } from '../i18n/locale';
import type { Translate } from '../i18n/messages';
import './publicScreen.css';

/*
 * The parts of the screens outside the app that load without react-admin and MUI (login, quick
 * login: the first thing a phone on a slow network downloads), drawn as auth/CenteredCard.tsx
 * and MUI draw them in the app: plain React and publicScreen.css. Icons are Material icons' paths.
 */

const icon = (d: string) => (props: { className?: string }) => (
  <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" {...props}>
    <path d={d} />
  </svg>
);

export const SchoolIcon = icon('M5 13.18v4L12 21l7-3.82v-4L12 17zM12 3 1 9l11 6 9-4.91V17h2V9z');
const TranslateIcon = icon(
  'm12.87 15.07-2.54-2.51.03-.03c1.74-1.94 2.98-4.17 3.71-6.53H17V4h-7V2H8v2H1v1.99h11.17C11.5 7.92 10.44 9.75 9 11.35 8.07 10.32 7.3 9.19 6.69 8h-2c.73 1.63 1.73 3.17 2.98 4.56l-5.09 5.02L4 19l5-5 3.11 3.11zM18.5 10h-2L12 22h2l1.12-3h4.75L21 22h2zm-2.62 7 1.62-4.33L19.12 17z',
);
const ErrorIcon = icon('M11 15h2v2h-2zm0-8h2v6h-2zm.99-5C6.47 2 2 6.48 2 12s4.47 10 9.99 10C17.52 22 22 17.52 22 12S17.52 2 11.99 2zM12 20c-4.42 0-8-3.58-8-8s3.58-8 8-8 8 3.58 8 8-3.58 8-8 8z');
const WarningIcon = icon('M12 5.99L19.53 19H4.47L12 5.99M12 2L1 21h22L12 2zm1 14h-2v2h2v-2zm0-6h-2v4h2v-4z');
const SuccessIcon = icon('M20,12A8,8 0 0,1 12,20A8,8 0 0,1 4,12A8,8 0 0,1 12,4C12.76,4 13.5,4.11 14.2, 4.31L15.77,2.74C14.61,2.26 13.34,2 12,2A10,10 0 0,0 2,12A10,10 0 0,0 12,22A10,10 0 0,0 22,12M7.91,10.08L6.5,11.5L11,16L21,6L19.59,4.58L11,13.17L7.91,10.08Z');
export const CheckIcon = icon('M9 16.17 4.83 12l-1.42 1.41L9 19 21 7l-1.41-1.41z');
export const CrossIcon = icon('M19 6.41 17.59 5 12 10.59 6.41 5 5 6.41 10.59 12 5 17.59 6.41 19 12 13.41 17.59 19 19 17.59 13.41 12z');

/** The frame: a card centred on the theme colour, its title the page's heading. */
export function PublicCard({ title, header, children }: { title: string; header?: ReactNode; children: ReactNode }) {
  return (
    <main className="qe-p-main">
      <div className="qe-p-card">
        {header}
        <h1 className="qe-p-title">{title}</h1>
        {children}
      </div>
    </main>
  );
}

/** A message the screen reader reads out as it appears (role alert; a success, role status). */
export function Alert({ severity, children, testId }: { severity: 'error' | 'warning' | 'success'; children: ReactNode; testId?: string }) {
  const Icon = severity === 'error' ? ErrorIcon : severity === 'success' ? SuccessIcon : WarningIcon;
  return (
    <div role={severity === 'success' ? 'status' : 'alert'} className={`qe-p-alert qe-p-alert-${severity}`} data-testid={testId}>
      <Icon />
      <div>{children}</div>
    </div>
  );
}

/** A turning circle; with a label it is announced as busy, without it is decoration (beside a text that says what is going on). */
export function Spinner({ size, label }: { size: number; label?: string }) {
  return (
    <svg className="qe-p-spinner" width={size} height={size} viewBox="22 22 44 44" {...(label ? { role: 'progressbar', 'aria-label': label } : { 'aria-hidden': true })}>
      <circle cx="44" cy="44" r="20.2" strokeWidth="3.6" />
    </svg>
  );
}

export { useDocumentLanguage } from '../i18n/useDocumentLanguage';

/**
 * Switch between zh-hk and en (as layout/TopBarItems.tsx's LanguageSwitch): a button, its name
 * "language", and a menu of the two; arrows move, Enter or a click chooses, Escape closes. The
 * login page's, and the first-run screen's (InitPage.tsx), which the login page leads to.
 */
export function LanguageMenu({ locale, onChange, translate }: { locale: Locale; onChange: (locale: Locale) => void; translate: Translate }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const items = useRef<(HTMLLIElement | null)[]>([]);
  const current = Math.max(0, LOCALES.findIndex((l) => l.locale === locale));

  useEffect(() => {
    if (open) items.current[current]?.focus();
  }, [open, current]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  const choose = (next: Locale) => {
    close(true);
    if (next !== locale) onChange(next);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    const at = items.current.findIndex((item) => item === document.activeElement);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp' || e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      const last = LOCALES.length - 1;
      const to = e.key === 'Home' ? 0 : e.key === 'End' ? last : e.key === 'ArrowDown' ? (at + 1) % LOCALES.length : (at + last) % LOCALES.length;
      items.current[to]?.focus();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      close(true);
    } else if (e.key === 'Tab') {
      close(false);
    } else if ((e.key === 'Enter' || e.key === ' ') && at >= 0) {
      e.preventDefault();
      choose(LOCALES[at].locale);
    }
  };

  return (
    <div className="qe-p-lang">
      <button
        ref={button}
        type="button"
        className="qe-p-lang-button"
        title={translate('qe.nav.language')}
        aria-label={translate('qe.nav.languageNow', { name: LOCALES[current].name })}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        data-testid="language-switch"
        onClick={() => setOpen((o) => !o)}
      >
        <TranslateIcon />
        {/* on a phone the icon alone: the name would wrap one character a line */}
        <span className="qe-p-lang-name">{LOCALES[current].name}</span>
      </button>
      {open && (
        <>
          <div className="qe-p-backdrop" onClick={() => close(true)} />
          <ul id={menuId} role="menu" aria-label={translate('qe.nav.language')} className="qe-p-menu" onKeyDown={onKeyDown}>
            {LOCALES.map((l, i) => (
              <li
                key={l.locale}
                ref={(el) => {
                  items.current[i] = el;
                }}
                role="menuitemradio"
                aria-checked={l.locale === locale}
                tabIndex={-1}
                lang={l.locale === 'en' ? 'en' : 'zh-HK'}
                data-testid={`language-${l.locale}`}
                onClick={() => choose(l.locale)}
              >
                {l.name}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
