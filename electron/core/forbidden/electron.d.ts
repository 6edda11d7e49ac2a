// electron/core must not import Electron. tsconfig.core.json maps 'electron' to this file, which is
// deliberately not a module: any import of 'electron' from the core fails the typecheck with TS2306.
declare const electronIsForbiddenInCore: never;
