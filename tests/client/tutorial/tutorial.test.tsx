import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { AdminContext, memoryStore, TestMemoryRouter } from 'react-admin';
import { Route, Routes } from 'react-router-dom';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import { anchorOf, TutorialPage } from '../../../src/client/common/TutorialPage';
import { TUTORIAL } from '../../../src/client/tutorial/content';
import { PUBLIC_PATHS } from '../../../src/client/routes/public';
import { flatten } from '../../support/messages';
import zhHk from '../../../src/client/i18n/zh-hk';
import en from '../../../src/client/i18n/en';

// The tutorial: three parts (students, teachers, administrators), each of its sections rendered in
// both languages with a table of contents pointing at their anchors; its texts complete in both.

function renderTutorial() {
  return render(
    <TestMemoryRouter initialEntries={['/tutorial']}>
      <AdminContext i18nProvider={i18nProvider} store={memoryStore()}>
        <Routes>
          <Route path="/tutorial" element={<TutorialPage />} />
        </Routes>
      </AdminContext>
    </TestMemoryRouter>,
  );
}

const LOCALES = ['zh-hk', 'en'] as const;
const texts = TUTORIAL.flatMap((part) => [part.title, part.intro, ...part.sections.flatMap((s) => [s.title, ...s.paragraphs, ...(s.steps ?? [])])]);

beforeEach(async () => {
  await i18nProvider.changeLocale('zh-hk');
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('the tutorial', () => {
  it('has a part for students, one for teachers and one for administrators', () => {
    expect(TUTORIAL.map((p) => p.id)).toEqual(['students', 'teachers', 'administrators']);
    const sections = Object.fromEntries(TUTORIAL.map((p) => [p.id, p.sections.map((s) => s.id)]));
    expect(sections.students).toEqual(expect.arrayContaining(['answer']));
    expect(sections.teachers).toEqual(expect.arrayContaining(['design', 'target', 'open', 'remind', 'results']));
    expect(sections.administrators).toEqual(expect.arrayContaining(['import', 'years', 'settings', 'staff', 'roles', 'backups']));
  });

  it('has every text in both languages, none empty, the Chinese one in Chinese', () => {
    for (const text of texts) {
      for (const l of LOCALES) expect(text[l]?.trim(), JSON.stringify(text)).toBeTruthy();
      expect(text['zh-hk'], text.en).toMatch(/[\u4e00-\u9fff]/);
      expect(text['zh-hk']).not.toBe(text.en);
    }
    const ids = TUTORIAL.flatMap((p) => [anchorOf(p.id), ...p.sections.map((s) => anchorOf(p.id, s.id))]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('has its page labels in both message files', () => {
    const zh = flatten(zhHk);
    const enKeys = flatten(en);
    for (const key of ['title', 'intro', 'contents', 'print', 'back', 'language']) {
      expect(zh.get(`qe.tutorial.${key}`), key).toBeTruthy();
      expect(enKeys.get(`qe.tutorial.${key}`), key).toBeTruthy();
    }
  });

  it.each(LOCALES)('renders every part and section in %s, with a table of contents pointing at their anchors', async (locale) => {
    await i18nProvider.changeLocale(locale);
    renderTutorial();
    const contents = await screen.findByTestId('tutorial-contents');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(locale === 'en' ? 'Tutorial' : '使用說明');
    for (const part of TUTORIAL) {
      const el = screen.getByTestId(`tutorial-part-${part.id}`);
      expect(el.id).toBe(part.id);
      expect(within(el).getByRole('heading', { level: 2 }).textContent).toBe(part.title[locale]);
      expect(within(contents).getByRole('link', { name: part.title[locale] }).getAttribute('href')).toBe(`#${part.id}`);
      for (const s of part.sections) {
        const section = screen.getByTestId(`tutorial-section-${anchorOf(part.id, s.id)}`);
        expect(section.id).toBe(anchorOf(part.id, s.id));
        expect(within(section).getByRole('heading', { level: 3 }).textContent).toBe(s.title[locale]);
        for (const p of [...s.paragraphs, ...(s.steps ?? [])]) expect(within(section).getByText(p[locale])).toBeTruthy();
        expect(within(contents).getByRole('link', { name: s.title[locale] }).getAttribute('href')).toBe(`#${anchorOf(part.id, s.id)}`);
      }
    }
  });

  it('switches language on the page itself and prints', async () => {
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    renderTutorial();
    await screen.findByTestId('tutorial-part-students');
    fireEvent.click(screen.getByTestId('tutorial-lang-en'));
    await waitFor(() => expect(screen.getByTestId('tutorial-part-students').querySelector('h2')!.textContent).toBe(TUTORIAL[0].title.en));
    expect(screen.getByRole('heading', { level: 3, name: 'Backups' })).toBeTruthy();
    fireEvent.click(screen.getByTestId('tutorial-print'));
    expect(print).toHaveBeenCalledOnce();
  });

  it('opens without login, and /app/upload is no longer an address of QE', () => {
    expect(PUBLIC_PATHS).toContain('/tutorial');
    expect(PUBLIC_PATHS).not.toContain('/app/upload');
  });
});
