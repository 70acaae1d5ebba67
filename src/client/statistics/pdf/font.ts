/**
 * The fonts of the PDF report, loaded on demand: the Traditional Chinese TrueType font (Noto
 * Sans TC, regular; the ~7 MB file is a Vite asset of its own, fetched only when a PDF screen
 * opens, never part of the first bundle) and the fallback font for emoji (Noto Emoji,
 * monochrome, ~0.9 MB, fetched only when a report holds a character the first font lacks).
 * pdfkit embeds only the glyphs a report uses (a subset of each font).
 */

/** The family name the report's text is set in (pdfkit) and its charts are drawn with (canvas). */
export const PDF_FONT = 'QeNotoSansTC';
/** The name of the fallback font in the document (emoji, and what else the first font lacks). */
export const FALLBACK_FONT = 'QeNotoEmoji';

/** Makes the font known to the page as well, so chart labels drawn on a canvas show Chinese too. */
async function addToPage(bytes: ArrayBuffer): Promise<void> {
  if (typeof FontFace === 'undefined' || typeof document === 'undefined' || !document.fonts) return;
  try {
    const face = new FontFace(PDF_FONT, bytes);
    await face.load();
    document.fonts.add(face);
  } catch {
    // charts fall back to the page's fonts
  }
}

async function fetchFont(url: string): Promise<ArrayBuffer> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`font: HTTP ${response.status}`);
  return response.arrayBuffer();
}

/** Loads once; a failure may be retried. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () => {
    loading ??= load().catch((e: unknown) => {
      loading = null;
      throw e;
    });
    return loading;
  };
}

/** Fetches the report's font once (its TrueType bytes) and adds it to the page for the charts. */
export const loadFontData = once(async (): Promise<Uint8Array> => {
  const { default: url } = await import('@expo-google-fonts/noto-sans-tc/400Regular/NotoSansTC_400Regular.ttf?url');
  const bytes = await fetchFont(url);
  await addToPage(bytes.slice(0));
  return new Uint8Array(bytes);
});

/** Fetches the fallback font once (its TrueType bytes). */
export const loadFallbackFont = once(async (): Promise<Uint8Array> => {
  const { default: url } = await import('@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf?url');
  return new Uint8Array(await fetchFont(url));
});
