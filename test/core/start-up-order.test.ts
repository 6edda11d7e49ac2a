import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The composition root builds each part before the parts that use it. A closure over a `const` declared
// further down (the technicians' transport over `connection`, once) compiles and works until the day it
// is called early: then it throws "Cannot access before initialization". A loop the parts do need is made
// explicit instead (wiring.ts, lateBound).
const file = path.resolve(import.meta.dirname, '../../electron/core/services.ts');

/** Names used in createServices before the line that declares them. */
function usedBeforeDeclared(source: ts.SourceFile): string[] {
  let body: ts.Block | undefined;
  source.forEachChild((node) => {
    if (ts.isFunctionDeclaration(node) && node.name?.text === 'createServices') body = node.body;
  });
  if (!body) throw new Error('createServices was not found');
  const declared = new Map<string, number>();
  for (const statement of body.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const names = (name: ts.BindingName): void => {
      if (ts.isIdentifier(name)) declared.set(name.text, statement.getStart(source));
      else for (const element of name.elements) if (!ts.isOmittedExpression(element)) names(element.name);
    };
    for (const declaration of statement.declarationList.declarations) names(declaration.name);
  }
  const early: string[] = [];
  const visit = (node: ts.Node): void => {
    const parent = node.parent;
    const isKey =
      (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
      (ts.isPropertyAssignment(parent) && parent.name === node) ||
      (ts.isBindingElement(parent) && parent.propertyName === node);
    if (ts.isIdentifier(node) && !isKey) {
      const at = declared.get(node.text);
      if (at !== undefined && node.getStart(source) < at) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        early.push(`${node.text} (line ${line + 1})`);
      }
    }
    node.forEachChild(visit);
  };
  body.forEachChild(visit);
  return early;
}

describe('the start-up', () => {
  it('builds each part of createServices before any part that names it', () => {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    expect(usedBeforeDeclared(source)).toEqual([]);
  });
});
