import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The repository documents itself in docs/: code comments point there (`docs/<file>.md#<heading>`),
 * never to documents outside the repository, and what the documents name exists.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SOURCE_DIRS = ['src', 'tests', 'scripts'];
const SOURCE_EXTENSIONS = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs']);
/** What codegen writes from the fixture schema (git-ignored, made while the tests run). */
const SKIPPED = [join('tests', 'fixtures', 'generated')];

function filesUnder(dir: string, keep: (path: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (SKIPPED.some((s) => relative(root, path).startsWith(s)) || name === 'node_modules') return [];
    return statSync(path).isDirectory() ? filesUnder(path, keep) : keep(path) ? [path] : [];
  });
}

/** Every comment of a source file, with its line, found by TypeScript's parser (strings, templates, regular expressions and JSX text are not comments). */
function commentsOf(path: string): { line: number; text: string }[] {
  const text = readFileSync(path, 'utf8');
  const ext = extname(path);
  const kind = ext === '.tsx' ? ts.ScriptKind.TSX : ext === '.ts' || ext === '.mts' || ext === '.cts' ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const seen = new Map<number, { line: number; text: string }>();
  const visit = (node: ts.Node) => {
    if (node.kind !== ts.SyntaxKind.JsxText) {
      for (const range of ts.getLeadingCommentRanges(text, node.pos) ?? []) {
        if (!seen.has(range.pos)) seen.set(range.pos, { line: source.getLineAndCharacterOfPosition(range.pos).line + 1, text: text.slice(range.pos, range.end) });
      }
    }
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...seen.values()];
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => slug(m[1])));
}

/** A file of the repository (and a heading of it) → what is wrong with the reference, or null. */
function brokenTarget(file: string, anchor: string | undefined): string | null {
  if (!existsSync(file)) return 'no such file';
  if (anchor && extname(file) === '.md' && !anchorsOf(file).has(anchor)) return `no heading #${anchor}`;
  return null;
}

/** A reference to a document outside the repository: the founding design, the product specification, an issue, or a section number of either. */
const OUTSIDE = /DESIGN\.md|\bDESIGN\s*§|\bspec\s*§|§\s*\d|product-spec|\bissue\s+#?\d+/i;

const sources = SOURCE_DIRS.flatMap((d) => filesUnder(join(root, d), (p) => SOURCE_EXTENSIONS.has(extname(p))));
const comments = sources.flatMap((file) => commentsOf(file).map((c) => ({ ...c, where: `${relative(root, file)}:${c.line}` })));

describe('comments', () => {
  it('are found in the sources (the scan works)', () => {
    expect(sources.length).toBeGreaterThan(300);
    expect(comments.length).toBeGreaterThan(1000);
  });

  it('cite no document outside the repository: they point to docs/ instead', () => {
    const outside = comments.filter((c) => OUTSIDE.test(c.text)).map((c) => `${c.where}: ${c.text.match(OUTSIDE)![0]}`);
    expect(outside).toEqual([]);
  });

  it('name only documents of docs/ that exist, and headings those documents have', () => {
    const broken: string[] = [];
    let named = 0;
    for (const c of comments) {
      for (const m of c.text.matchAll(/\bdocs\/([\w./-]+\.md)(?:#([\w-]+))?/g)) {
        named++;
        const problem = brokenTarget(join(root, 'docs', m[1]), m[2]);
        if (problem) broken.push(`${c.where}: ${m[0]}: ${problem}`);
      }
    }
    expect(broken).toEqual([]);
    expect(named).toBeGreaterThan(50);
  });
});

describe('the documents of docs/', () => {
  const docs = filesUnder(join(root, 'docs'), (p) => extname(p) === '.md');

  it('are there', () => {
    expect(docs.map((d) => relative(join(root, 'docs'), d).replace(/\\/g, '/')).sort()).toEqual(
      expect.arrayContaining(['README.md', 'architecture.md', 'conventions.md', 'errors.md', 'product-rules.md', 'recipes/add-master-entity.md', 'recipes/add-permission.md', 'recipes/add-question-type.md', 'recipes/add-statistics-summary.md']),
    );
  });

  it('link to documents and headings that exist', () => {
    const broken: string[] = [];
    for (const doc of docs) {
      const text = readFileSync(doc, 'utf8');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1];
        if (/^[a-z]+:/i.test(target)) continue; // http(s), mailto
        const [path, anchor] = target.split('#');
        const file = path ? resolve(dirname(doc), path) : doc;
        const problem = brokenTarget(file, anchor);
        if (problem) broken.push(`${relative(root, doc)}: ${target}: ${problem}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('name files and folders of the repository that exist', () => {
    const missing: string[] = [];
    for (const doc of docs) {
      const text = readFileSync(doc, 'utf8');
      for (const m of text.matchAll(/`((?:src|tests|scripts|schemas|docs)\/[^`\s]*)`/g)) {
        const path = m[1].replace(/#.*$/, '');
        if (/[<>*…{}]/.test(path)) continue; // a pattern (src/server/<area>/), not a path
        if (!existsSync(join(root, path))) missing.push(`${relative(root, doc)}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
