/**
 * The handlebars templates of a scaffold: the ones shipped in `templates/scaffold/`, each
 * replaceable by a file of the same name in the team's `--templates` folder.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Handlebars from 'handlebars';
import type { PlannedGroup, PlannedOperation, ScaffoldPlan } from './plan.js';

export const TEMPLATE_NAMES = ['group.ts.hbs', 'operation.ts.hbs', 'index.ts.hbs', 'README.md.hbs'] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

/** The templates shipped with the package (`templates/scaffold/`, beside `dist/` and `src/`). */
export const DEFAULT_TEMPLATES_DIR = fileURLToPath(new URL('../../templates/scaffold/', import.meta.url));

export class TemplateError extends Error {}

export interface TemplateSet {
  /** Where each template was read from (for messages). */
  sources: Record<TemplateName, string>;
  group(data: ScaffoldPlan & PlannedGroup): string;
  operation(data: PlannedOperation): string;
  index(data: ScaffoldPlan): string;
  readme(data: ScaffoldPlan & { spec: string }): string;
}

/**
 * Reads and compiles the templates. Compiled in strict mode, so a template that names a
 * field the scaffold does not provide is an error naming the template, not an empty string.
 */
export async function loadTemplates(customDir?: string): Promise<TemplateSet> {
  const custom = new Set<string>();
  if (customDir !== undefined) {
    let entries: string[];
    try {
      entries = await readdir(customDir);
    } catch (error) {
      throw new TemplateError(`${customDir}: cannot read the templates folder (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    for (const entry of entries) {
      if ((TEMPLATE_NAMES as readonly string[]).includes(entry)) custom.add(entry);
      else if (entry.endsWith('.hbs')) throw new TemplateError(`${path.join(customDir, entry)}: unknown template (known: ${TEMPLATE_NAMES.join(', ')})`);
    }
  }
  const handlebars = Handlebars.create();
  const sources = {} as Record<TemplateName, string>;
  const compiled = {} as Record<TemplateName, (data: unknown) => string>;
  for (const name of TEMPLATE_NAMES) {
    const file = custom.has(name) ? path.join(customDir!, name) : path.join(DEFAULT_TEMPLATES_DIR, name);
    sources[name] = file;
    const text = await readFile(file, 'utf8');
    const template = handlebars.compile(text, { noEscape: true, strict: true });
    compiled[name] = (data: unknown) => {
      try {
        return template(data);
      } catch (error) {
        throw new TemplateError(`${file}: ${(error as Error).message}`);
      }
    };
  }
  handlebars.registerPartial('operation', (data: unknown) => compiled['operation.ts.hbs'](data));
  return {
    sources,
    group: (data) => compiled['group.ts.hbs'](data),
    operation: (data) => compiled['operation.ts.hbs'](data),
    index: (data) => compiled['index.ts.hbs'](data),
    readme: (data) => compiled['README.md.hbs'](data),
  };
}
