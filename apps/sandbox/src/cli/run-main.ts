/**
 * Runs a command's `main` as the process: its result is the exit code; a failure it did not
 * turn into one is printed (through `describe` when given) and exits 1.
 */
export function runMain(main: () => Promise<number>, describe: (error: unknown) => unknown = (error) => error): void {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(describe(error));
      process.exitCode = 1;
    },
  );
}
