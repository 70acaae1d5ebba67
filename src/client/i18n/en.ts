import type { TranslationMessages } from 'react-admin';
import raEn from 'ra-language-english';
import appEn from './app-en';

/** Everything on screen in English: react-admin's texts and QE's. Loaded on demand. */
const en: TranslationMessages = { ...raEn, ...appEn };
export default en;
