// The command line of the bench's own scripts: `--name value` options.

/** A reader of `--name value` in `args`: the value, or `fallback` when the option is absent or has no value. */
export function optionReader(args) {
  return (name, fallback) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
  };
}
