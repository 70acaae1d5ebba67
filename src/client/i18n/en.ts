import type { TranslationMessages } from 'react-admin';
import raEn from 'ra-language-english';
import appEn from '../../shared/i18n/app-en';
import { withDefinitionProblems, withFieldMessages } from './shared-messages';

/** Everything on screen in English: react-admin's texts and QE's. Loaded on demand. */
const en: TranslationMessages = { ...withFieldMessages(raEn, 'en'), ...withDefinitionProblems(appEn) };
export default en;
