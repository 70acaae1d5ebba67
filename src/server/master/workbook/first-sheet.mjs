// @ts-check

/**
 * The path in the archive of the sheet the import reads, and its name, found the way the format
 * says: the package's relationships name the workbook part, the workbook lists its sheets in
 * order, and the workbook's relationships name each sheet's part. The sheet is the one named
 * `preferred` (QE's template and export name theirs), else the first one a school can see: a
 * hidden sheet in front (a list of choices, an old copy) is not what anyone filled in. Null when
 * the archive does not say (then every sheet is treated as possibly the one).
 * @param {(path: string) => string | undefined} text  a part's text by its lower-case path
 * @param {string} [preferred]  a sheet name to read if the workbook has it
 * @returns {{ path: string, name: string } | null}  path in lower case
 */
export function firstSheetPath(text, preferred) {
  const rootRels = text('_rels/.rels');
  if (!rootRels) return null;
  const office = relationships(rootRels).find((r) => /\/officeDocument$/.test(r.type));
  if (!office) return null;
  const workbookPath = resolve('', office.target);
  const workbook = text(workbookPath);
  const folder = workbookPath.includes('/') ? workbookPath.slice(0, workbookPath.lastIndexOf('/') + 1) : '';
  const rels = text(`${folder}_rels/${workbookPath.slice(folder.length)}.rels`);
  if (!workbook || !rels) return null;
  const sheets = [];
  for (const [element] of workbook.matchAll(/<(?:[\w.-]+:)?sheet\s[^>]*>/g)) {
    const id = /\b[\w.-]+:id\s*=\s*["']([^"']*)["']/.exec(element)?.[1];
    const name = /\sname\s*=\s*["']([^"']*)["']/.exec(element)?.[1] ?? '';
    const state = /\sstate\s*=\s*["']([^"']*)["']/.exec(element)?.[1] ?? 'visible';
    if (id) sheets.push({ id, name: unescapeXml(name), hidden: state !== 'visible' });
  }
  const sheet = sheets.find((s) => preferred !== undefined && s.name === preferred) ?? sheets.find((s) => !s.hidden) ?? sheets[0];
  if (!sheet) return null;
  const target = relationships(rels).find((r) => r.id === sheet.id);
  return target ? { path: resolve(folder, target.target), name: sheet.name } : null;
}

/** @param {string} text */
function unescapeXml(text) {
  return text.replace(/&(lt|gt|quot|apos|amp);/g, (_, e) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e]);
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
