/**
 * What a scaffold folder's TypeScript says, read with ts-morph: which operations have a
 * handler and where, what each file imports, and the `handlers` object of `index.ts`.
 * Reading only: edits are computed elsewhere as text insertions at these positions.
 */
import type { ImportDeclaration, ObjectLiteralExpression, SourceFile, VariableStatement } from 'ts-morph';

type TsMorph = typeof import('ts-morph');

export interface HandlerExport {
  operationId: string;
  /** The exported name. */
  name: string;
  statement: VariableStatement;
}

export interface ImportModel {
  declaration: ImportDeclaration;
  specifier: string;
  /** Local names the declaration binds (named, default, namespace). */
  bindings: Array<{ imported: string; local: string }>;
  namespace?: string;
}

export interface FileModel {
  /** Path inside the folder, forward slashes. */
  file: string;
  source: SourceFile;
  text: string;
  imports: ImportModel[];
  handlers: HandlerExport[];
}

export interface IndexModel {
  object: ObjectLiteralExpression;
  /** Operation keys written out in the object (`GetAccounts: ...`, shorthand, methods). */
  keys: Set<string>;
  /** Namespaces spread into it (`...accounts`). */
  spreads: Set<string>;
}

function importModel(declaration: ImportDeclaration): ImportModel {
  const bindings: ImportModel['bindings'] = [];
  for (const named of declaration.getNamedImports()) bindings.push({ imported: named.getName(), local: named.getAliasNode()?.getText() ?? named.getName() });
  const defaultImport = declaration.getDefaultImport();
  if (defaultImport) bindings.push({ imported: 'default', local: defaultImport.getText() });
  const namespace = declaration.getNamespaceImport()?.getText();
  return { declaration, specifier: declaration.getModuleSpecifierValue(), bindings, ...(namespace !== undefined ? { namespace } : {}) };
}

/**
 * Exported `const X: Handlers['Op'] = ...` declarations, where `Handlers` is the name (or an
 * alias) of an imported `Handlers`: the form every scaffold stub has.
 */
function handlerExports(tsMorph: TsMorph, source: SourceFile, imports: ImportModel[]): HandlerExport[] {
  const { Node } = tsMorph;
  const handlerTypes = new Set(imports.flatMap((i) => i.bindings.filter((b) => b.imported === 'Handlers').map((b) => b.local)));
  const out: HandlerExport[] = [];
  if (handlerTypes.size === 0) return out;
  for (const statement of source.getVariableStatements()) {
    if (!statement.isExported()) continue;
    for (const declaration of statement.getDeclarations()) {
      const type = declaration.getTypeNode();
      if (!type || !Node.isIndexedAccessTypeNode(type)) continue;
      if (!handlerTypes.has(type.getObjectTypeNode().getText())) continue;
      const index = type.getIndexTypeNode();
      if (!Node.isLiteralTypeNode(index)) continue;
      const literal = index.getLiteral();
      if (!Node.isStringLiteral(literal) && !Node.isNoSubstitutionTemplateLiteral(literal)) continue;
      out.push({ operationId: literal.getLiteralValue(), name: declaration.getName(), statement });
    }
  }
  return out;
}

export function readFileModel(tsMorph: TsMorph, source: SourceFile, file: string): FileModel {
  const imports = source.getImportDeclarations().map(importModel);
  return { file, source, text: source.getFullText(), imports, handlers: handlerExports(tsMorph, source, imports) };
}

/** The object literal `index.ts` assigns to `handlers` (through `as` / `satisfies` too). */
export function readIndexModel(tsMorph: TsMorph, model: FileModel): IndexModel | undefined {
  const { Node } = tsMorph;
  const declaration = model.source.getVariableDeclaration('handlers');
  let init = declaration?.getInitializer();
  while (init && (Node.isAsExpression(init) || Node.isSatisfiesExpression(init) || Node.isParenthesizedExpression(init))) init = init.getExpression();
  if (!init || !Node.isObjectLiteralExpression(init)) return undefined;
  const keys = new Set<string>();
  const spreads = new Set<string>();
  for (const property of init.getProperties()) {
    if (Node.isSpreadAssignment(property)) spreads.add(property.getExpression().getText());
    else if (Node.isPropertyAssignment(property) || Node.isShorthandPropertyAssignment(property) || Node.isMethodDeclaration(property)) {
      const nameNode = property.getNameNode();
      keys.add(Node.isStringLiteral(nameNode) || Node.isNoSubstitutionTemplateLiteral(nameNode) ? nameNode.getLiteralValue() : nameNode.getText());
    }
  }
  return { object: init, keys, spreads };
}

/** 1-based line of a position. */
export function lineOf(text: string, pos: number): number {
  let line = 1;
  for (let i = 0; i < pos && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Start of the line holding `pos`. */
export function lineStart(text: string, pos: number): number {
  return text.lastIndexOf('\n', pos - 1) + 1;
}
