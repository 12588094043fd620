// returns.cjs <typescript.js> <tsconfig.json> <module.js>...: prints, as
// JSON, the return type TypeScript gives each function a module exports
// (awaited; object types by property, types of the DOM library by name).
// engine_results_test.go compares them with the Go types the results
// are decoded into.
const ts = require(process.argv[2]);
const cfgPath = process.argv[3];
const entries = process.argv.slice(4);
const cfg = ts.getParsedCommandLineOfConfigFile(cfgPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } });
const program = ts.createProgram(cfg.fileNames, cfg.options);
const checker = program.getTypeChecker();
const F = ts.TypeFlags;
function describe(t, depth) {
  if (depth > 5) return { kind: 'any' };
  if (t.flags & (F.Any | F.Unknown)) return { kind: 'any' };
  if (t.flags & F.StringLike) return { kind: 'string' };
  if (t.flags & F.NumberLike) return { kind: 'number' };
  if (t.flags & F.BooleanLike) return { kind: 'boolean' };
  if (t.flags & (F.Null | F.Undefined | F.Void)) return { kind: 'null' };
  if (t.isUnion()) {
    return { kind: 'union', of: t.types.map((u) => describe(u, depth + 1)) };
  }
  const promised = checker.getPromisedTypeOfPromise(t);
  if (promised) return describe(promised, depth);
  if (checker.isArrayType(t) || checker.isTupleType(t)) {
    const args = checker.getTypeArguments(t);
    return { kind: 'array', of: args.length ? describe(args[0], depth + 1) : { kind: 'any' } };
  }
  if (t.flags & F.Object) {
    const sym = t.getSymbol() || t.aliasSymbol;
    const d0 = sym && sym.declarations && sym.declarations[0];
    if (d0 && d0.getSourceFile().hasNoDefaultLib) return { kind: 'lib', name: sym.name };
    const props = {};
    for (const p of checker.getPropertiesOfType(t)) {
      const decl = p.valueDeclaration || (p.declarations && p.declarations[0]);
      const pt = decl ? checker.getTypeOfSymbolAtLocation(p, decl) : checker.getTypeOfSymbol(p);
      if (pt.getCallSignatures().length > 0 && !(pt.flags & F.Object && checker.getPropertiesOfType(pt).length)) { props[p.name] = { kind: 'function' }; continue; }
      props[p.name] = describe(pt, depth + 1);
    }
    if (t.getCallSignatures().length > 0) return { kind: 'function' };
    const idx = checker.getIndexInfosOfType(t);
    // An object literal of a .js file is open-ended: properties assigned
    // later are not in its type.
    // A literal returned where it is written is not: nothing can add to it.
    const open = !!(t.objectFlags & ts.ObjectFlags.JSLiteral) && !returnedAsWritten(d0);
    return { kind: 'object', props, ...(open ? { open } : {}), ...(idx.length ? { index: describe(idx[0].type, depth + 1) } : {}) };
  }
  return { kind: 'any' };
}
// returnedAsWritten reports whether node, an object literal, is the value
// of a return statement or an arrow function's body (through parentheses,
// conditionals and logical operators).
function returnedAsWritten(node) {
  if (!node || !ts.isObjectLiteralExpression(node)) return false;
  let n = node;
  while (n.parent && (ts.isParenthesizedExpression(n.parent) || ts.isConditionalExpression(n.parent) ||
    (ts.isBinaryExpression(n.parent) && n.parent.operatorToken.kind !== ts.SyntaxKind.EqualsToken) || ts.isAwaitExpression(n.parent))) n = n.parent;
  return !!n.parent && (ts.isReturnStatement(n.parent) || ts.isArrowFunction(n.parent) && n.parent.body === n);
}

// addsToWhatItReturns reports whether fn returns a local variable it also
// adds properties to (v.x = …, Object.assign(v, …)): TypeScript's type of
// the variable lacks those.
function addsToWhatItReturns(fn) {
  const returned = new Set();
  const assigned = new Set();
  const visit = (n) => {
    if (ts.isReturnStatement(n) && n.expression && ts.isIdentifier(n.expression)) returned.add(n.expression.text);
    if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken &&
      ts.isPropertyAccessExpression(n.left) && ts.isIdentifier(n.left.expression)) assigned.add(n.left.expression.text);
    if (ts.isCallExpression(n) && n.expression.getText() === 'Object.assign' && n.arguments.length && ts.isIdentifier(n.arguments[0])) {
      assigned.add(n.arguments[0].text);
    }
    ts.forEachChild(n, visit);
  };
  visit(fn);
  return [...returned].some((v) => assigned.has(v));
}

// openUp marks t's object types (and a union's) as open-ended.
function openUp(t) {
  if (t.kind === 'object') t.open = true;
  if (t.kind === 'union') for (const m of t.of) openUp(m);
}

const out = {};
for (const entry of entries) {
  const sf = program.getSourceFile(require('path').resolve(entry));
  if (!sf) throw new Error('no source file ' + entry);
  const mod = checker.getSymbolAtLocation(sf);
  for (let sym of checker.getExportsOfModule(mod)) {
    const name = sym.name;
    if (sym.flags & ts.SymbolFlags.Alias) sym = checker.getAliasedSymbol(sym);
    const decl = sym.valueDeclaration;
    if (!decl) continue;
    const ft = checker.getTypeOfSymbolAtLocation(sym, decl);
    const sigs = ft.getCallSignatures();
    if (!sigs.length) continue;
    const t = describe(checker.getReturnTypeOfSignature(sigs[0]), 0);
    if (addsToWhatItReturns(decl)) openUp(t);
    out[name] = t;
  }
}
process.stdout.write(JSON.stringify(out, null, 1));
