import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The pages a newcomer reads stay true: the README is short and every page's links lead somewhere;
 * docs/architecture.md names every feature of core/features.json, and the function its worked
 * example tells a reader to add a rule to is one every checked write of a meeting calls.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const page = readFileSync(resolve(ROOT, 'docs/architecture.md'), 'utf8');
const features = (JSON.parse(readFileSync(resolve(ROOT, 'core/features.json'), 'utf8')) as { features: string[] }).features;

/** The text of one `## ` section of the page. */
function section(heading: string): string {
  const start = page.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/architecture.md has no "## ${heading}" section`);
  const end = page.indexOf('\n## ', start + 1);
  return page.slice(start, end < 0 ? undefined : end);
}

const source = (file: string): ts.SourceFile => ts.createSourceFile(file, readFileSync(resolve(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);

/** Each function declared at the top of a module, with the names it calls. */
function callsByFunction(file: ts.SourceFile): Map<string, Set<string>> {
  const calls = new Map<string, Set<string>>();
  for (const statement of file.statements) {
    if (!ts.isFunctionDeclaration(statement) || !statement.name) continue;
    const called = new Set<string>();
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) called.add(node.expression.text);
      ts.forEachChild(node, visit);
    };
    visit(statement);
    calls.set(statement.name.text, called);
  }
  return calls;
}

/** Whether `from` calls `target`, itself or through the module's own functions. */
function reaches(calls: ReadonlyMap<string, ReadonlySet<string>>, from: string, target: string): boolean {
  const seen = new Set<string>();
  const waiting = [from];
  while (waiting.length > 0) {
    const name = waiting.pop() as string;
    if (seen.has(name)) continue;
    seen.add(name);
    for (const called of calls.get(name) ?? []) {
      if (called === target) return true;
      if (calls.has(called)) waiting.push(called);
    }
  }
  return false;
}

describe('the architecture page', () => {
  it('names every feature of core/features.json', () => {
    const named = section('The features');
    expect(features.length).toBeGreaterThan(0);
    expect(features.filter((feature) => !named.includes(`\`core/${feature}/\``))).toEqual([]);
  });

  it("has its worked example's function called by every write of a meeting the write path names", () => {
    const example = section('Where a new rule goes');
    const [, ruleFile, ruleFunction] = /in `(core\/[\w/-]+\.ts)`[^`]*?add it to `(\w+)`/s.exec(example) ?? [];
    expect(ruleFile, 'the worked example names a file and the function a rule is added to').toBeDefined();
    const rules = source(ruleFile as string);
    expect(callsByFunction(rules).has(ruleFunction as string), `${ruleFunction} is a function of ${ruleFile}`).toBe(true);
    // Step 4 of the write path names the functions that write a meeting and the module they are in.
    const write = /4\. \*\*Write\.\*\*([^\n]*\n)+?/.exec(section('The write path'))?.[0] ?? '';
    const [, writeFile] = /in `(core\/[\w/-]+\.ts)`/.exec(write) ?? [];
    const writers = [...write.matchAll(/`(\w+)`/g)].map((m) => m[1] as string).filter((name) => name !== writeFile);
    expect(writers.length, 'the write path names its writing functions').toBeGreaterThan(0);
    const calls = callsByFunction(source(writeFile as string));
    for (const writer of writers) expect(calls.has(writer), `${writer} is a function of ${writeFile}`).toBe(true);
    // A delete checks nothing; every write that stores a meeting reaches the rules.
    const storing = writers.filter((writer) => !/^delete/.test(writer));
    expect(storing.length).toBeGreaterThan(0);
    expect(storing.filter((writer) => !reaches(calls, writer, ruleFunction as string))).toEqual([]);
  });

  it('gives in its Words section only paths and names of code that exist', () => {
    const words = section('Words');
    const paths = [...words.matchAll(/`(core\/[\w/.-]+)`/g)].map((m) => m[1] as string);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.filter((path) => !existsSync(resolve(ROOT, path)))).toEqual([]);
    // Names in the code's camelCase (functions, parameters): each is found in core/.
    const code = readdirSync(resolve(ROOT, 'core'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => readFileSync(resolve(ROOT, 'core', file), 'utf8'))
      .join('\n');
    const names = [...words.matchAll(/`([a-z]+[A-Z]\w*)`/g)].map((m) => m[1] as string);
    expect(names).toEqual(expect.arrayContaining(['publishChanges', 'publishListing']));
    expect(names.filter((name) => !new RegExp(`\\b${name}\\b`).test(code))).toEqual([]);
  });
});

describe('the README and the docs', () => {
  const pages = [
    'README.md',
    ...readdirSync(resolve(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];

  it('keeps the README within 150 lines, with the two commands and no solver table', () => {
    const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(150);
    expect(readme).toMatch(/^npm ci\b/m);
    expect(readme).toMatch(/^npm run serve\b/m);
    expect(readme).toMatch(/^npm test\b/m);
    expect(readme).not.toMatch(/\| seed 1 \|/);
  });

  it('has every link to a file or image of the repository lead to one that exists', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const pageFile of pages) {
      const text = readFileSync(resolve(ROOT, pageFile), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (target === undefined || /^[a-z]+:/.test(target)) continue;
        checked++;
        if (!existsSync(resolve(ROOT, dirname(pageFile), target))) broken.push(`${pageFile} → ${target}`);
      }
    }
    expect(checked).toBeGreaterThan(10);
    expect(broken).toEqual([]);
  });
});
