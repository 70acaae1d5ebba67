/**
 * The Traditional Chinese TrueType font of the PDF report (Noto Sans TC, regular), loaded on
 * demand: the ~7 MB file is a Vite asset of its own, fetched only when a PDF screen opens, never
 * part of the first bundle. jsPDF embeds only the glyphs a report uses (Identity-H subset).
 */
import type { jsPDF } from 'jspdf';

/** The family name the report's text is set in (jsPDF) and its charts are drawn with (canvas). */
export const PDF_FONT = 'QeNotoSansTC';
const FONT_FILE = 'NotoSansTC-Regular.ttf';

/** Bytes → base64, in slices (a 7 MB font would overflow one String.fromCharCode call). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const slice = 0x8000;
  for (let i = 0; i < bytes.length; i += slice) binary += String.fromCharCode(...bytes.subarray(i, i + slice));
  return btoa(binary);
}

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

let loading: Promise<string> | null = null;

/** Fetches the font once (base64, as jsPDF's virtual file system takes it); a failure may be retried. */
export function loadFontData(): Promise<string> {
  loading ??= (async () => {
    const { default: fontUrl } = await import('@expo-google-fonts/noto-sans-tc/400Regular/NotoSansTC_400Regular.ttf?url');
    const response = await fetch(fontUrl);
    if (!response.ok) throw new Error(`font: HTTP ${response.status}`);
    const bytes = await response.arrayBuffer();
    await addToPage(bytes.slice(0));
    return toBase64(new Uint8Array(bytes));
  })().catch((e: unknown) => {
    loading = null;
    throw e;
  });
  return loading;
}

/** Adds the font to one document (jsPDF keeps fonts per document) and selects it. */
export function applyFont(doc: jsPDF, fontData: string): void {
  doc.addFileToVFS(FONT_FILE, fontData);
  doc.addFont(FONT_FILE, PDF_FONT, 'normal', 'normal', 'Identity-H');
  doc.setFont(PDF_FONT, 'normal');
}
