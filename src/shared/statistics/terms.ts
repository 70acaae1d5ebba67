/**
 * The words and phrases of a text answer, as the statistics screen counts them (docs/product-rules.md#text-answers-read):
 * word boundaries from `Intl.Segmenter` (its dictionary splits Chinese, Traditional and Simplified,
 * and Cantonese reasonably), English in lower case, full-width letters and digits made half-width.
 * Left out: numbers, one-letter English, the function words of both languages and Cantonese's
 * particles (嘅, 咗, 啲, 囉, 㗎 …), and the commonest words of opinion (好, 覺得, very, good …)
 * alone — these still join a phrase ("功課太多", "too small"). A phrase is two words side by side
 * (nothing but a space between, in English) of which neither is a function word.
 * Each term counts once per answer, whatever times the answer repeats it.
 */

/** Words that are never a term nor part of a phrase. */
const FUNCTION_WORDS = new Set([
  // English
  ...'a an the and or but nor so if then than as at by for from in into of on onto to with without about over under up down out off is are was were be been being am do does did done have has had having it its it\'s this that these those there here i me my mine we us our ours you your yours he him his she her hers they them their theirs who whom whose which what when where why how not no yes all any some each every both either neither also just only even still yet s t d ll m re ve don didn doesn isn aren wasn weren can\'t don\'t i\'m i\'ve we\'re they\'re'.split(' '),
  // written Chinese
  ...'的 地 得 了 着 著 過 是 在 和 與 及 或 而 但 並 且 之 其 此 這 那 這個 那個 這些 那些 這樣 那樣 我 你 妳 您 他 她 它 我們 你們 他們 她們 它們 自己 一 一個 一些 個 些 也 都 就 又 還 才 再 把 被 給 對 從 向 由 於 為 因 因為 所以 但是 不過 而且 如果 雖然 然後 以及 或者 還是 就是 什麼 怎麼 怎樣 甚麼 嗎 吧 呢 啊 呀 哦 喔 噢 吓 嘛 啦 喇 嗯'.split(' '),
  // Cantonese
  ...'嘅 咗 啲 喺 係 唔 冇 佢 佢哋 我哋 你哋 呢個 嗰個 呢啲 嗰啲 呢度 嗰度 咁 噉 乜 乜嘢 點 點樣 邊 邊個 同埋 同 畀 俾 嚟 囉 咩 喎 㗎 噃 嘞 咯 吖 喂 添 啫 啩 哋 嘢'.split(' '),
]);

/** Words too common to tell anything alone, kept inside phrases. */
const COMMON_WORDS = new Set([
  ...'very too more most less much many good bad great nice ok okay think feel like hope want would could should will can may might please lot lots really quite so thing things'.split(' '),
  ...'好 好好 很好 幾好 不錯 唔錯 很 太 多 少 最 更 較 比較 非常 十分 真 真係 好多 太多 有 沒有 無 不 會 要 想 可 可以 能 應該 希望 覺得 認為 感覺 喜歡 需要 其實 已經 大家 時候 東西 方面 問題 地方 一點 一啲 有啲 多啲 少少 做 去 來 人 上 下 中 內 外 後 前'.split(' '),
]);

const MAX_TERM_LENGTH = 40;
/** Enough for any answer a pupil writes; a pasted essay does not flood the table. */
export const MAX_TERMS_PER_ANSWER = 200;

const HAN = /\p{Script=Han}/u;
const LETTER_OR_HAN = /[\p{L}]/u;
const NUMBER_ONLY = /^[\p{N}.,:/-]+$/u;

let segmenter: Intl.Segmenter | undefined;
const wordsOf = (text: string) => (segmenter ??= new Intl.Segmenter('zh-Hant-HK', { granularity: 'word' })).segment(text);

/** A word as counted: NFKC (full-width → half-width), lower case. */
export const normalWord = (word: string) => word.normalize('NFKC').toLocaleLowerCase('en');

function isWordTerm(word: string): boolean {
  if (!LETTER_OR_HAN.test(word) || NUMBER_ONLY.test(word)) return false;
  // one Latin letter ("i", "s") says nothing; one Chinese character may (貴, 細)
  if (!HAN.test(word) && word.length < 2) return false;
  return word.length <= MAX_TERM_LENGTH;
}

/** The distinct terms (words, then phrases) of one answer, at most MAX_TERMS_PER_ANSWER. */
export function termsOf(text: string): string[] {
  const terms = new Set<string>();
  const phrases = new Set<string>();
  // the previous word, while nothing but a space (between English words) separates it from the next
  let previous: string | null = null;
  let gap = '';
  for (const s of wordsOf(text)) {
    if (!s.isWordLike) {
      // a space joins two English words into a phrase; punctuation or a line ends it
      gap += s.segment;
      if (!/^ $/.test(gap)) previous = null;
      continue;
    }
    const word = normalWord(s.segment);
    const counted = isWordTerm(word) && !FUNCTION_WORDS.has(word);
    if (counted && !COMMON_WORDS.has(word)) terms.add(word);
    if (counted && previous !== null) {
      const joined = HAN.test(previous) && HAN.test(word) ? `${previous}${word}` : `${previous} ${word}`;
      // a phrase needs a word that tells something: not two common ones
      if (!(COMMON_WORDS.has(previous) && COMMON_WORDS.has(word)) && joined.length <= MAX_TERM_LENGTH) phrases.add(joined);
    }
    previous = counted ? word : null;
    gap = '';
  }
  const all = [...terms, ...phrases];
  return all.length > MAX_TERMS_PER_ANSWER ? all.slice(0, MAX_TERMS_PER_ANSWER) : all;
}
