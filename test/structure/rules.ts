import { relative, sep } from 'node:path';
import ts from 'typescript';
import { SEMESTERS, YEARS } from '../../core/domain/terms';

/**
 * The rules of where things live, measured on parsed sources: every core call from the screens in a
 * controller, handler tables that only declare, each exported name once, each bound declared once.
 */

/** A place in a file, with what was found there. */
export interface Found {
  file: string;
  line: number;
  what: string;
}

const pathOf = (root: string, source: ts.SourceFile): string => relative(root, source.fileName).split(sep).join('/');

/** Where a node is: its file (relative to the root) and line. */
export const placeOf = (root: string, source: ts.SourceFile, node: ts.Node): { file: string; line: number } => ({
  file: pathOf(root, source),
  line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
});

const at = (root: string, source: ts.SourceFile, node: ts.Node, what: string): Found => ({ ...placeOf(root, source, node), what });

function walk(node: ts.Node, visit: (node: ts.Node) => void): void {
  visit(node);
  ts.forEachChild(node, (child) => walk(child, visit));
}

/** The renderer's ways to the core: a call, a file saved from a call's answer, the desktop's campus link. */
function coreCallName(node: ts.CallExpression): string | null {
  const callee = node.expression;
  // A live read is a call to the core too: it belongs in a controller's hook.
  if (ts.isIdentifier(callee) && (callee.text === 'call' || callee.text === 'campusLink' || callee.text === 'useLive')) return `${callee.text}(…)`;
  if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'transport') {
    return ['call', 'saveFile'].includes(callee.name.text) ? `transport.${callee.name.text}(…)` : null;
  }
  return null;
}

/** Where a renderer module sits: the API client, a controller, a store, a component or page, or a helper. */
const layerOf = (file: string): string => /^renderer\/src\/([a-z]+)\//.exec(file)?.[1] ?? 'app';

/**
 * Calls to the core made outside the API client and the controllers: components and pages receive
 * callbacks or call a controller, and stores hold client state only.
 */
export function coreCallsOutsideControllers(root: string, sources: readonly ts.SourceFile[]): Found[] {
  const found: Found[] = [];
  for (const source of sources) {
    const layer = layerOf(pathOf(root, source));
    if (layer === 'api' || layer === 'controllers') continue;
    walk(source, (node) => {
      const name = ts.isCallExpression(node) ? coreCallName(node) : null;
      if (name) found.push(at(root, source, node, name));
    });
  }
  return found;
}

/** Imports that go against the renderer's direction: a controller or store reaching up into components or pages. */
export function upwardImports(root: string, sources: readonly ts.SourceFile[]): Found[] {
  const found: Found[] = [];
  for (const source of sources) {
    const layer = layerOf(pathOf(root, source));
    if (layer !== 'controllers' && layer !== 'stores' && layer !== 'lib') continue;
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const spec = statement.moduleSpecifier.text;
      if (/(^|\/)(components|pages)\//.test(spec)) found.push(at(root, source, statement, spec));
    }
  }
  return found;
}

/**
 * A handler's body does more than call one service function: a block, a condition, or calls inside
 * calls. A declaration's body is `(ctx, input) => service(ctx, input.field, …)` or a constant.
 */
function behaviourOf(body: ts.ConciseBody): string | null {
  if (ts.isBlock(body)) return body.statements.length === 1 && isDeclarationBody(body.statements[0]) ? null : 'a block of statements';
  return isDeclarationExpression(body) ? null : 'an expression that decides or computes';
}

function isDeclarationBody(statement: ts.Statement | undefined): boolean {
  return statement !== undefined && ts.isReturnStatement(statement) && statement.expression !== undefined && isDeclarationExpression(statement.expression);
}

/** One call of plain arguments, or a value with no call at all. */
function isDeclarationExpression(expression: ts.Expression): boolean {
  let inner = expression;
  while (ts.isParenthesizedExpression(inner) || ts.isAwaitExpression(inner) || ts.isAsExpression(inner)) inner = inner.expression;
  let calls = 0;
  let decides = false;
  walk(inner, (node) => {
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) calls++;
    if (ts.isConditionalExpression(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node)) decides = true;
    if (ts.isBinaryExpression(node) && node.operatorToken.kind !== ts.SyntaxKind.CommaToken) decides = true;
  });
  return !decides && calls <= 1;
}

/** Handlers of the core's operation tables whose bodies hold behaviour (it belongs in the feature's service). */
export function handlersWithBehaviour(root: string, sources: readonly ts.SourceFile[]): Found[] {
  const found: Found[] = [];
  for (const source of sources) {
    walk(source, (node) => {
      if (!ts.isCallExpression(node) || !ts.isIdentifier(node.expression) || node.expression.text !== 'handler') return;
      const run = node.arguments[2];
      if (!run || !(ts.isArrowFunction(run) || ts.isFunctionExpression(run))) return;
      const behaviour = behaviourOf(run.body);
      const table = node.parent && ts.isPropertyAssignment(node.parent) ? node.parent.name.getText(source) : 'handler';
      if (behaviour) found.push(at(root, source, node, `${table}: ${behaviour}`));
    });
  }
  return found;
}

/** A feature's served operations (`defineHandlers`) and those of the desktop app's own (`defineDesktopOnlyHandlers`). */
const HANDLER_MAP_DECLARATIONS = new Set(['defineHandlers', 'defineDesktopOnlyHandlers']);

/** Features with more than one handler table of a kind: one map of each kind per feature. */
export function extraHandlerMaps(root: string, sources: readonly ts.SourceFile[], featureOf: (file: string) => string | null): Found[] {
  const seen = new Map<string, number>();
  const found: Found[] = [];
  for (const source of sources) {
    const feature = featureOf(source.fileName);
    if (!feature) continue;
    walk(source, (node) => {
      if (!ts.isCallExpression(node) || !ts.isIdentifier(node.expression) || !HANDLER_MAP_DECLARATIONS.has(node.expression.text)) return;
      const table = `${feature}: ${node.expression.text}`;
      const count = (seen.get(table) ?? 0) + 1;
      seen.set(table, count);
      if (count > 1) found.push(at(root, source, node, `${feature}: a second handler map (${node.expression.text})`));
    });
  }
  return found;
}

/** The names a module exports as functions (declarations, or constants holding a function). */
function exportedFunctions(source: ts.SourceFile): { name: string; node: ts.Node }[] {
  const out: { name: string; node: ts.Node }[] = [];
  const exported = (node: ts.Node): boolean => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name && exported(statement)) out.push({ name: statement.name.text, node: statement });
    if (ts.isVariableStatement(statement) && exported(statement)) {
      for (const d of statement.declarationList.declarations) {
        const init = d.initializer;
        if (ts.isIdentifier(d.name) && init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) out.push({ name: d.name.text, node: d });
      }
    }
  }
  return out;
}

/** Exported functions of one name in two places of the core (or two places of the renderer): a reader cannot tell which is meant. */
export function duplicateExports(root: string, sources: readonly ts.SourceFile[]): Found[] {
  const byName = new Map<string, Found[]>();
  for (const source of sources) {
    const side = pathOf(root, source).split('/')[0] ?? '';
    for (const { name, node } of exportedFunctions(source)) {
      const key = `${side}:${name}`;
      byName.set(key, [...(byName.get(key) ?? []), at(root, source, node, name)]);
    }
  }
  return [...byName.values()].filter((places) => places.length > 1).flat();
}

const YEAR_BOUNDS = new Set<string>([String(YEARS.min), String(YEARS.max)]);
const SEMESTER_WORDS = new Set<string>(SEMESTERS);

/** A list or union made only of semester names: a second definition of a semester set. */
function semesterSet(node: ts.Node): boolean {
  const items = ts.isArrayLiteralExpression(node)
    ? node.elements.map((e) => (ts.isStringLiteral(e) ? e.text : null))
    : ts.isUnionTypeNode(node)
      ? node.types.map((t) => (ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal) ? t.literal.text : null))
      : [];
  return items.length > 1 && items.every((item) => item !== null && SEMESTER_WORDS.has(item));
}

/**
 * Bounds and term words written a second time outside core/domain, where they are declared once:
 * the year bounds as number literals, a set of semesters as a list or a union of their names.
 */
export function secondBoundDefinitions(root: string, sources: readonly ts.SourceFile[]): Found[] {
  const found: Found[] = [];
  for (const source of sources) {
    if (pathOf(root, source).startsWith('core/domain/')) continue;
    walk(source, (node) => {
      if (ts.isNumericLiteral(node) && YEAR_BOUNDS.has(node.text)) found.push(at(root, source, node, `year bound ${node.text}`));
      else if (semesterSet(node)) found.push(at(root, source, node, `semesters ${node.getText(source)}`));
    });
  }
  return found;
}

/** The query builder's writes (Kysely): a function that calls one changes a table. */
const WRITE_CALLS = new Set(['insertInto', 'updateTable', 'deleteFrom', 'replaceInto', 'mergeInto']);
const WRITE_SQL = /\b(insert\s+into|update\s+\w+\s+set|delete\s+from|truncate)\b/i;
/** The database layer's own writes a repository calls by name (core/db/bulk.ts: many rows in few statements). */
const WRITE_HELPERS = new Set(['bulkInsert']);

/** A module's top-level declarations (functions, and constants such as prepared statements), by name. */
function topLevelDeclarations(source: ts.SourceFile): Map<string, ts.Node> {
  const out = new Map<string, ts.Node>();
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name) out.set(statement.name.text, statement);
    if (ts.isVariableStatement(statement))
      for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name) && d.initializer) out.set(d.name.text, d);
  }
  return out;
}

/**
 * The functions and statements of a repository that change its tables: those that run a write
 * (insertInto, updateTable, deleteFrom, bulkInsert, or SQL that inserts, updates, deletes or truncates), and
 * those that use one of the module's own declarations that does (a prepared statement, a helper).
 */
export function writingFunctions(source: ts.SourceFile): Set<string> {
  const declarations = topLevelDeclarations(source);
  const writes = new Set<string>();
  const uses = new Map<string, Set<string>>();
  for (const [name, declaration] of declarations) {
    const used = new Set<string>();
    walk(declaration, (node) => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && WRITE_CALLS.has(node.expression.name.text)) writes.add(name);
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && WRITE_HELPERS.has(node.expression.text)) writes.add(name);
      if (ts.isTaggedTemplateExpression(node) && WRITE_SQL.test(node.template.getText(source))) writes.add(name);
      if (ts.isIdentifier(node) && node.text !== name && declarations.has(node.text)) used.add(node.text);
    });
    uses.set(name, used);
  }
  for (let grew = true; grew;) {
    grew = false;
    for (const [name, used] of uses)
      if (!writes.has(name) && [...used].some((u) => writes.has(u))) {
        writes.add(name);
        grew = true;
      }
  }
  return writes;
}

/** The names an import declaration brings in as values (not types), each with the name it has in the module it comes from. */
export function importedValues(statement: ts.ImportDeclaration): { imported: string; node: ts.Node }[] {
  const clause = statement.importClause;
  if (!clause || clause.isTypeOnly || !clause.namedBindings || !ts.isNamedImports(clause.namedBindings)) return [];
  return clause.namedBindings.elements.filter((e) => !e.isTypeOnly).map((e) => ({ imported: (e.propertyName ?? e.name).text, node: e }));
}
