/** A JSDoc block from paragraphs of text, wrapped at `width` columns; `*\/` is escaped. */
export function jsDoc(paragraphs: ReadonlyArray<string | undefined>, indent: string, width = 100): string {
  const lines: string[] = [];
  for (const paragraph of paragraphs) {
    if (paragraph === undefined || paragraph.trim() === '') continue;
    if (lines.length > 0) lines.push('');
    for (const sourceLine of paragraph.trim().split(/\r?\n/)) {
      let current = '';
      for (const word of sourceLine.trim().split(/\s+/)) {
        if (current !== '' && indent.length + 3 + current.length + 1 + word.length > width) {
          lines.push(current);
          current = word;
        } else current = current === '' ? word : `${current} ${word}`;
      }
      lines.push(current);
    }
  }
  const body = lines.map((l) => l.replace(/\*\//g, '*\\/'));
  if (body.length === 0) return '';
  if (body.length === 1) return `${indent}/** ${body[0]} */\n`;
  return `${indent}/**\n${body.map((l) => `${indent} *${l ? ` ${l}` : ''}`).join('\n')}\n${indent} */\n`;
}

/** A module specifier as a single-quoted string literal, like the fixed imports beside it. */
export function moduleSpecifier(specifier: string): string {
  return `'${specifier.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
