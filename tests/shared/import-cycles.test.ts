import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No module of src/ imports itself through others (docs/conventions.md): a cycle makes the order
 * modules load in decide what is defined, and says two areas are one. Type-only imports count
 * too — they are seams in the wrong place as much as value imports are.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The file a relative specifier names (`./x.js` is `./x.ts`, a folder its index), or null for a package. */
function resolved(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ''));
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx'), base]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    graph.set(file, importedFiles.map((i) => resolved(file, i.fileName)).filter((f): f is string => f !== null && f.startsWith(join(root, 'src'))));
  }
  return graph;
}

/** Every cycle found by a depth-first walk, each as the files in it (the first again at the end). */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const walk = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) walk(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) walk(file);
  return found;
}

describe('the modules of src/', () => {
  it('import one another without a cycle', () => {
    const graph = importGraph(sources(join(root, 'src')));
    expect(graph.size).toBeGreaterThan(100);
    expect(cycles(graph).map((c) => c.map((f) => relative(root, f)).join(' → '))).toEqual([]);
  });

  it('leave the client to the client: nothing of src/server or src/shared imports from src/client', () => {
    const graph = importGraph(sources(join(root, 'src')));
    const client = join(root, 'src/client');
    const crossing = [...graph]
      .filter(([file]) => !file.startsWith(client))
      .flatMap(([file, imports]) => imports.filter((i) => i.startsWith(client)).map((i) => `${relative(root, file)} → ${relative(root, i)}`));
    expect(crossing).toEqual([]);
  });

  it('finds a cycle where there is one', () => {
    const a = join(root, 'src/a.ts');
    const b = join(root, 'src/b.ts');
    const c = join(root, 'src/c.ts');
    expect(cycles(new Map([[a, [b]], [b, [c]], [c, [a]]]))).toEqual([[a, b, c, a]]);
    expect(cycles(new Map([[a, [b, c]], [b, [c]], [c, []]]))).toEqual([]);
  });
});
