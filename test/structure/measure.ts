import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { READ_AREAS } from '../../core/domain/reads';
import {
  coreCallsOutsideControllers,
  duplicateExports,
  extraHandlerMaps,
  handlersWithBehaviour,
  importedValues,
  placeOf,
  secondBoundDefinitions,
  upwardImports,
  writingFunctions,
  type Found,
} from './rules';

/**
 * Core folders that are features (own tables, services and handlers), as the lint rule reads them
 * (core/features.json of this checkout, also when measuring another). The others (domain, db,
 * import, util, files, http) are shared layers every feature may use.
 */
export const CORE_FEATURES: readonly string[] = (
  JSON.parse(readFileSync(new URL('../../core/features.json', import.meta.url), 'utf8')) as { features: string[] }
).features;

/** What one feature may import from another: its public surface (index) and its repositories (as the lint rule). */
export function isPublicModule(moduleInFeature: string): boolean {
  return moduleInFeature === 'index' || moduleInFeature === 'repo' || moduleInFeature.endsWith('-repo');
}

export interface Sized {
  name: string;
  file: string;
  line: number;
  lines: number;
}

export interface FeatureImport {
  from: string;
  to: string;
}

/** A call found in a file: a statement run on a database, or a read asked without following it. */
export interface Call {
  file: string;
  line: number;
  call: string;
}

export interface StructureReport {
  functions: Sized[];
  /** Reads the screens follow asked with call() instead of a live read: they would not follow writes. */
  readsOutsideLive: Call[];
  /** Database calls (a built query, raw sql`…`, prepare, pragma) outside repositories and core/db: SQL lives only in repos. */
  sqlOutsideRepos: Call[];
  components: Sized[];
  crossFeature: FeatureImport[];
  internalImports: FeatureImport[];
  cycles: string[][];
  /** Features that depend on each other round a loop (each a group of features). */
  featureCycles: string[][];
  /**
   * Imports that go up the layers: a shared layer (the runner, the context, db, domain, util, files,
   * import) importing a feature. Only the composition (core/index.ts, handlers.ts, serve.ts) and the
   * transport (core/http) sit above the features.
   */
  layerImports: FeatureImport[];
  /**
   * Another feature's repository write functions imported by a feature: a feature writes only its
   * own tables, and changes another's through that feature's service (its index).
   */
  foreignRepoWrites: Found[];
  /** Calls to the core from components, pages or stores (they belong in a controller). */
  coreCallsOutsideControllers: Found[];
  /** Controllers, stores or helpers importing components or pages. */
  upwardImports: Found[];
  /** Handler bodies that do more than call one service function. */
  handlersWithBehaviour: Found[];
  /** A feature's second handler map. */
  extraHandlerMaps: Found[];
  /** Exported functions sharing a name (core with core, renderer with renderer). */
  duplicateExports: Found[];
  /** Year bounds or semester sets written again outside core/domain. */
  secondBoundDefinitions: Found[];
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function functionName(node: ts.Node): string | null {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) return node.name.getText();
  if (!ts.isArrowFunction(node) && !ts.isFunctionExpression(node)) return null;
  if (ts.isFunctionExpression(node) && node.name) return node.name.getText();
  if (ts.isVariableDeclaration(node.parent) || ts.isPropertyAssignment(node.parent)) return node.parent.name.getText();
  // A component wrapped as it is declared: const X = memo((props) => …).
  const call = node.parent;
  if (ts.isCallExpression(call) && ts.isVariableDeclaration(call.parent)) return call.parent.name.getText();
  return null;
}

/** Each file parsed once per measure, whatever is read of it. */
type Parse = (file: string) => ts.SourceFile;
function parser(): Parse {
  const parsed = new Map<string, ts.SourceFile>();
  return (file) => {
    let source = parsed.get(file);
    if (!source)
      parsed.set(
        file,
        (source = ts.createSourceFile(
          file,
          readFileSync(file, 'utf8'),
          ts.ScriptTarget.Latest,
          true,
          file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
        )),
      );
    return source;
  };
}

function sizes(root: string, source: ts.SourceFile): Sized[] {
  const found: Sized[] = [];
  const visit = (node: ts.Node): void => {
    const name = functionName(node);
    if (name) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ name, file: relative(root, source.fileName).split(sep).join('/'), line: start + 1, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The calls (and tagged templates) in a file that `named` gives a name to (what the report lists for each). */
function callsIn(root: string, source: ts.SourceFile, named: (call: ts.CallExpression | ts.TaggedTemplateExpression) => string | null): Call[] {
  const found: Call[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) || ts.isTaggedTemplateExpression(node)) {
      const call = named(node);
      if (call !== null) found.push({ ...placeOf(root, source, node), call });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The query builder's ways into SQL (Kysely), and better-sqlite3's own. */
const SQL_METHODS = new Set(['selectFrom', 'insertInto', 'updateTable', 'deleteFrom', 'replaceInto', 'mergeInto', 'prepare', 'pragma']);

/** SQL run by the file itself: a query built (`db.selectFrom(…)`, …), raw SQL (`sql\`…\``) or better-sqlite3's `prepare`/`pragma`. */
const sqlCall = (node: ts.CallExpression | ts.TaggedTemplateExpression): string | null => {
  if (ts.isTaggedTemplateExpression(node)) {
    const tag = node.tag;
    const name = ts.isIdentifier(tag) ? tag.text : ts.isCallExpression(tag) && ts.isIdentifier(tag.expression) ? tag.expression.text : null;
    return name === 'sql' ? 'sql`…`' : null;
  }
  const callee = node.expression;
  if (ts.isPropertyAccessExpression(callee)) return SQL_METHODS.has(callee.name.text) ? callee.name.text : null;
  return null;
};

/** A followed read asked with `call('<read>', …)` rather than through useLive. */
const plainRead =
  (reads: ReadonlySet<string>) =>
  (node: ts.CallExpression | ts.TaggedTemplateExpression): string | null => {
    if (!ts.isCallExpression(node)) return null;
    const first = node.arguments[0];
    return ts.isIdentifier(node.expression) && node.expression.text === 'call' && first && ts.isStringLiteral(first) && reads.has(first.text)
      ? first.text
      : null;
  };

/** Files allowed to hold SQL: repositories, and the connection and migrations of core/db. */
function holdsSql(root: string, file: string): boolean {
  const path = relative(join(root, 'core'), file).split(sep);
  const name = (path[path.length - 1] ?? '').replace(/\.tsx?$/, '');
  return path[0] === 'db' || (isPublicModule(name) && name !== 'index');
}

function relativeImports(source: ts.SourceFile): string[] {
  const out: string[] = [];
  for (const statement of source.statements) {
    if (
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      const spec = statement.moduleSpecifier.text;
      if (spec.startsWith('.')) out.push(spec);
    }
  }
  return out;
}

function resolveModule(fromFile: string, spec: string): string | null {
  const base = resolve(dirname(fromFile), spec.replace(/\.js$/, ''));
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) if (existsSync(candidate)) return candidate;
  return null;
}

/** Strongly connected groups of more than one module (Tarjan), each a cycle of imports. */
function importCycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      for (let member = stack.pop(); member !== undefined; member = member === node ? undefined : stack.pop()) {
        onStack.delete(member);
        group.push(member);
      }
      if (group.length > 1) cycles.push(group.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) connect(node);
  return cycles;
}

export function measureStructure(root: string): StructureReport {
  const parse = parser();
  const coreFiles = sourceFiles(join(root, 'core'));
  const rendererFiles = sourceFiles(join(root, 'renderer', 'src'));
  const functions = [...coreFiles, ...sourceFiles(join(root, 'electron'))].flatMap((f) => sizes(root, parse(f))).sort((a, b) => b.lines - a.lines);
  const components = rendererFiles
    .flatMap((f) => sizes(root, parse(f)))
    .filter((f) => /^[A-Z]|^use[A-Z]/.test(f.name))
    .sort((a, b) => b.lines - a.lines);

  const features = new Set<string>(CORE_FEATURES);
  const corePath = (file: string): string => relative(join(root, 'core'), file).split(sep).join('/');
  /** The feature a core file sits in, at any depth (core/solver/search.ts is the solver's). */
  const featureFolderOf = (file: string): string | null => {
    const first = corePath(file).split('/')[0] as string;
    return features.has(first) ? first : null;
  };
  const ABOVE_FEATURES = /^(index|handlers|serve)\.ts$|^http\//;
  const inSharedLayer = (file: string): boolean => featureFolderOf(file) === null && !ABOVE_FEATURES.test(corePath(file));
  const featureOf = (file: string): { feature: string; module: string } | null => {
    const parts = relative(join(root, 'core'), file).split(sep);
    if (parts.length !== 2 || !features.has(parts[0] as string)) return null;
    return { feature: parts[0] as string, module: (parts[1] as string).replace(/\.tsx?$/, '') };
  };
  const crossFeature: FeatureImport[] = [];
  const layerImports: FeatureImport[] = [];
  const graph = new Map<string, string[]>();
  for (const file of coreFiles) {
    const from = featureOf(file);
    const targets: string[] = [];
    for (const spec of relativeImports(parse(file))) {
      const target = resolveModule(file, spec);
      if (!target) continue;
      targets.push(target);
      const to = featureOf(target);
      if (from && to && from.feature !== to.feature) crossFeature.push({ from: `${from.feature}/${from.module}`, to: `${to.feature}/${to.module}` });
      if (inSharedLayer(file) && featureFolderOf(target) !== null) layerImports.push({ from: corePath(file), to: corePath(target) });
    }
    graph.set(file, targets);
  }
  const liveModule = join(root, 'renderer', 'src', 'api', 'live.ts');
  const isPlainRead = plainRead(new Set(Object.keys(READ_AREAS)));
  const readsOutsideLive = rendererFiles.filter((f) => f !== liveModule).flatMap((f) => callsIn(root, parse(f), isPlainRead));
  const sqlOutsideRepos = coreFiles.filter((f) => !holdsSql(root, f)).flatMap((f) => callsIn(root, parse(f), sqlCall));
  const featureGraph = new Map<string, string[]>([...features].map((f) => [f, []]));
  for (const i of crossFeature) {
    const [from, to] = [i.from.split('/')[0] as string, i.to.split('/')[0] as string];
    const targets = featureGraph.get(from) ?? [];
    if (!targets.includes(to)) targets.push(to);
  }
  const featureCycles = importCycles(featureGraph);
  const foreignRepoWrites: Found[] = [];
  const writesOf = new Map<string, Set<string>>();
  for (const file of coreFiles) {
    const from = featureFolderOf(file);
    if (from === null) continue;
    const source = parse(file);
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier) || !statement.moduleSpecifier.text.startsWith('.')) continue;
      const target = resolveModule(file, statement.moduleSpecifier.text);
      const to = target === null ? null : featureOf(target);
      if (target === null || to === null || to.feature === from || to.module === 'index' || !isPublicModule(to.module)) continue;
      let writes = writesOf.get(target);
      if (!writes) writesOf.set(target, (writes = writingFunctions(parse(target))));
      for (const { imported, node } of importedValues(statement))
        if (writes.has(imported)) foreignRepoWrites.push({ ...placeOf(root, source, node), what: `${imported} from ${to.feature}/${to.module}` });
    }
  }
  const cycles = importCycles(graph).map((c) => c.map((f) => relative(root, f).split(sep).join('/')));
  const internalImports = crossFeature.filter((i) => !isPublicModule(i.to.split('/')[1] as string));
  const coreSources = coreFiles.map(parse);
  const rendererSources = rendererFiles.map(parse);
  const electronSources = sourceFiles(join(root, 'electron')).map(parse);
  return {
    functions,
    readsOutsideLive,
    sqlOutsideRepos,
    components,
    crossFeature,
    internalImports,
    cycles,
    featureCycles,
    layerImports,
    foreignRepoWrites,
    coreCallsOutsideControllers: coreCallsOutsideControllers(root, rendererSources),
    upwardImports: upwardImports(root, rendererSources),
    handlersWithBehaviour: handlersWithBehaviour(root, coreSources),
    extraHandlerMaps: extraHandlerMaps(root, coreSources, (file) => {
      const parts = relative(join(root, 'core'), file).split(sep);
      return parts.length === 2 && features.has(parts[0] as string) ? (parts[0] as string) : null;
    }),
    duplicateExports: duplicateExports(root, [...coreSources, ...rendererSources]),
    secondBoundDefinitions: secondBoundDefinitions(root, [...coreSources, ...rendererSources, ...electronSources]),
  };
}
