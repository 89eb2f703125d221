// The project's import graph as the checks read it: src/server/import-cycles.test.ts (no circle)
// and scripts/lint/boundaries.ts (no server values in client or agent code).
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

export const srcDir = path.resolve(import.meta.dirname, "..");

export function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

/** The file a relative or `@/` specifier names, as the bundler resolution of tsconfig finds it. */
export function resolveImport(from: string, specifier: string): string | undefined {
  let base: string;
  if (specifier.startsWith("@/")) base = path.join(srcDir, specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
  else return undefined;
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")];
  return candidates.find((file) => /\.tsx?$/.test(file) && fs.existsSync(file) && fs.statSync(file).isFile());
}

export type ImportRef = { specifier: string; line: number; isTypeOnly: boolean };

/** Every import and re-export of a file's text, and whether it brings in only types. */
export function importsIn(fileName: string, text: string): ImportRef[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const refs: ImportRef[] = [];
  const add = (literal: ts.Node, isTypeOnly: boolean) => {
    if (!ts.isStringLiteral(literal)) return;
    const line = source.getLineAndCharacterOfPosition(literal.getStart()).line + 1;
    refs.push({ specifier: literal.text, line, isTypeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const isTypeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            bindings !== undefined &&
            ts.isNamedImports(bindings) &&
            bindings.elements.every((element) => element.isTypeOnly)));
      add(node.moduleSpecifier, isTypeOnly);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      const clause = node.exportClause;
      const isTypeOnly =
        node.isTypeOnly ||
        (clause !== undefined && ts.isNamedExports(clause) && clause.elements.every((element) => element.isTypeOnly));
      add(node.moduleSpecifier, isTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      if (node.arguments[0]) add(node.arguments[0], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return refs;
}
