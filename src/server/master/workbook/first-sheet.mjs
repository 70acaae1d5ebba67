// @ts-check

/**
 * The path in the archive of a workbook's first sheet — the one the import reads — found the way
 * the format says: the package's relationships name the workbook part, the workbook lists its
 * sheets in order, and the workbook's relationships name each sheet's part. Null when the
 * archive does not say (then every sheet is treated as possibly the first).
 * @param {(path: string) => string | undefined} text  a part's text by its lower-case path
 * @returns {string | null}  lower-case path
 */
export function firstSheetPath(text) {
  const rootRels = text('_rels/.rels');
  if (!rootRels) return null;
  const office = relationships(rootRels).find((r) => /\/officeDocument$/.test(r.type));
  if (!office) return null;
  const workbookPath = resolve('', office.target);
  const workbook = text(workbookPath);
  const folder = workbookPath.includes('/') ? workbookPath.slice(0, workbookPath.lastIndexOf('/') + 1) : '';
  const rels = text(`${folder}_rels/${workbookPath.slice(folder.length)}.rels`);
  if (!workbook || !rels) return null;
  const sheet = /<(?:[\w.-]+:)?sheet\s[^>]*?\b[\w.-]+:id\s*=\s*["']([^"']*)["']/.exec(workbook);
  if (!sheet) return null;
  const target = relationships(rels).find((r) => r.id === sheet[1]);
  return target ? resolve(folder, target.target) : null;
}

/** @param {string} xml */
function relationships(xml) {
  const found = [];
  for (const [element] of xml.matchAll(/<(?:[\w.-]+:)?Relationship\s[^>]*>/g)) {
    const attribute = (name) => new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`).exec(element)?.[1] ?? '';
    found.push({ id: attribute('Id'), type: attribute('Type'), target: attribute('Target') });
  }
  return found;
}

/** A relationship's target as a lower-case path from the archive's root. */
function resolve(folder, target) {
  const parts = [];
  for (const part of (target.startsWith('/') ? target.slice(1) : folder + target).split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/').toLowerCase();
}
