import type { TranslationMessages } from 'react-admin';
import raZhHk from './ra-zh-hk';
import appZhHk from '../../shared/i18n/app-zh-hk';
import { withDefinitionProblems, withFieldMessages } from './shared-messages';

/** Everything on screen in Traditional Chinese (Hong Kong): react-admin's texts and QE's. Bundled: it is the default. */
const zhHk: TranslationMessages = { ...withFieldMessages(raZhHk, 'zh-hk'), ...withDefinitionProblems(appZhHk) };
export default zhHk;
