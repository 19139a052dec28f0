/** The enums the options need, from whichever TypeScript the caller loaded (its own, ts-morph's). */
interface TypeScriptEnums {
  ScriptTarget: { ES2022: number };
  ModuleKind: { NodeNext: number };
  ModuleResolutionKind: { NodeNext: number };
}

/**
 * The options generated code is type-checked with, by `verify` and by the tests that check
 * generated code: strict, with unchecked index access, NodeNext modules, no ambient types.
 */
export function generatedCodeCompilerOptions(ts: TypeScriptEnums) {
  return {
    strict: true,
    noUncheckedIndexedAccess: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    noEmit: true,
    types: [] as string[],
  };
}
