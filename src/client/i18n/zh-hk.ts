import type { TranslationMessages } from 'react-admin';
import raZhHk from './ra-zh-hk';
import appZhHk from './app-zh-hk';

/** Everything on screen in Traditional Chinese (Hong Kong): react-admin's texts and QE's. Bundled: it is the default. */
const zhHk: TranslationMessages = { ...raZhHk, ...appZhHk };
export default zhHk;
